import * as v from "valibot";
import { operation } from "../../../route.ts";
import { User, UserSearchResult } from "../../../schemas/user.ts";
import { intQuery, PageQuery, UsernameParams } from "../../../schemas/common.ts";
import { toAPIUser } from "../../../../convert/user.ts";
import { requireAccount } from "../../../../services/user/account.ts";
import { canViewAccount, searchUsers } from "../../../../services/user/profile.ts";
import { Forbidden, NotFound } from "../../../../lib/errors.ts";
import { Visibility } from "../../../../services/user/visibility.ts";
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
        publicOnly: principal?.scope?.publicOnly ?? false,
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
      const user = requireAccount(env, params.username);
      if (!canViewAccount(env, user, principal?.user)) throw new NotFound("The target couldn't be found.");
      if (principal?.scope?.publicOnly && user.visibility !== Visibility.Public) {
        throw new Forbidden("token scope is limited to public users");
      }
      return toAPIUser(env.settings, user, principal?.user);
    },
  }),
];

