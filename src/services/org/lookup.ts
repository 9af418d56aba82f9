import type { Env } from "../env.ts";
import { UserType, type UserRow } from "../../db/schema/index.ts";
import * as users from "../../models/user.ts";
import * as orgs from "../../models/org.ts";
import { canSeeOwner } from "../access/permission.ts";
import { AccountMoved, Forbidden, NotFound } from "../../lib/errors.ts";

/** Gitea's orgAssignment: the organization named in the path, or 404 (it does not check visibility). */
export function requireOrg(env: Env, name: string): UserRow {
  const org = users.getUserByName(env.db, name);
  if (!org) throwIfRenamed(env, name);
  if (!org || org.type !== UserType.Organization) throw new NotFound("GetOrgByName");
  return org;
}

/** A former name of a renamed account answers with a redirect to the current one. */
export function throwIfRenamed(env: Env, name: string): void {
  const id = users.getUserRedirect(env.db, name);
  const target = id === undefined ? undefined : users.getUserById(env.db, id);
  if (target) throw new AccountMoved(name, target.name);
}

export function isOrgOwner(env: Env, org: UserRow, user: UserRow): boolean {
  return orgs.isOrgOwner(env.db, org.id, user.id);
}

export function isOrgMember(env: Env, org: UserRow, user: UserRow): boolean {
  return orgs.isOrgMember(env.db, org.id, user.id);
}

/** Gitea's reqOrgOwnership: site admins and organization owners. */
export function requireOrgOwner(env: Env, org: UserRow, doer: UserRow): void {
  if (doer.isAdmin || orgs.isOrgOwner(env.db, org.id, doer.id)) return;
  throw new Forbidden("Must be an organization owner");
}

/** Gitea's reqOrgMembership: site admins and organization members. */
export function requireOrgMember(env: Env, org: UserRow, doer: UserRow): void {
  if (doer.isAdmin || orgs.isOrgMember(env.db, org.id, doer.id)) return;
  throw new Forbidden("Must be an organization member");
}

/** Whether `viewer` may see the organization (Gitea's HasOrgOrUserVisible). */
export function canSeeOrg(env: Env, org: UserRow, viewer: UserRow | undefined): boolean {
  return canSeeOwner(env, org, viewer);
}
