import * as v from "valibot";
import { operation, reply, type AnyOperation, type OpContext } from "../../../route.ts";
import { PageQuery, UsernameParams } from "../../../../shapes/common.ts";
import { User } from "../../../../shapes/user.ts";
import { toAPIUser } from "../../../../convert/user.ts";
import {
  followTarget,
  followUser,
  isFollowing,
  listFollowers,
  listFollowing,
  unfollowUser,
  visibleAccount,
} from "../../../../services/user/follow.ts";
import { NotFound } from "../../../../lib/errors.ts";
import type { UserRow } from "../../../../db/schema/index.ts";
import type { Principal } from "../../../../auth/principal.ts";
import type { Env } from "../../../../services/env.ts";
import type { Doer } from "../../../../services/access/permission.ts";
import { requirePublicAccountForPublicOnly } from "../../../guards.ts";
import { totalOnly } from "../repos/collaborators.ts";

/**
 * Gitea's reqToken on both groups. The accounts of the path stay with services/user/follow.ts: a
 * followed account is found even when hidden (so a follow can be ended), and a listed one is
 * refused 404 when hidden before a public-only token's 403, the reverse of the declaration's
 * `visible` order.
 */
const access = { scope: "user", signIn: true } as const;

/** Who looks at a list: a public-only token sees what anonymous callers see. */
const viewerOf = (principal: Principal | undefined) => (principal?.scope?.publicOnly ? undefined : principal?.user);

/** One page of followers or followed accounts, with Gitea's X-Total-Count (no Link header). */
function followList(ctx: OpContext<unknown, unknown, unknown> & { doer: Doer }, list: typeof listFollowers, user: UserRow) {
  const { rows, total } = list(ctx.env, user, viewerOf(ctx.principal), ctx.page());
  return totalOnly(rows.map((u) => toAPIUser(ctx.env.settings, u, ctx.doer)), total);
}

/**
 * The `{username}` of /users/{username}/follow...: an account the doer may see (404), and then,
 * for a public-only token, a public one (403), in Gitea's order.
 */
function listed(env: Env, principal: Principal | undefined, name: string): UserRow {
  const account = visibleAccount(env, principal?.user, name);
  requirePublicAccountForPublicOnly(principal, account);
  return account;
}

/** The doer of a /user/... operation, once a public-only token is known to be allowed to act for them. */
function self({ principal, doer }: { principal: Principal | undefined; doer: Doer }): Doer {
  requirePublicAccountForPublicOnly(principal, doer);
  return doer;
}

export const followOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/user/followers",
    operationId: "userCurrentListFollowers",
    tag: "user",
    summary: "List the authenticated user's followers",
    access,
    query: PageQuery,
    responses: { 200: v.array(User) },
    handler: (ctx) => followList(ctx, listFollowers, self(ctx)),
  }),
  operation({
    method: "GET",
    path: "/user/following",
    operationId: "userCurrentListFollowing",
    tag: "user",
    summary: "List the users that the authenticated user is following",
    access,
    query: PageQuery,
    responses: { 200: v.array(User) },
    handler: (ctx) => followList(ctx, listFollowing, self(ctx)),
  }),
  operation({
    method: "GET",
    path: "/user/following/:username",
    operationId: "userCurrentCheckFollowing",
    tag: "user",
    summary: "Check whether a user is followed by the authenticated user",
    access,
    params: UsernameParams,
    responses: { 204: null },
    handler: (ctx) => {
      const { env, params } = ctx;
      const doer = self(ctx);
      if (!isFollowing(env, doer, followTarget(env, doer, params.username))) throw new NotFound();
      return reply.noContent();
    },
  }),
  operation({
    method: "PUT",
    path: "/user/following/:username",
    operationId: "userCurrentPutFollow",
    tag: "user",
    summary: "Follow a user",
    access,
    params: UsernameParams,
    responses: { 204: null },
    handler: (ctx) => {
      const { env, params } = ctx;
      const doer = self(ctx);
      followUser(env, doer, followTarget(env, doer, params.username));
      return reply.noContent();
    },
  }),
  operation({
    method: "DELETE",
    path: "/user/following/:username",
    operationId: "userCurrentDeleteFollow",
    tag: "user",
    summary: "Unfollow a user",
    access,
    params: UsernameParams,
    responses: { 204: null },
    handler: (ctx) => {
      const { env, params } = ctx;
      const doer = self(ctx);
      unfollowUser(env, doer, followTarget(env, doer, params.username));
      return reply.noContent();
    },
  }),
  operation({
    method: "GET",
    path: "/users/:username/followers",
    operationId: "userListFollowers",
    tag: "user",
    summary: "List the given user's followers",
    access,
    params: UsernameParams,
    query: PageQuery,
    responses: { 200: v.array(User) },
    handler: (ctx) => followList(ctx, listFollowers, listed(ctx.env, ctx.principal, ctx.params.username)),
  }),
  operation({
    method: "GET",
    path: "/users/:username/following",
    operationId: "userListFollowing",
    tag: "user",
    summary: "List the users that the given user is following",
    access,
    params: UsernameParams,
    query: PageQuery,
    responses: { 200: v.array(User) },
    handler: (ctx) => followList(ctx, listFollowing, listed(ctx.env, ctx.principal, ctx.params.username)),
  }),
  operation({
    method: "GET",
    path: "/users/:username/following/:target",
    operationId: "userCheckFollowing",
    tag: "user",
    summary: "Check if one user is following another user",
    access,
    params: v.object({ username: v.string(), target: v.string() }),
    responses: { 204: null },
    handler: ({ env, principal, params }) => {
      const user = listed(env, principal, params.username);
      const target = visibleAccount(env, viewerOf(principal), params.target);
      if (!isFollowing(env, user, target)) throw new NotFound();
      return reply.noContent();
    },
  }),
];
