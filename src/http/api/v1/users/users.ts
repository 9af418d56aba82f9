import * as v from "valibot";
import { operation } from "../../../route.ts";
import { User, UserSearchResult } from "../../../schemas/user.ts";
import { intQuery, PageQuery, UsernameParams } from "../../../schemas/common.ts";
import { toAPIUser } from "../../../../convert/user.ts";
import { requireAccount } from "../../../../services/user/account.ts";
import { requireViewableAccount, searchUsers } from "../../../../services/user/profile.ts";
import { Reply } from "../../../route.ts";

export const usersOperations = [
  operation({
    method: "GET",
    path: "/users/search",
    operationId: "userSearch",
    tag: "user",
    summary: "Search for users",
    access: { scope: "user", signIn: false },
    query: v.object({ ...PageQuery.entries, q: v.optional(v.string()), uid: v.optional(intQuery) }),
    responses: { 200: UserSearchResult },
    handler: (ctx) => {
      const { env, principal, query } = ctx;
      const page = ctx.page();
      const uid = /^-?\d+$/.test(query.uid ?? "") ? Number(query.uid) : 0;
      const { rows, total } = searchUsers(env, principal?.user, {
        keyword: (query.q ?? "").trim(),
        uid,
        offset: page.offset,
        limit: page.limit,
      });
      const data = rows.map((u) => toAPIUser(env.settings, u, principal?.user));
      const listed = ctx.list(data, total, page);
      return new Reply(200, { ok: true, data }, listed.headers);
    },
  }),
  operation({
    method: "GET",
    path: "/users/:username",
    operationId: "userGet",
    tag: "user",
    summary: "Get a user",
    access: { scope: "user", signIn: false },
    params: UsernameParams,
    responses: { 200: User },
    handler: ({ env, principal, params }) => {
      const user = requireViewableAccount(env, requireAccount(env, params.username), principal?.user);
      return toAPIUser(env.settings, user, principal?.user);
    },
  }),
];

