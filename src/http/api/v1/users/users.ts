import * as v from "valibot";
import { operation } from "../../../route.ts";
import { User, UserSearchResult } from "../../../../shapes/user.ts";
import { intQuery, PageQuery, UsernameParams } from "../../../../shapes/common.ts";
import { toAPIUser } from "../../../../convert/user.ts";
import { searchUsers } from "../../../../services/user/profile.ts";
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
      const { env, doer, query } = ctx;
      const page = ctx.page();
      const uid = /^-?\d+$/.test(query.uid ?? "") ? Number(query.uid) : 0;
      const { rows, total } = searchUsers(env, doer, {
        keyword: (query.q ?? "").trim(),
        uid,
        offset: page.offset,
        limit: page.limit,
      });
      const data = rows.map((u) => toAPIUser(env.settings, u, doer));
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
    // Gitea's UserAssignmentAPI (a user or an organization) and checkTokenPublicOnly, with the
    // account hidden (404) from those who may not see it.
    access: { scope: "user", signIn: false, user: { kind: "account", visible: true } },
    params: UsernameParams,
    responses: { 200: User },
    handler: ({ env, doer, user }) => {
      return toAPIUser(env.settings, user, doer);
    },
  }),
];

