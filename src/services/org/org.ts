import type { Env } from "../env.ts";
import { deleteOwnerWebhooks } from "../../models/webhook.ts";
import { deleteOwnerSecrets } from "../../models/secret.ts";
import { deleteOwnerVariables } from "../../models/action-variable.ts";
import { writeTx } from "../../db/client.ts";
import { AccessMode, UnitType, UserType, Visibility, type NewUserRow, type UserRow } from "../../db/schema/index.ts";
import * as users from "../../models/user.ts";
import * as orgs from "../../models/org.ts";
import * as teams from "../../models/team.ts";
import * as repos from "../../models/repo.ts";
import { deleteLabelsOf } from "../../models/label.ts";
import { Forbidden, Invalid, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { usernameProblem } from "../user/names.ts";
import { parseVisibility } from "../user/visibility.ts";
import { canSeeOwner, isPublicOnly, type Doer } from "../access/permission.ts";
import { deleteAllOwnedRepos } from "../repo/delete.ts";
import { removeAvatarFile } from "../user/avatar.ts";
import { removeOwnerRunnersInTx } from "../actions/removal.ts";
import { clearFollows } from "../../models/follow.ts";

export interface OrgFields {
  fullName?: string;
  email?: string;
  description?: string;
  website?: string;
  location?: string;
  visibility?: string;
  repoAdminChangeTeamAccess?: boolean;
}

/** Gitea's User.CanCreateOrganization. */
export function canCreateOrganization(env: Env, user: UserRow): boolean {
  return user.isAdmin || (user.allowCreateOrganization && !env.settings.admin.disableRegularOrgCreation);
}

function visibilityOf(name: string | undefined): number | undefined {
  if (!name) return undefined;
  const v = parseVisibility(name);
  if (v === undefined) throw new Invalid("[Visibility]: In");
  return v;
}

/** Every repository unit, owner mode, as Gitea gives the Owners team (external units read-only). */
const OWNER_UNITS = Object.values(UnitType).map((type) => ({
  type,
  accessMode: type === UnitType.ExternalWiki || type === UnitType.ExternalTracker ? AccessMode.Read : AccessMode.Owner,
}));

/**
 * Gitea's CreateOrganization: the organization, its Owners team (owner access to every unit and
 * repository, may create repositories) and `owner` as its first member, in one transaction.
 */
export function createOrg(env: Env, owner: UserRow, name: string, fields: OrgFields): UserRow {
  if (!canCreateOrganization(env, owner)) throw new Forbidden("user is not allowed to create organizations");
  const problem = usernameProblem(name);
  if (problem) throw new Invalid(problem);
  const visibility = visibilityOf(fields.visibility) ?? Visibility.Public;
  const now = nowUnix();
  return writeTx(env.db, (tx) => {
    if (users.getUserByName(tx, name)) throw new Invalid(`user already exists [name: ${name}]`);
    users.dropUserRedirect(tx, name);
    const row: NewUserRow = {
      name,
      lowerName: name.toLowerCase(),
      type: UserType.Organization,
      fullName: fields.fullName ?? "",
      email: fields.email ?? "",
      description: fields.description ?? "",
      website: fields.website ?? "",
      location: fields.location ?? "",
      visibility,
      repoAdminChangeTeamAccess: fields.repoAdminChangeTeamAccess ?? false,
      isActive: true,
      allowCreateOrganization: false,
      maxRepoCreation: -1,
      createdUnix: now,
      updatedUnix: now,
    };
    const org = users.insertUser(tx, row);
    const team = teams.insertTeam(tx, {
      orgId: org.id,
      name: "Owners",
      lowerName: "owners",
      authorize: AccessMode.Owner,
      includesAllRepositories: true,
      canCreateOrgRepo: true,
    });
    teams.replaceTeamUnits(tx, team, OWNER_UNITS);
    orgs.addOrgUser(tx, org.id, owner.id, env.settings.service.defaultOrgMemberVisible);
    teams.addTeamMember(tx, team, owner.id);
    return org;
  });
}

/**
 * Gitea's org edit: full name, description, website and location are replaced by what the request
 * carries; email and visibility change only when given (an empty email leaves it as it is).
 */
export function editOrg(env: Env, org: UserRow, fields: OrgFields): UserRow {
  const visibility = visibilityOf(fields.visibility);
  const patch: Partial<NewUserRow> = {
    fullName: fields.fullName ?? "",
    description: fields.description ?? "",
    website: fields.website ?? "",
    location: fields.location ?? "",
    updatedUnix: nowUnix(),
  };
  if (fields.email) patch.email = fields.email;
  if (visibility !== undefined) patch.visibility = visibility;
  if (fields.repoAdminChangeTeamAccess !== undefined) patch.repoAdminChangeTeamAccess = fields.repoAdminChangeTeamAccess;
  return users.updateUser(env.db, org.id, patch) ?? org;
}

/**
 * Deletes an organization with its teams and memberships. One that still owns repositories is
 * refused unless `purge`, which deletes them first (deleting a user with purge does that).
 */
export function deleteOrg(env: Env, org: UserRow, purge = false): void {
  if (purge) deleteAllOwnedRepos(env, org);
  writeTx(env.db, (tx) => {
    // Gitea answers 500 here; a refusal the caller can act on is a 422 with Gitea's message.
    if (repos.countOwnedRepos(tx, org.id) > 0) {
      throw new Invalid(`user still has ownership of repositories [uid: ${org.id}]`);
    }
    // Organization labels have no foreign key to the organization.
    deleteLabelsOf(tx, { orgId: org.id });
    clearFollows(tx, org.id);
    deleteOwnerWebhooks(tx, org.id);
    deleteOwnerSecrets(tx, org.id);
    deleteOwnerVariables(tx, org.id);
    removeOwnerRunnersInTx(tx, org.id);
    users.deleteUserRow(tx, org.id);
  });
  if (org.avatar) removeAvatarFile(env, org.avatar);
}

export interface ListPage {
  offset: number;
  limit: number;
}

/**
 * GET /orgs: Gitea lists public organizations to everyone, limited ones to signed-in accounts and
 * private ones only to site admins (members find theirs under /user/orgs); a restricted account
 * sees only the organizations it belongs to.
 */
export function listOrgs(env: Env, viewer: Doer | undefined, page: ListPage) {
  // A public-only token lists what an anonymous caller would.
  const anonymous = !viewer || isPublicOnly(viewer);
  if (!anonymous && viewer.isAdmin) return users.listUsers(env.db, { type: UserType.Organization, orderBy: "name", ...page });
  const visibleIn = anonymous ? [Visibility.Public] : [Visibility.Public, Visibility.Limited];
  if (!anonymous && viewer.isRestricted) {
    return orgs.listUserOrgs(env.db, { uid: viewer.id, visibleIn, ...page });
  }
  return users.listUsers(env.db, { type: UserType.Organization, visibleIn, orderBy: "name", ...page });
}

/** GET /admin/orgs: all of them. */
export function adminListOrgs(env: Env, page: ListPage) {
  return users.listUsers(env.db, { type: UserType.Organization, orderBy: "name", ...page });
}

/** GET /user/orgs: every organization the doer belongs to. */
export function listMyOrgs(env: Env, doer: Doer, page: ListPage) {
  return orgs.listUserOrgs(env.db, { uid: doer.id, visibleIn: isPublicOnly(doer) ? [Visibility.Public] : undefined, ...page });
}

/**
 * GET /users/{u}/orgs: the user and site admins see all of the user's organizations; anyone else
 * sees only public organizations where the user made the membership public.
 */
export function listUserOrgs(env: Env, viewer: Doer, user: UserRow, page: ListPage) {
  const all = !isPublicOnly(viewer) && (viewer.isAdmin || viewer.id === user.id);
  if (all) return orgs.listUserOrgs(env.db, { uid: user.id, ...page });
  return orgs.listUserOrgs(env.db, { uid: user.id, publicOnly: true, visibleIn: [Visibility.Public], ...page });
}

export interface OrgPermissions {
  isOwner: boolean;
  isAdmin: boolean;
  canWrite: boolean;
  canRead: boolean;
  canCreateRepository: boolean;
}

/** GET /users/{u}/orgs/{org}/permissions: the user's strongest team in the organization decides. */
export function userOrgPermissions(env: Env, viewer: UserRow, user: UserRow, org: UserRow): OrgPermissions {
  if (!canSeeOwner(env, org, viewer)) throw new NotFound();
  const mine = teams.listUserTeams(env.db, user.id, { orgId: org.id, offset: 0, limit: 1_000_000 }).rows;
  const level = mine.reduce((m, t) => Math.max(m, t.authorize), AccessMode.None as number);
  return {
    isOwner: level >= AccessMode.Owner,
    isAdmin: level >= AccessMode.Admin,
    canWrite: level >= AccessMode.Write,
    canRead: level >= AccessMode.Read,
    canCreateRepository: mine.some((t) => t.canCreateOrgRepo),
  };
}
