import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import type { UserRow } from "../../db/schema/index.ts";
import * as orgs from "../../models/org.ts";
import * as teams from "../../models/team.ts";
import { clearUserWatchesIn } from "../../models/watch.ts";
import { Forbidden, Invalid } from "../../lib/errors.ts";
import type { ListPage } from "./org.ts";

/**
 * Gitea's member listing: members and site admins see every member; everyone else sees only the
 * members who made their membership public.
 */
export function listMembers(env: Env, viewer: UserRow | undefined, org: UserRow, page: ListPage) {
  const seesAll = viewer !== undefined && (viewer.isAdmin || orgs.isOrgMember(env.db, org.id, viewer.id));
  return orgs.listOrgMembers(env.db, org.id, { publicOnly: !seesAll, ...page });
}

export type MemberCheck = "yes" | "no" | "ask-public";

/**
 * GET /orgs/{org}/members/{u}: a member or site admin learns any membership; a non-member asking
 * about someone else is sent to the public-membership check (Gitea's 303), about themself gets no.
 */
export function checkMember(env: Env, viewer: UserRow, org: UserRow, user: UserRow): MemberCheck {
  if (viewer.isAdmin || orgs.isOrgMember(env.db, org.id, viewer.id)) {
    return orgs.isOrgMember(env.db, org.id, user.id) ? "yes" : "no";
  }
  return viewer.id === user.id ? "no" : "ask-public";
}

export function isPublicMember(env: Env, org: UserRow, user: UserRow): boolean {
  return orgs.isPublicOrgMember(env.db, org.id, user.id);
}

/** Members change only their own visibility; Gitea refuses it for anyone else, owners and admins included. */
export function setMembershipVisibility(env: Env, doer: UserRow, org: UserRow, user: UserRow, isPublic: boolean): void {
  if (user.id !== doer.id) throw new Forbidden(isPublic ? "Cannot publicize another member" : "Cannot conceal another member");
  orgs.setMembershipPublic(env.db, org.id, user.id, isPublic);
}

/**
 * Takes a user out of an organization: out of every team, the membership, and the watches on the
 * organization's repositories. The last owner cannot leave (Gitea's
 * ErrLastOrgOwner, answered here with 422 instead of Gitea's 500).
 */
export function removeMember(env: Env, org: UserRow, user: UserRow): void {
  writeTx(env.db, (tx) => {
    if (!orgs.isOrgMember(tx, org.id, user.id)) return;
    if (orgs.isOrgOwner(tx, org.id, user.id) && orgs.countOrgOwners(tx, org.id) <= 1) {
      throw new Invalid(`user is the last member of owner team [uid: ${user.id}]`);
    }
    teams.removeFromAllTeams(tx, org.id, user.id);
    orgs.removeOrgUser(tx, org.id, user.id);
    clearUserWatchesIn(tx, user.id, org.id);
  });
}
