import * as v from "valibot";
import { operation, Reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../../shapes/common.ts";
import { IssueParams } from "../../../../shapes/issue.ts";
import { CommentParams, EditReactionOption, Reaction } from "../../../../shapes/comment.ts";
import { toAPIReaction } from "../../../../convert/reaction.ts";
import { commentFromPath } from "../../../../services/issue/comments.ts";
import {
  addReaction,
  listCommentReactions,
  listIssueReactions,
  removeReaction,
  type ReactionView,
} from "../../../../services/issue/reactions.ts";
import type { Env } from "../../../../services/env.ts";
import type { Doer } from "../../../../services/access/permission.ts";
import type { IssueContext } from "../../../../services/issue/lookup.ts";
import type { CommentContext } from "../../../../services/issue/comments.ts";
import type { SignedIn } from "../../../../services/access/repo-access.ts";

/**
 * Reading: Gitea's mustEnableIssuesOrPulls (404 when no tracker is readable); the service finds
 * the issue or comment and answers for its unit.
 */
const read = { scope: "issue", signIn: false, repo: { read: "tracker" } } as const;
/** Reacting to an issue: the tracker, reqToken, then the issue. */
const onIssue = { scope: "issue", signIn: false, repo: { read: "tracker", doer: true }, issue: true } as const;
/** Reacting to a comment: the tracker, reqToken; the handler finds the comment. */
const onComment = { scope: "issue", signIn: false, repo: { read: "tracker", doer: true } } as const;

type Ctx = { env: Env; doer: Doer; body: { content?: string | null } };

const json = (env: Env, views: ReactionView[], doer: Doer | undefined) => views.map((r) => toAPIReaction(env.settings, r, doer));

/** POST: 201 for a new reaction, 200 with the existing one when the doer had already reacted so. */
function post(ctx: Ctx, target: SignedIn<IssueContext | CommentContext>) {
  const { view, created } = addReaction(ctx.env, ctx.doer, target, ctx.body.content ?? "");
  return new Reply(created ? 201 : 200, toAPIReaction(ctx.env.settings, view, ctx.doer));
}

/** DELETE: Gitea answers 200 with an empty body. */
function remove(ctx: Ctx, target: SignedIn<IssueContext | CommentContext>) {
  removeReaction(ctx.env, ctx.doer, target, ctx.body.content ?? "");
  return new Reply(200);
}

export const reactionOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/:index/reactions",
    operationId: "issueGetIssueReactions",
    tag: "issue",
    summary: "Get a list reactions of an issue",
    access: read,
    params: IssueParams,
    query: PageQuery,
    responses: { 200: v.array(Reaction) },
    handler: (ctx) => {
      const page = ctx.page();
      const { views, total } = listIssueReactions(ctx.env, ctx.repo, ctx.params.index, page);
      return ctx.list(json(ctx.env, views, ctx.doer), total, page);
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/issues/:index/reactions",
    operationId: "issuePostIssueReaction",
    tag: "issue",
    summary: "Add a reaction to an issue",
    access: onIssue,
    params: IssueParams,
    body: EditReactionOption,
    responses: { 200: Reaction, 201: Reaction },
    handler: (ctx) => post(ctx, ctx.issue),
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/:index/reactions",
    operationId: "issueDeleteIssueReaction",
    tag: "issue",
    summary: "Remove a reaction from an issue",
    access: onIssue,
    params: IssueParams,
    body: EditReactionOption,
    responses: { 200: null },
    handler: (ctx) => remove(ctx, ctx.issue),
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/comments/:id/reactions",
    operationId: "issueGetCommentReactions",
    tag: "issue",
    summary: "Get a list of reactions from a comment of an issue",
    access: read,
    params: CommentParams,
    responses: { 200: v.array(Reaction) },
    handler: ({ env, repo, params, doer }) => json(env, listCommentReactions(env, repo, params.id), doer),
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/issues/comments/:id/reactions",
    operationId: "issuePostCommentReaction",
    tag: "issue",
    summary: "Add a reaction to a comment of an issue",
    access: onComment,
    params: CommentParams,
    body: EditReactionOption,
    responses: { 200: Reaction, 201: Reaction },
    handler: (ctx) => post(ctx, commentFromPath(ctx.env, ctx.repo, ctx.params.id)),
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/comments/:id/reactions",
    operationId: "issueDeleteCommentReaction",
    tag: "issue",
    summary: "Remove a reaction from a comment of an issue",
    access: onComment,
    params: CommentParams,
    body: EditReactionOption,
    responses: { 200: null },
    handler: (ctx) => remove(ctx, commentFromPath(ctx.env, ctx.repo, ctx.params.id)),
  }),
];
