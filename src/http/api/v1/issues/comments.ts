import * as v from "valibot";
import { operation, reply, Reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../schemas/common.ts";
import { RepoParams } from "../../../schemas/repo.ts";
import { IssueParams } from "../../../schemas/issue.ts";
import { Comment, CommentParams, CreateIssueCommentOption, EditIssueCommentOption, IssueCommentParams } from "../../../schemas/comment.ts";
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
import { issueFromPath, requireTrackerReader } from "../../../../services/issue/lookup.ts";
import type { Principal } from "../../../../auth/principal.ts";
import type { Env } from "../../../../services/env.ts";
import { repoFromPath } from "../repos/context.ts";
import { requireToken, totalHeaders } from "../repos/collaborators.ts";
import { requireNotArchived, timeQuery } from "./issues.ts";

const WindowQuery = v.object({ since: v.optional(v.string()), before: v.optional(v.string()) });

/** Gitea reads `since`/`before` before anything else: a bad one is a 422 even for a missing issue. */
function window(query: { since?: string; before?: string }) {
  return { sinceUnix: timeQuery(query.since), beforeUnix: timeQuery(query.before) };
}

type Ctx = { env: Env; principal: Principal | undefined; url: URL; params: { owner: string; repo: string; id: string } };

/** Gitea's editIssueComment, shared by the current and the deprecated route: 204 for a timeline event. */
function edit(ctx: Ctx & { body: { body: string } }, checkArchived: boolean) {
  const { env, principal, url, params } = ctx;
  const rc = repoFromPath(env, principal, url, params);
  requireTrackerReader(rc);
  if (checkArchived) requireNotArchived(rc); // the deprecated route never checked
  requireToken(principal);
  const cc = commentFromPath(env, rc, params.id);
  const view = editComment(env, principal.user, cc, ctx.body.body);
  return view ? toAPIComment(env.settings, view) : reply.noContent();
}

function remove({ env, principal, url, params }: Ctx) {
  const rc = repoFromPath(env, principal, url, params);
  requireTrackerReader(rc);
  requireToken(principal);
  deleteComment(env, principal.user, commentFromPath(env, rc, params.id));
  return reply.noContent();
}

export const commentOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/comments",
    operationId: "issueGetRepoComments",
    tag: "issue",
    summary: "List all comments in a repository",
    access: { scope: "issue", signIn: false },
    params: RepoParams,
    query: v.object({ ...WindowQuery.entries, ...PageQuery.entries }),
    responses: { 200: v.array(Comment) },
    handler: (ctx) => {
      const w = window(ctx.query);
      const rc = repoFromPath(ctx.env, ctx.principal, ctx.url, ctx.params);
      const page = ctx.page();
      const { views, total } = listRepoComments(ctx.env, rc, { ...w, ...page });
      return ctx.list(views.map((c) => toAPIComment(ctx.env.settings, c)), total, page);
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/:index/comments",
    operationId: "issueGetComments",
    tag: "issue",
    summary: "List all comments on an issue",
    access: { scope: "issue", signIn: false },
    params: IssueParams,
    query: WindowQuery,
    responses: { 200: v.array(Comment) },
    handler: (ctx) => {
      const w = window(ctx.query);
      const rc = repoFromPath(ctx.env, ctx.principal, ctx.url, ctx.params);
      requireTrackerReader(rc);
      const views = listIssueComments(ctx.env, issueFromPath(ctx.env, rc, ctx.params.index), w);
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
    access: { scope: "issue", signIn: false },
    params: IssueParams,
    body: CreateIssueCommentOption,
    responses: { 201: Comment },
    handler: (ctx) => {
      const rc = repoFromPath(ctx.env, ctx.principal, ctx.url, ctx.params);
      requireTrackerReader(rc);
      requireToken(ctx.principal);
      requireNotArchived(rc);
      const ic = issueFromPath(ctx.env, rc, ctx.params.index);
      const view = createComment(ctx.env, ctx.principal.user, ic, ctx.body.body);
      return reply.created(toAPIComment(ctx.env.settings, view));
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/comments/:id",
    operationId: "issueGetComment",
    tag: "issue",
    summary: "Get a comment",
    access: { scope: "issue", signIn: false },
    params: CommentParams,
    responses: { 200: Comment, 204: null },
    handler: ({ env, principal, url, params }) => {
      const rc = repoFromPath(env, principal, url, params);
      requireTrackerReader(rc);
      const view = getComment(env, commentFromPath(env, rc, params.id));
      return view ? toAPIComment(env.settings, view) : reply.noContent();
    },
  }),
  operation({
    method: "PATCH",
    path: "/repos/:owner/:repo/issues/comments/:id",
    operationId: "issueEditComment",
    tag: "issue",
    summary: "Edit a comment",
    access: { scope: "issue", signIn: false },
    params: CommentParams,
    body: EditIssueCommentOption,
    responses: { 200: Comment, 204: null },
    handler: (ctx) => edit(ctx, true),
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/comments/:id",
    operationId: "issueDeleteComment",
    tag: "issue",
    summary: "Delete a comment",
    access: { scope: "issue", signIn: false },
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
    access: { scope: "issue", signIn: false },
    params: IssueCommentParams,
    body: EditIssueCommentOption,
    responses: { 200: Comment, 204: null },
    // The index is ignored, as in Gitea: the comment id alone names the comment.
    handler: (ctx) => edit(ctx, false),
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/:index/comments/:id",
    operationId: "issueDeleteCommentDeprecated",
    tag: "issue",
    summary: "Delete a comment",
    access: { scope: "issue", signIn: false },
    params: IssueCommentParams,
    responses: { 204: null },
    handler: remove,
  }),
];
