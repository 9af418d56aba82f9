import * as v from "valibot";
import { operation, reply, type AnyOperation } from "../../../route.ts";
import { PageQuery, UsernameParams } from "../../../../shapes/common.ts";
import {
  CreateOrgOption,
  EditOrgOption,
  Organization,
  OrganizationPermissions,
  OrgParams,
  RenameOrgOption,
  RenameUserOption,
  UpdateUserAvatarOption,
} from "../../../../shapes/org.ts";
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
import { deleteAvatar, setAvatar } from "../../../../services/user/avatar.ts";
import { Invalid, NotFound } from "../../../../lib/errors.ts";
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

/** Reading an organization: Gitea's orgAssignment, here a 404 for one the caller may not see. */
const visible = { scope: "organization", signIn: false, org: "visible" } as const;
/**
 * Changing it: Gitea's reqToken, orgAssignment, reqOrgOwnership, in that order (an organization
 * the caller cannot see is a 404 before the 403).
 */
const owned = { scope: "organization", signIn: true, org: "owner" } as const;
/** The site administration: reqToken, reqSiteAdmin. */
const admin = { scope: "admin", signIn: "admin" } as const;

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
    handler: ({ env, doer, body }) => {
      const org = createOrg(env, doer, body.username, fieldsOf(body));
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
      const { rows, total } = listOrgs(ctx.env, ctx.doer, page);
      return ctx.list(rows.map((o) => toAPIOrganization(ctx.env.settings, o)), total, page);
    },
  }),
  operation({
    method: "GET",
    path: "/orgs/:org",
    operationId: "orgGet",
    tag: "organization",
    summary: "Get an organization",
    access: visible,
    params: OrgParams,
    responses: { 200: Organization },
    handler: ({ env, org, doer }) => {
      // The organization's email is for signed-in viewers only.
      return toAPIOrganization(env.settings, org, doer === undefined);
    },
  }),
  operation({
    method: "PATCH",
    path: "/orgs/:org",
    operationId: "orgEdit",
    tag: "organization",
    summary: "Edit an organization",
    access: owned,
    params: OrgParams,
    body: EditOrgOption,
    responses: { 200: Organization },
    handler: (ctx) => {
      return toAPIOrganization(ctx.env.settings, editOrg(ctx.env, ctx.org, fieldsOf(ctx.body)));
    },
  }),
  operation({
    method: "DELETE",
    path: "/orgs/:org",
    operationId: "orgDelete",
    tag: "organization",
    summary: "Delete an organization",
    access: owned,
    params: OrgParams,
    responses: { 204: null },
    handler: ({ env, org }) => {
      deleteOrg(env, org);
      return reply.noContent();
    },
  }),
  operation({
    method: "POST",
    path: "/orgs/:org/rename",
    operationId: "renameOrg",
    tag: "organization",
    summary: "Rename an organization",
    access: owned,
    params: OrgParams,
    body: RenameOrgOption,
    responses: { 204: null },
    handler: (ctx) => {
      renameAccount(ctx.env, ctx.org, ctx.body.new_name);
      return reply.noContent();
    },
  }),
  operation({
    method: "POST",
    path: "/admin/users/:username/rename",
    operationId: "adminRenameUser",
    tag: "admin",
    summary: "Rename a user",
    // Any account is found (Gitea's UserAssignmentAPI), then an organization is refused as input.
    access: { ...admin, user: { kind: "account" } },
    params: UsernameParams,
    body: RenameUserOption,
    responses: { 204: null },
    handler: (ctx) => {
      const { user } = ctx;
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
    access: owned,
    params: OrgParams,
    body: UpdateUserAvatarOption,
    responses: { 204: null },
    handler: (ctx) => {
      setAvatar(ctx.env, ctx.org, ctx.body.image ?? "");
      return reply.noContent();
    },
  }),
  operation({
    method: "DELETE",
    path: "/orgs/:org/avatar",
    operationId: "orgDeleteAvatar",
    tag: "organization",
    summary: "Delete an organization's avatar. It will be replaced by a default one",
    access: owned,
    params: OrgParams,
    responses: { 204: null },
    handler: ({ env, org }) => {
      deleteAvatar(env, org);
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
      const { rows, total } = listMyOrgs(ctx.env, ctx.doer, page);
      return ctx.list(rows.map((o) => toAPIOrganization(ctx.env.settings, o)), total, page);
    },
  }),
  operation({
    method: "GET",
    path: "/users/:username/orgs",
    operationId: "orgListUserOrgs",
    tag: "organization",
    summary: "List a user's organizations",
    access: { scope: ["user", "organization"], signIn: true, user: { kind: "user" } },
    params: UsernameParams,
    query: PageQuery,
    responses: { 200: v.array(Organization) },
    handler: (ctx) => {
      const { user, doer } = ctx;
      // Gitea's checkTokenPublicOnly alone: the user need not be visible (the list is filtered),
      // so the declaration's `visible` (a 404 for a hidden user) would say too much.
      requireOwnerInReach(ctx.env, user, doer);
      const page = ctx.page();
      const { rows, total } = listUserOrgs(ctx.env, doer, user, page);
      return ctx.list(rows.map((o) => toAPIOrganization(ctx.env.settings, o)), total, page);
    },
  }),
  operation({
    method: "GET",
    path: "/users/:username/orgs/:org/permissions",
    operationId: "orgGetUserPermissions",
    tag: "organization",
    summary: "Get user permissions in organization",
    // The user is found first (Gitea's UserAssignmentAPI); the organization after, in the handler,
    // with Gitea's wording for a missing one, which the declaration's `org` does not give.
    access: { scope: ["user", "organization"], signIn: true, user: { kind: "user" } },
    params: OrgUsernameParams,
    responses: { 200: OrganizationPermissions },
    handler: ({ env, doer, user, params }) => {
      let org;
      try {
        org = requireOrg(env, params.org);
      } catch {
        throw new NotFound("GetUserByName");
      }
      const p = userOrgPermissions(env, doer, user, org);
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
    access: admin,
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
    access: { ...admin, user: { kind: "user" } },
    params: UsernameParams,
    body: CreateOrgOption,
    responses: { 201: Organization },
    handler: ({ env, user: owner, body }) => {
      // As in Gitea, an admin-created organization takes neither the email nor the team-access flag.
      const org = createOrg(env, owner, body.username, { ...fieldsOf(body), email: undefined, repoAdminChangeTeamAccess: false });
      return reply.created(toAPIOrganization(env.settings, org));
    },
  }),
];
