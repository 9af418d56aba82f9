import * as v from "valibot";
import { operation, reply, Reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../../shapes/common.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import { IssueParams } from "../../../../shapes/issue.ts";
import { Comment, CommentParams, CreateIssueCommentOption, EditIssueCommentOption, IssueCommentParams } from "../../../../shapes/comment.ts";
import { toAPIComment } from "../../../../convert/comment.ts";
import {
  commentFromPath,
  getComment,
  createComment,
  deleteComment,
  editComment,
  listIssueComments,
  listRepoComments,
} from "../../../../services/issue/comments.ts";
import { issueFromPath } from "../../../../services/issue/lookup.ts";
import type { Env } from "../../../../services/env.ts";
import type { Doer } from "../../../../services/access/permission.ts";
import { assertRepoAccess, type SignedIn } from "../../../../services/access/repo-access.ts";
import { requireToken, totalHeaders } from "../repos/collaborators.ts";
import { timeQuery } from "./issues.ts";
import { requireNotArchived } from "../../../../services/access/repo-access.ts";

/** The repository's comments: the repository alone (its issues' units filter the list). */
const repoList = { scope: "issue", signIn: false, repo: {} } as const;
/** Reading: Gitea's mustEnableIssuesOrPulls on the `/issues` group. */
const read = { scope: "issue", signIn: false, repo: { read: "tracker" } } as const;
/** Commenting: mustEnableIssuesOrPulls, reqToken, mustNotBeArchived, then the issue. */
const create = { scope: "issue", signIn: false, repo: { read: "tracker", doer: true, notArchived: true }, issue: true } as const;
/** Changing a comment: mustEnableIssuesOrPulls, reqToken; whether it is the doer's is the service's business. */
const change = { scope: "issue", signIn: false, repo: { read: "tracker", doer: true } } as const;

const WindowQuery = v.object({ since: v.optional(v.string()), before: v.optional(v.string()) });

/** Gitea reads `since`/`before` before the issue: a bad one is a 422 even for a missing issue. */
function window(query: { since?: string; before?: string }) {
  return { sinceUnix: timeQuery(query.since), beforeUnix: timeQuery(query.before) };
}

type Ctx = { env: Env; repo: SignedIn; params: { id: string } };

/** Gitea's editIssueComment, shared by the current and the deprecated route: 204 for a timeline event. */
function edit(ctx: Ctx & { body: { body: string } }, doer: Doer) {
  const view = editComment(ctx.env, doer, commentFromPath(ctx.env, ctx.repo, ctx.params.id), ctx.body.body);
  return view ? toAPIComment(ctx.env.settings, view) : reply.noContent();
}

function remove({ env, repo, params, doer }: Ctx & { doer: Doer }) {
  deleteComment(env, doer, commentFromPath(env, repo, params.id));
  return reply.noContent();
}

export const commentOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/comments",
    operationId: "issueGetRepoComments",
    tag: "issue",
    summary: "List all comments in a repository",
    access: repoList,
    params: RepoParams,
    query: v.object({ ...WindowQuery.entries, ...PageQuery.entries }),
    responses: { 200: v.array(Comment) },
    handler: (ctx) => {
      const w = window(ctx.query);
      const page = ctx.page();
      const { views, total } = listRepoComments(ctx.env, ctx.repo, { ...w, ...page });
      return ctx.list(views.map((c) => toAPIComment(ctx.env.settings, c)), total, page);
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/:index/comments",
    operationId: "issueGetComments",
    tag: "issue",
    summary: "List all comments on an issue",
    // The issue is looked up by the handler, after the window was read.
    access: read,
    params: IssueParams,
    query: WindowQuery,
    responses: { 200: v.array(Comment) },
    handler: (ctx) => {
      const w = window(ctx.query);
      const views = listIssueComments(ctx.env, issueFromPath(ctx.env, ctx.repo, ctx.params.index), w);
      // Gitea answers every comment at once, with the count but no Link header.
      return new Reply(200, views.map((c) => toAPIComment(ctx.env.settings, c)), totalHeaders(views.length));
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/issues/:index/comments",
    operationId: "issueCreateComment",
    tag: "issue",
    summary: "Add a comment to an issue",
    access: create,
    params: IssueParams,
    body: CreateIssueCommentOption,
    responses: { 201: Comment },
    handler: (ctx) => {
      const view = createComment(ctx.env, ctx.doer, ctx.issue, ctx.body.body);
      return reply.created(toAPIComment(ctx.env.settings, view));
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/comments/:id",
    operationId: "issueGetComment",
    tag: "issue",
    summary: "Get a comment",
    access: read,
    params: CommentParams,
    responses: { 200: Comment, 204: null },
    handler: ({ env, repo, params }) => {
      const view = getComment(env, commentFromPath(env, repo, params.id));
      return view ? toAPIComment(env.settings, view) : reply.noContent();
    },
  }),
  operation({
    method: "PATCH",
    path: "/repos/:owner/:repo/issues/comments/:id",
    operationId: "issueEditComment",
    tag: "issue",
    summary: "Edit a comment",
    // Gitea's mustNotBeArchived comes before reqToken here, which a declaration cannot say (its
    // archived check follows sign-in): both are asked by the handler, in that order.
    access: read,
    params: CommentParams,
    body: EditIssueCommentOption,
    responses: { 200: Comment, 204: null },
    handler: (ctx) => {
      requireNotArchived(ctx.repo);
      requireToken(ctx.principal);
      const doer = ctx.principal.user;
      // The sign-in just asked, proved for the service (it cannot refuse any more).
      const { repo } = ctx;
      assertRepoAccess(repo, doer, { doer: true });
      return edit({ ...ctx, repo }, doer);
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/comments/:id",
    operationId: "issueDeleteComment",
    tag: "issue",
    summary: "Delete a comment",
    access: change,
    params: CommentParams,
    responses: { 204: null },
    handler: remove,
  }),
  operation({
    method: "PATCH",
    path: "/repos/:owner/:repo/issues/:index/comments/:id",
    operationId: "issueEditCommentDeprecated",
    tag: "issue",
    summary: "Edit a comment",
    // The index is ignored, as in Gitea: the comment id alone names the comment (and this route
    // never checked the archived state).
    access: change,
    params: IssueCommentParams,
    body: EditIssueCommentOption,
    responses: { 200: Comment, 204: null },
    handler: (ctx) => edit(ctx, ctx.doer),
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/:index/comments/:id",
    operationId: "issueDeleteCommentDeprecated",
    tag: "issue",
    summary: "Delete a comment",
    access: change,
    params: IssueCommentParams,
    responses: { 204: null },
    handler: remove,
  }),
];
