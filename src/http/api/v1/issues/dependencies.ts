import * as v from "valibot";
import { operation, Reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../schemas/common.ts";
import { Issue, IssueParams } from "../../../schemas/issue.ts";
import { IssueMeta } from "../../../schemas/issue-extras.ts";
import { toAPIIssue } from "../../../../convert/issue.ts";
import { toAPIBlocker } from "../../../../convert/dependency.ts";
import {
  addDependency,
  issueOfRef,
  listBlocked,
  listBlockers,
  removeDependency,
  type IssueInRepo,
} from "../../../../services/issue/dependencies.ts";
import { issueFromPath, requireTrackerReader } from "../../../../services/issue/lookup.ts";
import { issueView } from "../../../../services/issue/view.ts";
import type { Principal } from "../../../../auth/principal.ts";
import type { Env } from "../../../../services/env.ts";
import type { IssueRow } from "../../../../db/schema/index.ts";
import { repoFromPath } from "../repos/context.ts";
import { requireToken } from "../repos/collaborators.ts";
import { requireNotArchived } from "./issues.ts";

type Ctx = {
  env: Env;
  principal: Principal | undefined;
  url: URL;
  params: { owner: string; repo: string; index: string };
  body: { index?: number | null; owner?: string | null; repo?: string | null };
};

/**
 * The two issues of a dependency change: the one in the path and the one the body names. On
 * `/dependencies` the path issue is the blocked one, on `/blocks` the blocker. Gitea checks the
 * archived state of the repository only on `/dependencies` (mustNotBeArchived).
 */
function pair(ctx: Ctx, checkArchived: boolean): { path: IssueInRepo; other: IssueInRepo } {
  const { env, principal, url, params } = ctx;
  const rc = repoFromPath(env, principal, url, params);
  requireTrackerReader(rc);
  requireToken(principal);
  if (checkArchived) requireNotArchived(rc);
  const path = issueFromPath(env, rc, params.index);
  const ref = { owner: ctx.body.owner ?? "", repo: ctx.body.repo ?? "", index: ctx.body.index ?? 0 };
  const other = issueOfRef(env, principal.user, rc, ref);
  return { path, other };
}

function issueJson(env: Env, at: IssueInRepo, issue: IssueRow, principal: Principal | undefined) {
  return toAPIIssue(env.settings, issueView(env, at.repo, at.owner, issue), principal?.user);
}

export const dependencyOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/:index/dependencies",
    operationId: "issueListIssueDependencies",
    tag: "issue",
    summary: "List an issue's dependencies, i.e all issues that block this issue.",
    access: { scope: "issue", signIn: false },
    params: IssueParams,
    query: PageQuery,
    responses: { 200: v.array(Issue) },
    handler: (ctx) => {
      const { env, principal } = ctx;
      const rc = repoFromPath(env, principal, ctx.url, ctx.params);
      requireTrackerReader(rc);
      const ic = issueFromPath(env, rc, ctx.params.index);
      const blockers = listBlockers(env, principal?.user, ic, ctx.page());
      return blockers.map((b) => toAPIBlocker(env.settings, b, principal?.user));
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/issues/:index/dependencies",
    operationId: "issueCreateIssueDependencies",
    tag: "issue",
    summary: "Make the issue in the url depend on the issue in the form.",
    access: { scope: "issue", signIn: false },
    params: IssueParams,
    body: IssueMeta,
    responses: { 201: Issue },
    handler: (ctx) => {
      const { path, other } = pair(ctx, true);
      const { blocked } = addDependency(ctx.env, ctx.principal!.user, path, other);
      return new Reply(201, issueJson(ctx.env, path, blocked, ctx.principal));
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/:index/dependencies",
    operationId: "issueRemoveIssueDependencies",
    tag: "issue",
    summary: "Remove an issue dependency",
    access: { scope: "issue", signIn: false },
    params: IssueParams,
    body: IssueMeta,
    // Gitea's document says 200; Gitea answers 201, as clients see.
    responses: { 201: Issue },
    handler: (ctx) => {
      const { path, other } = pair(ctx, true);
      const { blocked } = removeDependency(ctx.env, ctx.principal!.user, path, other);
      return new Reply(201, issueJson(ctx.env, path, blocked, ctx.principal));
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/:index/blocks",
    operationId: "issueListBlocks",
    tag: "issue",
    summary: "List issues that are blocked by this issue",
    access: { scope: "issue", signIn: false },
    params: IssueParams,
    query: PageQuery,
    responses: { 200: v.array(Issue) },
    handler: (ctx) => {
      const { env, principal } = ctx;
      const rc = repoFromPath(env, principal, ctx.url, ctx.params);
      requireTrackerReader(rc);
      const ic = issueFromPath(env, rc, ctx.params.index);
      const views = listBlocked(env, principal?.user, ic, ctx.page());
      return views.map((view) => toAPIIssue(env.settings, view, principal?.user));
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/issues/:index/blocks",
    operationId: "issueCreateIssueBlocking",
    tag: "issue",
    summary: "Block the issue given in the body by the issue in path",
    access: { scope: "issue", signIn: false },
    params: IssueParams,
    body: IssueMeta,
    responses: { 201: Issue },
    handler: (ctx) => {
      const { path, other } = pair(ctx, false);
      const { blocker } = addDependency(ctx.env, ctx.principal!.user, other, path);
      return new Reply(201, issueJson(ctx.env, path, blocker, ctx.principal));
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/:index/blocks",
    operationId: "issueRemoveIssueBlocking",
    tag: "issue",
    summary: "Unblock the issue given in the body by the issue in path",
    access: { scope: "issue", signIn: false },
    params: IssueParams,
    body: IssueMeta,
    // Gitea's document says 200; Gitea answers 201.
    responses: { 201: Issue },
    handler: (ctx) => {
      const { path, other } = pair(ctx, false);
      const { blocker } = removeDependency(ctx.env, ctx.principal!.user, other, path);
      return new Reply(201, issueJson(ctx.env, path, blocker, ctx.principal));
    },
  }),
];
