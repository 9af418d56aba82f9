import * as v from "valibot";
import { operation, Reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../../shapes/common.ts";
import { Issue, IssueParams } from "../../../../shapes/issue.ts";
import { IssueMeta } from "../../../../shapes/issue-extras.ts";
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
import { issueView } from "../../../../services/issue/view.ts";
import type { IssueContext } from "../../../../services/issue/lookup.ts";
import type { Env } from "../../../../services/env.ts";
import type { Doer } from "../../../../services/access/permission.ts";
import type { IssueRow } from "../../../../db/schema/index.ts";
import type { SignedIn } from "../../../../services/access/repo-access.ts";

/** Listing: Gitea's mustEnableIssuesOrPulls on the `/issues` group, then the issue. */
const read = { scope: "issue", signIn: false, repo: { read: "tracker" }, issue: true } as const;
/** `/dependencies`: mustEnableIssuesOrPulls, reqToken, mustNotBeArchived, then the issue. */
const depend = { scope: "issue", signIn: false, repo: { read: "tracker", doer: true, notArchived: true }, issue: true } as const;
/** `/blocks`: the same without mustNotBeArchived, which Gitea does not ask there. */
const block = { scope: "issue", signIn: false, repo: { read: "tracker", doer: true }, issue: true } as const;

type Ctx = {
  env: Env;
  issue: SignedIn<IssueContext>;
  doer: Doer;
  body: { index?: number | null; owner?: string | null; repo?: string | null };
};

/**
 * The two issues of a dependency change: the one in the path and the one the body names. On
 * `/dependencies` the path issue is the blocked one, on `/blocks` the blocker.
 */
function pair(ctx: Ctx): { path: SignedIn<IssueInRepo>; other: IssueInRepo } {
  const ref = { owner: ctx.body.owner ?? "", repo: ctx.body.repo ?? "", index: ctx.body.index ?? 0 };
  return { path: ctx.issue, other: issueOfRef(ctx.env, ctx.doer, ctx.issue, ref) };
}

function issueJson(env: Env, at: IssueInRepo, issue: IssueRow, doer: Doer | undefined) {
  return toAPIIssue(env.settings, issueView(env, at.repo, at.owner, issue), doer);
}

export const dependencyOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/:index/dependencies",
    operationId: "issueListIssueDependencies",
    tag: "issue",
    summary: "List an issue's dependencies, i.e all issues that block this issue.",
    access: read,
    params: IssueParams,
    query: PageQuery,
    responses: { 200: v.array(Issue) },
    handler: (ctx) => {
      const { env, doer } = ctx;
      const blockers = listBlockers(env, doer, ctx.issue, ctx.page());
      return blockers.map((b) => toAPIBlocker(env.settings, b, doer));
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/issues/:index/dependencies",
    operationId: "issueCreateIssueDependencies",
    tag: "issue",
    summary: "Make the issue in the url depend on the issue in the form.",
    access: depend,
    params: IssueParams,
    body: IssueMeta,
    responses: { 201: Issue },
    handler: (ctx) => {
      const { path, other } = pair(ctx);
      const { blocked } = addDependency(ctx.env, ctx.doer, path, other);
      return new Reply(201, issueJson(ctx.env, path, blocked, ctx.doer));
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/:index/dependencies",
    operationId: "issueRemoveIssueDependencies",
    tag: "issue",
    summary: "Remove an issue dependency",
    access: depend,
    params: IssueParams,
    body: IssueMeta,
    // Gitea's document says 200; Gitea answers 201, as clients see.
    responses: { 201: Issue },
    handler: (ctx) => {
      const { path, other } = pair(ctx);
      const { blocked } = removeDependency(ctx.env, ctx.doer, path, other);
      return new Reply(201, issueJson(ctx.env, path, blocked, ctx.doer));
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/:index/blocks",
    operationId: "issueListBlocks",
    tag: "issue",
    summary: "List issues that are blocked by this issue",
    access: read,
    params: IssueParams,
    query: PageQuery,
    responses: { 200: v.array(Issue) },
    handler: (ctx) => {
      const { env, doer } = ctx;
      const views = listBlocked(env, doer, ctx.issue, ctx.page());
      return views.map((view) => toAPIIssue(env.settings, view, doer));
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/issues/:index/blocks",
    operationId: "issueCreateIssueBlocking",
    tag: "issue",
    summary: "Block the issue given in the body by the issue in path",
    access: block,
    params: IssueParams,
    body: IssueMeta,
    responses: { 201: Issue },
    handler: (ctx) => {
      const { path, other } = pair(ctx);
      const { blocker } = addDependency(ctx.env, ctx.doer, other, path);
      return new Reply(201, issueJson(ctx.env, path, blocker, ctx.doer));
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/:index/blocks",
    operationId: "issueRemoveIssueBlocking",
    tag: "issue",
    summary: "Unblock the issue given in the body by the issue in path",
    access: block,
    params: IssueParams,
    body: IssueMeta,
    // Gitea's document says 200; Gitea answers 201.
    responses: { 201: Issue },
    handler: (ctx) => {
      const { path, other } = pair(ctx);
      const { blocker } = removeDependency(ctx.env, ctx.doer, other, path);
      return new Reply(201, issueJson(ctx.env, path, blocker, ctx.doer));
    },
  }),
];
