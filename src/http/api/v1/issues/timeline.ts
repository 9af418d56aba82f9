import * as v from "valibot";
import { operation, Reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../schemas/common.ts";
import { IssueParams } from "../../../schemas/issue.ts";
import { TimelineComment } from "../../../schemas/issue-extras.ts";
import { toAPITimelineComment } from "../../../../convert/timeline.ts";
import { issueFromPath, requireTrackerReader } from "../../../../services/issue/lookup.ts";
import { issueTimeline } from "../../../../services/issue/timeline.ts";
import { repoFromPath } from "../repos/context.ts";
import { totalHeaders } from "../repos/collaborators.ts";
import { timeQuery } from "./issues.ts";

export const timelineOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/:index/timeline",
    operationId: "issueGetCommentsAndTimeline",
    tag: "issue",
    summary: "List all comments and events on an issue",
    access: { scope: "issue", signIn: false },
    params: IssueParams,
    query: v.object({ since: v.optional(v.string()), before: v.optional(v.string()), ...PageQuery.entries }),
    responses: { 200: v.array(TimelineComment) },
    handler: (ctx) => {
      const { env, principal, query } = ctx;
      // Gitea reads since/before first: a bad one is a 422 even for a missing issue.
      const sinceUnix = timeQuery(query.since);
      const beforeUnix = timeQuery(query.before);
      const rc = repoFromPath(env, principal, ctx.url, ctx.params);
      requireTrackerReader(rc);
      const ic = issueFromPath(env, rc, ctx.params.index);
      // Gitea pages only when `page` is given; without it the whole timeline comes back.
      const page = query.page !== undefined && Number(query.page) >= 1 ? ctx.page() : undefined;
      const views = issueTimeline(env, principal?.user, ic, { sinceUnix, beforeUnix, page });
      // Gitea counts the entries of this answer (not of the whole timeline); it sends `null` for none, we `[]`.
      return new Reply(
        200,
        views.map((view) => toAPITimelineComment(env.settings, view, principal?.user)),
        totalHeaders(views.length),
      );
    },
  }),
];
