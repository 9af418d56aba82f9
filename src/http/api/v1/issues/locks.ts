import { operation, reply, type AnyOperation } from "../../../route.ts";
import { IssueParams } from "../../../../shapes/issue.ts";
import { LockIssueOption } from "../../../../shapes/issue-extras.ts";
import { setIssueLocked } from "../../../../services/issue/locks.ts";

/**
 * Gitea 1.25's lock routes: mustEnableIssuesOrPulls, then reqToken and reqAdmin on the group, then
 * the issue; the service then wants a writer of the issue's unit.
 */
const lock = { scope: "issue", signIn: false, repo: { read: "tracker", admin: true }, issue: true } as const;

export const lockOperations: AnyOperation[] = [
  operation({
    method: "PUT",
    path: "/repos/:owner/:repo/issues/:index/lock",
    operationId: "issueLockIssue",
    tag: "issue",
    summary: "Lock an issue",
    access: lock,
    params: IssueParams,
    body: LockIssueOption,
    responses: { 204: null },
    handler: (ctx) => {
      setIssueLocked(ctx.env, ctx.doer, ctx.issue, true, ctx.body.lock_reason ?? "");
      return reply.noContent();
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/:index/lock",
    operationId: "issueUnlockIssue",
    tag: "issue",
    summary: "Unlock an issue",
    access: lock,
    params: IssueParams,
    responses: { 204: null },
    handler: ({ env, doer, issue }) => {
      setIssueLocked(env, doer, issue, false);
      return reply.noContent();
    },
  }),
];
