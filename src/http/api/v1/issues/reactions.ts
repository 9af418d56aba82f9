import * as v from "valibot";
import { operation, Reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../schemas/common.ts";
import { IssueParams } from "../../../schemas/issue.ts";
import { CommentParams, EditReactionOption, Reaction } from "../../../schemas/comment.ts";
import { toAPIReaction } from "../../../../convert/reaction.ts";
import { commentFromPath } from "../../../../services/issue/comments.ts";
import { issueFromPath, requireTrackerReader } from "../../../../services/issue/lookup.ts";
import {
  addReaction,
  listCommentReactions,
  listIssueReactions,
  removeReaction,
  type ReactionView,
} from "../../../../services/issue/reactions.ts";
import type { Principal } from "../../../../auth/principal.ts";
import type { Env } from "../../../../services/env.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import type { IssueContext } from "../../../../services/issue/lookup.ts";
import type { CommentContext } from "../../../../services/issue/comments.ts";
import { repoFromPath } from "../repos/context.ts";
import { requireToken } from "../repos/collaborators.ts";

type Ctx<P> = { env: Env; principal: Principal | undefined; url: URL; params: P; body: { content?: string | null } };

/** The repository of a reaction route, with Gitea's mustEnableIssuesOrPulls (404 when no tracker is readable). */
function tracker(ctx: { env: Env; principal: Principal | undefined; url: URL; params: { owner: string; repo: string } }): RepoContext {
  const rc = repoFromPath(ctx.env, ctx.principal, ctx.url, ctx.params);
  requireTrackerReader(rc);
  return rc;
}

const json = (env: Env, views: ReactionView[], principal: Principal | undefined) =>
  views.map((r) => toAPIReaction(env.settings, r, principal?.user));

/** POST: 201 for a new reaction, 200 with the existing one when the doer had already reacted so. */
function post<P extends { owner: string; repo: string }>(ctx: Ctx<P>, target: (rc: RepoContext) => IssueContext | CommentContext) {
  const rc = tracker(ctx);
  requireToken(ctx.principal);
  const { view, created } = addReaction(ctx.env, ctx.principal.user, target(rc), ctx.body.content ?? "");
  return new Reply(created ? 201 : 200, toAPIReaction(ctx.env.settings, view, ctx.principal.user));
}

/** DELETE: Gitea answers 200 with an empty body. */
function remove<P extends { owner: string; repo: string }>(ctx: Ctx<P>, target: (rc: RepoContext) => IssueContext | CommentContext) {
  const rc = tracker(ctx);
  requireToken(ctx.principal);
  removeReaction(ctx.env, ctx.principal.user, target(rc), ctx.body.content ?? "");
  return new Reply(200);
}

export const reactionOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/:index/reactions",
    operationId: "issueGetIssueReactions",
    tag: "issue",
    summary: "Get a list reactions of an issue",
    access: { scope: "issue", signIn: false },
    params: IssueParams,
    query: PageQuery,
    responses: { 200: v.array(Reaction) },
    handler: (ctx) => {
      const rc = tracker(ctx);
      const page = ctx.page();
      const { views, total } = listIssueReactions(ctx.env, rc, ctx.params.index, page);
      return ctx.list(json(ctx.env, views, ctx.principal), total, page);
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/issues/:index/reactions",
    operationId: "issuePostIssueReaction",
    tag: "issue",
    summary: "Add a reaction to an issue",
    access: { scope: "issue", signIn: false },
    params: IssueParams,
    body: EditReactionOption,
    responses: { 200: Reaction, 201: Reaction },
    handler: (ctx) => post(ctx, (rc) => issueFromPath(ctx.env, rc, ctx.params.index)),
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/:index/reactions",
    operationId: "issueDeleteIssueReaction",
    tag: "issue",
    summary: "Remove a reaction from an issue",
    access: { scope: "issue", signIn: false },
    params: IssueParams,
    body: EditReactionOption,
    responses: { 200: null },
    handler: (ctx) => remove(ctx, (rc) => issueFromPath(ctx.env, rc, ctx.params.index)),
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/comments/:id/reactions",
    operationId: "issueGetCommentReactions",
    tag: "issue",
    summary: "Get a list of reactions from a comment of an issue",
    access: { scope: "issue", signIn: false },
    params: CommentParams,
    responses: { 200: v.array(Reaction) },
    handler: (ctx) => json(ctx.env, listCommentReactions(ctx.env, tracker(ctx), ctx.params.id), ctx.principal),
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/issues/comments/:id/reactions",
    operationId: "issuePostCommentReaction",
    tag: "issue",
    summary: "Add a reaction to a comment of an issue",
    access: { scope: "issue", signIn: false },
    params: CommentParams,
    body: EditReactionOption,
    responses: { 200: Reaction, 201: Reaction },
    handler: (ctx) => post(ctx, (rc) => commentFromPath(ctx.env, rc, ctx.params.id)),
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/comments/:id/reactions",
    operationId: "issueDeleteCommentReaction",
    tag: "issue",
    summary: "Remove a reaction from a comment of an issue",
    access: { scope: "issue", signIn: false },
    params: CommentParams,
    body: EditReactionOption,
    responses: { 200: null },
    handler: (ctx) => remove(ctx, (rc) => commentFromPath(ctx.env, rc, ctx.params.id)),
  }),
];
