import * as v from "valibot";
import { operation, reply } from "../../../route.ts";
import { CreateUserOption, EditUserOption, User } from "../../../../shapes/user.ts";
import { PageQuery, UsernameParams } from "../../../../shapes/common.ts";
import { toAPIUser } from "../../../../convert/user.ts";
import { createUser, deleteUser, editUser } from "../../../../services/user/account.ts";
import { adminListUsers } from "../../../../services/user/profile.ts";
import { parseVisibility } from "../../../../services/user/visibility.ts";
import { Invalid } from "../../../../lib/errors.ts";
import { parseDateTime } from "../../../../lib/time.ts";

/** Gitea's /admin group: reqToken, reqSiteAdmin. */
const access = { scope: "admin", signIn: "admin" } as const;

/** strconv.ParseBool, as Gitea's FormBool: anything unparsable is false; empty means "no filter". */
function optionalBool(value: string | undefined): boolean | undefined {
  if (value === undefined || value === "") return undefined;
  return ["1", "t", "T", "TRUE", "true", "True"].includes(value);
}

const SORTS = ["name", "created", "updated", "id"] as const;

export const adminUserOperations = [
  operation({
    method: "GET",
    path: "/admin/users",
    operationId: "adminSearchUsers",
    tag: "admin",
    summary: "Search users according filter conditions",
    access,
    query: v.object({
      ...PageQuery.entries,
      source_id: v.optional(v.string()),
      login_name: v.optional(v.string()),
      q: v.optional(v.string()),
      sort: v.optional(v.string()),
      order: v.optional(v.string()),
      visibility: v.optional(v.string()),
      is_active: v.optional(v.string()),
      is_admin: v.optional(v.string()),
      is_restricted: v.optional(v.string()),
      is_2fa_enabled: v.optional(v.string()),
      is_prohibit_login: v.optional(v.string()),
    }),
    responses: { 200: v.array(User) },
    handler: (ctx) => {
      const { env, doer, query } = ctx;
      let visibility: number | undefined;
      if (query.visibility) {
        visibility = parseVisibility(query.visibility);
        if (visibility === undefined) throw new Invalid(`Invalid visibility: ${JSON.stringify(query.visibility)}`);
      }
      let sort: (typeof SORTS)[number] | undefined;
      if (query.sort) {
        sort = SORTS.find((s) => s === query.sort);
        if (!sort) throw new Invalid(`Invalid sort mode: ${JSON.stringify(query.sort)}`);
      }
      if (query.order && query.order !== "asc" && query.order !== "desc") {
        throw new Invalid(`Invalid sort order: ${JSON.stringify(query.order)}`);
      }
      const page = ctx.page();
      const sourceId = /^\d+$/.test(query.source_id ?? "") ? Number(query.source_id) : undefined;
      const { rows, total } = adminListUsers(env, {
        sourceId,
        loginName: query.login_name?.trim(),
        keyword: query.q?.trim(),
        visibility,
        isActive: optionalBool(query.is_active),
        isAdmin: optionalBool(query.is_admin),
        isRestricted: optionalBool(query.is_restricted),
        isProhibitLogin: optionalBool(query.is_prohibit_login),
        hasTwoFactor: optionalBool(query.is_2fa_enabled),
        sort,
        descending: sort !== undefined && query.order === "desc",
        offset: page.offset,
        limit: page.limit,
      });
      return ctx.list(
        rows.map((u) => toAPIUser(env.settings, u, doer)),
        total,
        page,
      );
    },
  }),
  operation({
    method: "POST",
    path: "/admin/users",
    operationId: "adminCreateUser",
    tag: "admin",
    summary: "Create a user",
    access,
    body: CreateUserOption,
    responses: { 201: User },
    handler: async ({ env, doer, body }) => {
      const created = await createUser(env, {
        username: body.username,
        email: body.email,
        password: body.password ?? undefined,
        fullName: body.full_name ?? undefined,
        loginName: body.login_name ?? undefined,
        sourceId: body.source_id ?? undefined,
        mustChangePassword: body.must_change_password ?? true,
        restricted: body.restricted ?? undefined,
        visibility: body.visibility ?? undefined,
        createdUnix: body.created_at ? parseDateTime(body.created_at) : undefined,
      });
      return reply.created(toAPIUser(env.settings, created, doer));
    },
  }),
  operation({
    method: "PATCH",
    path: "/admin/users/:username",
    operationId: "adminEditUser",
    tag: "admin",
    summary: "Edit an existing user",
    // The user of the path (an organization is a 404).
    access: { ...access, user: { kind: "user" } },
    params: UsernameParams,
    body: EditUserOption,
    responses: { 200: User },
    handler: async ({ env, doer, user: target, body }) => {
      const updated = await editUser(env, target, {
        loginName: body.login_name,
        sourceId: body.source_id ?? undefined,
        email: body.email ?? undefined,
        fullName: body.full_name ?? undefined,
        password: body.password ?? undefined,
        mustChangePassword: body.must_change_password ?? undefined,
        website: body.website ?? undefined,
        location: body.location ?? undefined,
        description: body.description ?? undefined,
        active: body.active ?? undefined,
        admin: body.admin ?? undefined,
        allowGitHook: body.allow_git_hook ?? undefined,
        allowImportLocal: body.allow_import_local ?? undefined,
        maxRepoCreation: body.max_repo_creation ?? undefined,
        prohibitLogin: body.prohibit_login ?? undefined,
        allowCreateOrganization: body.allow_create_organization ?? undefined,
        restricted: body.restricted ?? undefined,
        visibility: body.visibility ?? undefined,
      });
      return toAPIUser(env.settings, updated, doer);
    },
  }),
  operation({
    method: "DELETE",
    path: "/admin/users/:username",
    operationId: "adminDeleteUser",
    tag: "admin",
    summary: "Delete a user",
    // Any account is found here; deleting an organization is refused by the service.
    access: { ...access, user: { kind: "account" } },
    params: UsernameParams,
    query: v.object({ purge: v.optional(v.string()) }),
    responses: { 204: null },
    handler: ({ env, doer, user: target, query }) => {
      deleteUser(env, doer, target, optionalBool(query.purge) ?? false);
      return reply.noContent();
    },
  }),
];
