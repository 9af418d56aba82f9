import { operation, reply, type AnyOperation } from "../../../route.ts";
import { IssueParams } from "../../../schemas/issue.ts";
import { LockIssueOption } from "../../../schemas/issue-extras.ts";
import { issueFromPath, requireTrackerReader } from "../../../../services/issue/lookup.ts";
import { setIssueLocked } from "../../../../services/issue/locks.ts";
import type { Principal } from "../../../../auth/principal.ts";
import type { Env } from "../../../../services/env.ts";
import { repoFromPath } from "../repos/context.ts";
import { requireRepoAdmin } from "../repos/repo.ts";

type LockCtx = { env: Env; principal: Principal | undefined; url: URL; params: { owner: string; repo: string; index: string } };

/** Gitea 1.25's lock routes: reqToken and reqAdmin on the group, then the handler wants a writer of the issue's unit. */
function lockTarget({ env, principal, url, params }: LockCtx) {
  const rc = repoFromPath(env, principal, url, params);
  requireTrackerReader(rc);
  requireRepoAdmin(principal, rc.perm.isAdmin());
  return { doer: principal!.user, ic: issueFromPath(env, rc, params.index) };
}

export const lockOperations: AnyOperation[] = [
  operation({
    method: "PUT",
    path: "/repos/:owner/:repo/issues/:index/lock",
    operationId: "issueLockIssue",
    tag: "issue",
    summary: "Lock an issue",
    access: { scope: "issue", signIn: false },
    params: IssueParams,
    body: LockIssueOption,
    responses: { 204: null },
    handler: (ctx) => {
      const { doer, ic } = lockTarget(ctx);
      setIssueLocked(ctx.env, doer, ic, true, ctx.body.lock_reason ?? "");
      return reply.noContent();
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/:index/lock",
    operationId: "issueUnlockIssue",
    tag: "issue",
    summary: "Unlock an issue",
    access: { scope: "issue", signIn: false },
    params: IssueParams,
    responses: { 204: null },
    handler: (ctx) => {
      const { doer, ic } = lockTarget(ctx);
      setIssueLocked(ctx.env, doer, ic, false);
      return reply.noContent();
    },
  }),
];
