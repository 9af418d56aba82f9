import * as v from "valibot";
import { operation, reply } from "../../../route.ts";
import { AccessToken, CreateAccessTokenOption } from "../../../../shapes/user.ts";
import { PageQuery, UsernameParams } from "../../../../shapes/common.ts";
import { toAPIAccessToken } from "../../../../convert/token.ts";
import { createToken, deleteToken, listTokens } from "../../../../services/user/tokens.ts";
import { requireBasicAuth } from "../../../guards.ts";

/**
 * The token owner of the path, in Gitea's order: UserAssignmentAPI and its visibility (404),
 * reqSelfOrAdmin (403, anonymous callers too: Gitea answers them 403 before 401, hence no
 * `signIn`), then reqBasicOrRevProxyAuth in the handlers, as it is about how the doer signed in.
 */
const access = { scope: "user", signIn: false, user: { kind: "user", visible: true, selfOrAdmin: true } } as const;

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
      requireBasicAuth(ctx.principal);
      const page = ctx.page();
      const { rows, total } = listTokens(ctx.env, ctx.user, page.offset, page.limit);
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
    handler: ({ env, principal, user: owner, body }) => {
      requireBasicAuth(principal);
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
    handler: ({ env, principal, user: owner, params }) => {
      requireBasicAuth(principal);
      deleteToken(env, owner, params.token);
      return reply.noContent();
    },
  }),
];
