import * as v from "valibot";
import { operation, reply } from "../../../route.ts";
import { AccessToken, CreateAccessTokenOption } from "../../../schemas/user.ts";
import { PageQuery, UsernameParams } from "../../../schemas/common.ts";
import { toAPIAccessToken } from "../../../../convert/token.ts";
import { requireUser } from "../../../../services/user/account.ts";
import { requireViewableAccount } from "../../../../services/user/profile.ts";
import { createToken, deleteToken, listTokens } from "../../../../services/user/tokens.ts";
import { NotFound } from "../../../../lib/errors.ts";
import { requireBasicAuth, requireSelfOrAdmin } from "../../../guards.ts";
import type { Principal } from "../../../../auth/principal.ts";
import type { Env } from "../../../../services/env.ts";

// Anonymous callers get through to the handler: Gitea answers them 403 (self-or-admin) before 401.
const access = { scope: "user", signIn: false } as const;

/** The token owner named in the path, with Gitea's checks in Gitea's order. */
function tokenOwner(env: Env, principal: Principal | undefined, username: string) {
  const owner = requireViewableAccount(env, requireUser(env, username), principal?.user);
  requireSelfOrAdmin(principal, owner);
  requireBasicAuth(principal);
  return owner;
}

export const tokenOperations = [
  operation({
    method: "GET",
    path: "/users/:username/tokens",
    operationId: "userGetTokens",
    tag: "user",
    summary: "List the specified user's access tokens",
    access,
    params: UsernameParams,
    query: PageQuery,
    responses: { 200: v.array(AccessToken) },
    handler: (ctx) => {
      const owner = tokenOwner(ctx.env, ctx.principal, ctx.params.username);
      const page = ctx.page();
      const { rows, total } = listTokens(ctx.env, owner, page.offset, page.limit);
      return ctx.list(
        rows.map((r) => toAPIAccessToken(r)),
        total,
        page,
      );
    },
  }),
  operation({
    method: "POST",
    path: "/users/:username/tokens",
    operationId: "userCreateToken",
    tag: "user",
    summary: "Create an access token",
    access,
    params: UsernameParams,
    body: CreateAccessTokenOption,
    responses: { 201: AccessToken },
    handler: ({ env, principal, params, body }) => {
      const owner = tokenOwner(env, principal, params.username);
      const { row, token } = createToken(env, owner, body.name, body.scopes ?? []);
      return reply.created(toAPIAccessToken(row, token));
    },
  }),
  operation({
    method: "DELETE",
    path: "/users/:username/tokens/:token",
    operationId: "userDeleteAccessToken",
    tag: "user",
    summary: "Delete an access token by id or name",
    access,
    params: v.object({ username: v.string(), token: v.string() }),
    responses: { 204: null },
    handler: ({ env, principal, params }) => {
      const owner = tokenOwner(env, principal, params.username);
      deleteToken(env, owner, params.token);
      return reply.noContent();
    },
  }),
];
