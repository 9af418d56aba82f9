import * as v from "valibot";
import { operation, reply, type AnyOperation } from "../../../route.ts";
import { PageQuery, UsernameParams } from "../../../schemas/common.ts";
import {
  CreateOrgOption,
  EditOrgOption,
  Organization,
  OrganizationPermissions,
  OrgParams,
  RenameOrgOption,
  RenameUserOption,
  UpdateUserAvatarOption,
} from "../../../schemas/org.ts";
import { renameAccount } from "../../../../services/user/rename.ts";
import { UserType } from "../../../../services/user/visibility.ts";
import { toAPIOrganization } from "../../../../convert/org.ts";
import {
  adminListOrgs,
  createOrg,
  deleteOrg,
  editOrg,
  listMyOrgs,
  listOrgs,
  listUserOrgs,
  userOrgPermissions,
  type OrgFields,
} from "../../../../services/org/org.ts";
import { requireOrg } from "../../../../services/org/lookup.ts";
import { requireAccount, requireUser } from "../../../../services/user/account.ts";
import { deleteAvatar, setAvatar } from "../../../../services/user/avatar.ts";
import { Invalid, NotFound } from "../../../../lib/errors.ts";
import { orgFromPath } from "./context.ts";
import { requireOwnerInReach } from "../../../../services/access/permission.ts";

type OrgBody = v.InferOutput<typeof EditOrgOption>;

function fieldsOf(body: OrgBody): OrgFields {
  return {
    fullName: body.full_name ?? undefined,
    email: body.email ?? undefined,
    description: body.description ?? undefined,
    website: body.website ?? undefined,
    location: body.location ?? undefined,
    visibility: body.visibility ?? undefined,
    repoAdminChangeTeamAccess: body.repo_admin_change_team_access ?? undefined,
  };
}

const OrgUsernameParams = v.object({ username: v.string(), org: v.string() });

export const orgOperations: AnyOperation[] = [
  operation({
    method: "POST",
    path: "/orgs",
    operationId: "orgCreate",
    tag: "organization",
    summary: "Create an organization",
    access: { scope: "organization", signIn: true },
    body: CreateOrgOption,
    responses: { 201: Organization },
    handler: ({ env, principal, body }) => {
      const org = createOrg(env, principal!.user, body.username, fieldsOf(body));
      return reply.created(toAPIOrganization(env.settings, org));
    },
  }),
  operation({
    method: "GET",
    path: "/orgs",
    operationId: "orgGetAll",
    tag: "organization",
    summary: "Get list of organizations",
    access: { scope: "public", signIn: false },
    query: PageQuery,
    responses: { 200: v.array(Organization) },
    handler: (ctx) => {
      const page = ctx.page();
      const { rows, total } = listOrgs(ctx.env, ctx.principal?.user, page);
      return ctx.list(rows.map((o) => toAPIOrganization(ctx.env.settings, o)), total, page);
    },
  }),
  operation({
    method: "GET",
    path: "/orgs/:org",
    operationId: "orgGet",
    tag: "organization",
    summary: "Get an organization",
    access: { scope: "organization", signIn: false },
    params: OrgParams,
    responses: { 200: Organization },
    handler: ({ env, principal, params }) => {
      const org = orgFromPath.visible(env, principal, params.org);
      // The organization's email is for signed-in viewers only.
      return toAPIOrganization(env.settings, org, principal === undefined);
    },
  }),
  operation({
    method: "PATCH",
    path: "/orgs/:org",
    operationId: "orgEdit",
    tag: "organization",
    summary: "Edit an organization",
    access: { scope: "organization", signIn: true },
    params: OrgParams,
    body: EditOrgOption,
    responses: { 200: Organization },
    handler: (ctx) => {
      const org = orgFromPath.owned(ctx.env, ctx.principal, ctx.params.org);
      return toAPIOrganization(ctx.env.settings, editOrg(ctx.env, org, fieldsOf(ctx.body)));
    },
  }),
  operation({
    method: "DELETE",
    path: "/orgs/:org",
    operationId: "orgDelete",
    tag: "organization",
    summary: "Delete an organization",
    access: { scope: "organization", signIn: true },
    params: OrgParams,
    responses: { 204: null },
    handler: ({ env, principal, params }) => {
      deleteOrg(env, orgFromPath.owned(env, principal, params.org));
      return reply.noContent();
    },
  }),
  operation({
    method: "POST",
    path: "/orgs/:org/rename",
    operationId: "renameOrg",
    tag: "organization",
    summary: "Rename an organization",
    access: { scope: "organization", signIn: true },
    params: OrgParams,
    body: RenameOrgOption,
    responses: { 204: null },
    handler: (ctx) => {
      renameAccount(ctx.env, orgFromPath.owned(ctx.env, ctx.principal, ctx.params.org), ctx.body.new_name);
      return reply.noContent();
    },
  }),
  operation({
    method: "POST",
    path: "/admin/users/:username/rename",
    operationId: "adminRenameUser",
    tag: "admin",
    summary: "Rename a user",
    access: { scope: "admin", signIn: "admin" },
    params: UsernameParams,
    body: RenameUserOption,
    responses: { 204: null },
    handler: (ctx) => {
      const user = requireAccount(ctx.env, ctx.params.username);
      if (user.type !== UserType.Individual) throw new Invalid(`${user.name} is an organization not a user`);
      renameAccount(ctx.env, user, ctx.body.new_username);
      return reply.noContent();
    },
  }),
  operation({
    method: "POST",
    path: "/orgs/:org/avatar",
    operationId: "orgUpdateAvatar",
    tag: "organization",
    summary: "Update an organization's avatar",
    access: { scope: "organization", signIn: true },
    params: OrgParams,
    body: UpdateUserAvatarOption,
    responses: { 204: null },
    handler: (ctx) => {
      const org = orgFromPath.owned(ctx.env, ctx.principal, ctx.params.org);
      setAvatar(ctx.env, org, ctx.body.image ?? "");
      return reply.noContent();
    },
  }),
  operation({
    method: "DELETE",
    path: "/orgs/:org/avatar",
    operationId: "orgDeleteAvatar",
    tag: "organization",
    summary: "Delete an organization's avatar. It will be replaced by a default one",
    access: { scope: "organization", signIn: true },
    params: OrgParams,
    responses: { 204: null },
    handler: ({ env, principal, params }) => {
      deleteAvatar(env, orgFromPath.owned(env, principal, params.org));
      return reply.noContent();
    },
  }),
  operation({
    method: "GET",
    path: "/user/orgs",
    operationId: "orgListCurrentUserOrgs",
    tag: "organization",
    summary: "List the current user's organizations",
    access: { scope: ["user", "organization"], signIn: true },
    query: PageQuery,
    responses: { 200: v.array(Organization) },
    handler: (ctx) => {
      const page = ctx.page();
      const { rows, total } = listMyOrgs(ctx.env, ctx.principal!.user, page);
      return ctx.list(rows.map((o) => toAPIOrganization(ctx.env.settings, o)), total, page);
    },
  }),
  operation({
    method: "GET",
    path: "/users/:username/orgs",
    operationId: "orgListUserOrgs",
    tag: "organization",
    summary: "List a user's organizations",
    access: { scope: ["user", "organization"], signIn: true },
    params: UsernameParams,
    query: PageQuery,
    responses: { 200: v.array(Organization) },
    handler: (ctx) => {
      const user = requireUser(ctx.env, ctx.params.username);
      requireOwnerInReach(ctx.env, user, ctx.principal!.user);
      const page = ctx.page();
      const { rows, total } = listUserOrgs(ctx.env, ctx.principal!.user, user, page);
      return ctx.list(rows.map((o) => toAPIOrganization(ctx.env.settings, o)), total, page);
    },
  }),
  operation({
    method: "GET",
    path: "/users/:username/orgs/:org/permissions",
    operationId: "orgGetUserPermissions",
    tag: "organization",
    summary: "Get user permissions in organization",
    access: { scope: ["user", "organization"], signIn: true },
    params: OrgUsernameParams,
    responses: { 200: OrganizationPermissions },
    handler: ({ env, principal, params }) => {
      const user = requireUser(env, params.username);
      let org;
      try {
        org = requireOrg(env, params.org);
      } catch {
        throw new NotFound("GetUserByName");
      }
      const p = userOrgPermissions(env, principal!.user, user, org);
      return {
        is_owner: p.isOwner,
        is_admin: p.isAdmin,
        can_write: p.canWrite,
        can_read: p.canRead,
        can_create_repository: p.canCreateRepository,
      };
    },
  }),
  operation({
    method: "GET",
    path: "/admin/orgs",
    operationId: "adminGetAllOrgs",
    tag: "admin",
    summary: "List all organizations",
    access: { scope: "admin", signIn: "admin" },
    query: PageQuery,
    responses: { 200: v.array(Organization) },
    handler: (ctx) => {
      const page = ctx.page();
      const { rows, total } = adminListOrgs(ctx.env, page);
      return ctx.list(rows.map((o) => toAPIOrganization(ctx.env.settings, o)), total, page);
    },
  }),
  operation({
    method: "POST",
    path: "/admin/users/:username/orgs",
    operationId: "adminCreateOrg",
    tag: "admin",
    summary: "Create an organization",
    access: { scope: "admin", signIn: "admin" },
    params: UsernameParams,
    body: CreateOrgOption,
    responses: { 201: Organization },
    handler: ({ env, params, body }) => {
      const owner = requireUser(env, params.username);
      // As in Gitea, an admin-created organization takes neither the email nor the team-access flag.
      const org = createOrg(env, owner, body.username, { ...fieldsOf(body), email: undefined, repoAdminChangeTeamAccess: false });
      return reply.created(toAPIOrganization(env.settings, org));
    },
  }),
];
