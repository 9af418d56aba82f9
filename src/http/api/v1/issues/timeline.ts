import * as v from "valibot";
import { operation, Reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../../shapes/common.ts";
import { IssueParams } from "../../../../shapes/issue.ts";
import { TimelineComment } from "../../../../shapes/issue-extras.ts";
import { toAPITimelineComment } from "../../../../convert/timeline.ts";
import { issueFromPath } from "../../../../services/issue/lookup.ts";
import { issueTimeline } from "../../../../services/issue/timeline.ts";
import { totalHeaders } from "../repos/collaborators.ts";
import { timeQuery } from "./issues.ts";

/**
 * Gitea's mustEnableIssuesOrPulls. The issue is not declared: Gitea reads since/before before it
 * looks the issue up, so a bad one is a 422 even for a missing issue.
 */
const read = { scope: "issue", signIn: false, repo: { read: "tracker" } } as const;

export const timelineOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/:index/timeline",
    operationId: "issueGetCommentsAndTimeline",
    tag: "issue",
    summary: "List all comments and events on an issue",
    access: read,
    params: IssueParams,
    query: v.object({ since: v.optional(v.string()), before: v.optional(v.string()), ...PageQuery.entries }),
    responses: { 200: v.array(TimelineComment) },
    handler: (ctx) => {
      const { env, doer, query } = ctx;
      const sinceUnix = timeQuery(query.since);
      const beforeUnix = timeQuery(query.before);
      const ic = issueFromPath(env, ctx.repo, ctx.params.index);
      // Gitea pages only when `page` is given; without it the whole timeline comes back.
      const page = query.page !== undefined && Number(query.page) >= 1 ? ctx.page() : undefined;
      const views = issueTimeline(env, doer, ic, { sinceUnix, beforeUnix, page });
      // Gitea counts the entries of this answer (not of the whole timeline); it sends `null` for none, we `[]`.
      return new Reply(
        200,
        views.map((view) => toAPITimelineComment(env.settings, view, doer)),
        totalHeaders(views.length),
      );
    },
  }),
];
