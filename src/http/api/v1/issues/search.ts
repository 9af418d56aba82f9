import * as v from "valibot";
import { operation, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../../shapes/common.ts";
import { Issue } from "../../../../shapes/issue.ts";
import { toAPIIssue } from "../../../../convert/issue.ts";
import { searchIssues } from "../../../../services/issue/search.ts";
import { timeQuery } from "./issues.ts";

/** Gitea's default page size of this endpoint is the web UI's (`[ui] ISSUE_PAGING_NUM`), not the API's. */
const ISSUE_PAGING_NUM = 20;

/** Go's strconv.ParseBool, as Gitea's FormBool reads flags; anything else is false. */
const flag = (s: string | undefined) => s !== undefined && ["1", "t", "T", "true", "TRUE", "True"].includes(s);

const SearchQuery = v.object({
  ...PageQuery.entries,
  state: v.optional(v.string()),
  labels: v.optional(v.string()),
  milestones: v.optional(v.string()),
  q: v.optional(v.string()),
  // Accepted for compatibility; Gitea's indexer-based search no longer orders by it.
  priority_repo_id: v.optional(v.string()),
  type: v.optional(v.string()),
  since: v.optional(v.string()),
  before: v.optional(v.string()),
  assigned: v.optional(v.string()),
  created: v.optional(v.string()),
  mentioned: v.optional(v.string()),
  review_requested: v.optional(v.string()),
  reviewed: v.optional(v.string()),
  owner: v.optional(v.string()),
  team: v.optional(v.string()),
});

function int(s: string | undefined): number {
  return s !== undefined && /^-?\d{1,9}$/.test(s.trim()) ? Number(s.trim()) : 0;
}

export const issueSearchOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/issues/search",
    operationId: "issueSearchIssues",
    tag: "issue",
    summary: "Search for issues across the repositories that the user has access to",
    access: { scope: "issue", signIn: false },
    query: SearchQuery,
    responses: { 200: v.array(Issue) },
    handler: (ctx) => {
      const { env, doer, query } = ctx;
      const sinceUnix = timeQuery(query.since);
      const beforeUnix = timeQuery(query.before);
      let limit = int(query.limit);
      if (limit <= 0) limit = ISSUE_PAGING_NUM;
      limit = Math.min(limit, env.settings.api.maxResponseItems);
      const pageNumber = Math.max(1, int(query.page));
      const page = { page: pageNumber, limit, offset: (pageNumber - 1) * limit };
      const { views, total } = searchIssues(
        env,
        doer,
        {
          state: query.state,
          labels: query.labels,
          milestones: query.milestones,
          q: query.q,
          type: query.type,
          sinceUnix,
          beforeUnix,
          assigned: flag(query.assigned),
          created: flag(query.created),
          mentioned: flag(query.mentioned),
          reviewRequested: flag(query.review_requested),
          reviewed: flag(query.reviewed),
          owner: query.owner,
          team: query.team,
          offset: page.offset,
          limit: page.limit,
        },
      );
      return ctx.list(views.map((view) => toAPIIssue(env.settings, view, doer)), total, page);
    },
  }),
];
