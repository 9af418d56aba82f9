import * as v from "valibot";
import { operation, reply, type AnyOperation } from "../../../route.ts";
import { RepoParams } from "../../../schemas/repo.ts";
import { Issue, IssueParams } from "../../../schemas/issue.ts";
import { IssuePinParams, NewIssuePinsAllowed } from "../../../schemas/issue-extras.ts";
import { toAPIIssue } from "../../../../convert/issue.ts";
import { issueFromPath, requireTrackerReader } from "../../../../services/issue/lookup.ts";
import { moveIssuePin, newPinsAllowed, pinIssue, pinnedIssues, unpinIssue } from "../../../../services/issue/pins.ts";
import { issueViews } from "../../../../services/issue/view.ts";
import type { Principal } from "../../../../auth/principal.ts";
import type { Env } from "../../../../services/env.ts";
import { repoFromPath } from "../repos/context.ts";
import { requireRepoAdmin } from "../repos/repo.ts";

type PinCtx = { env: Env; principal: Principal | undefined; url: URL; params: { owner: string; repo: string; index: string } };

/** Gitea's pin routes: the tracker readable, then reqToken and reqAdmin, then the issue. */
function pinTarget({ env, principal, url, params }: PinCtx) {
  const rc = repoFromPath(env, principal, url, params);
  requireTrackerReader(rc);
  requireRepoAdmin(principal, rc.perm.isAdmin());
  return { doer: principal!.user, ic: issueFromPath(env, rc, params.index) };
}

export const pinOperations: AnyOperation[] = [
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/issues/:index/pin",
    operationId: "pinIssue",
    tag: "issue",
    summary: "Pin an Issue",
    access: { scope: "issue", signIn: false },
    params: IssueParams,
    responses: { 204: null },
    handler: (ctx) => {
      const { doer, ic } = pinTarget(ctx);
      pinIssue(ctx.env, doer, ic);
      return reply.noContent();
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/:index/pin",
    operationId: "unpinIssue",
    tag: "issue",
    summary: "Unpin an Issue",
    access: { scope: "issue", signIn: false },
    params: IssueParams,
    responses: { 204: null },
    handler: (ctx) => {
      const { doer, ic } = pinTarget(ctx);
      unpinIssue(ctx.env, doer, ic);
      return reply.noContent();
    },
  }),
  operation({
    method: "PATCH",
    path: "/repos/:owner/:repo/issues/:index/pin/:position",
    operationId: "moveIssuePin",
    tag: "issue",
    summary: "Moves the Pin to the given Position",
    access: { scope: "issue", signIn: false },
    params: IssuePinParams,
    responses: { 204: null },
    handler: (ctx) => {
      const { ic } = pinTarget(ctx);
      // Gitea parses the position leniently: anything that is not a number is 0.
      const position = /^-?\d{1,15}$/.test(ctx.params.position) ? Number(ctx.params.position) : 0;
      moveIssuePin(ctx.env, ic, position);
      return reply.noContent();
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/pinned",
    operationId: "repoListPinnedIssues",
    tag: "repository",
    summary: "List a repo's pinned issues",
    access: { scope: "issue", signIn: false },
    params: RepoParams,
    responses: { 200: v.array(Issue) },
    handler: ({ env, principal, url, params }) => {
      const rc = repoFromPath(env, principal, url, params);
      requireTrackerReader(rc);
      const views = issueViews(env, () => rc, pinnedIssues(env, rc));
      return views.map((view) => toAPIIssue(env.settings, view, principal?.user));
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/new_pin_allowed",
    operationId: "repoNewPinAllowed",
    tag: "repository",
    summary: "Returns if new Issue Pins are allowed",
    access: { scope: "repository", signIn: false },
    params: RepoParams,
    responses: { 200: NewIssuePinsAllowed },
    handler: ({ env, principal, url, params }) => {
      const allowed = newPinsAllowed(env, repoFromPath(env, principal, url, params));
      return { issues: allowed.issues, pull_requests: allowed.pullRequests };
    },
  }),
];
