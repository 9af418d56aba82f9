import type { Env } from "../env.ts";
import type { TeamRow, UserRow } from "../../db/schema/index.ts";
import * as orgs from "../../models/org.ts";
import * as teams from "../../models/team.ts";
import { inAllReposAdminTeam, memberFlags, type MemberFlags } from "../../models/account-lists.ts";
import { NotFound } from "../../lib/errors.ts";
import type { Doer } from "../access/permission.ts";
import { listMembers } from "./members.ts";
import type { ListPage } from "./org.ts";

/**
 * An organization's people as its web pages show them (Gitea's org home, members and teams pages):
 * members to everyone who may see the organization (the public ones to non-members), teams only to
 * members, and of those only the teams each member may see.
 */

export interface MemberEntry {
  user: UserRow;
  /** Shown only to those who see every member (members and site admins): whether the membership is public, and the role. */
  flags?: MemberFlags;
}

/** Whether the viewer sees every member and the teams: a member or a site admin (Gitea's IsMember, true for admins). */
export function seesAllMembers(env: Env, org: UserRow, viewer: Doer | undefined): boolean {
  return viewer !== undefined && !viewer.publicOnly && (viewer.isAdmin || orgs.isOrgMember(env.db, org.id, viewer.id));
}

/** A page of the organization's members as the viewer may see them, with each one's role for members. */
export function orgMembers(env: Env, viewer: Doer | undefined, org: UserRow, page: ListPage): { rows: MemberEntry[]; total: number } {
  const { rows, total } = listMembers(env, viewer, org, page);
  if (!seesAllMembers(env, org, viewer)) return { rows: rows.map((user) => ({ user })), total };
  const flags = memberFlags(env.db, org.id, rows.map((u) => u.id));
  return { rows: rows.map((user) => ({ user, flags: flags.get(user.id) })), total };
}

/**
 * Gitea's OrgAssignment for team pages: members only (404 to anyone else, as Gitea answers); owners,
 * site admins and members of an admin team over all repositories see every team, other members the
 * teams they are in.
 */
function teamScope(env: Env, viewer: Doer, org: UserRow): "all" | "mine" {
  if (!seesAllMembers(env, org, viewer)) throw new NotFound();
  if (viewer.isAdmin || orgs.isOrgOwner(env.db, org.id, viewer.id) || inAllReposAdminTeam(env.db, org.id, viewer.id)) return "all";
  return "mine";
}

/** The teams of the organization the viewer may see, a page of them, and how many. */
export function visibleTeams(env: Env, viewer: Doer, org: UserRow, page: ListPage): { rows: TeamRow[]; total: number } {
  if (teamScope(env, viewer, org) === "all") return teams.listOrgTeams(env.db, org.id, page.offset, page.limit);
  return teams.listUserTeams(env.db, viewer.id, { orgId: org.id, ...page });
}

/** The teams for an organization's home page: those the viewer may see, or none for a non-member. */
export function homeTeams(env: Env, viewer: Doer | undefined, org: UserRow, page: ListPage): { rows: TeamRow[]; total: number } {
  if (!viewer || !seesAllMembers(env, org, viewer)) return { rows: [], total: 0 };
  return visibleTeams(env, viewer, org, page);
}

/** `/org/{org}/teams/{team}`: the team named (case-insensitively) if the viewer may see it, else 404. */
export function visibleTeam(env: Env, viewer: Doer, org: UserRow, name: string): TeamRow {
  const scope = teamScope(env, viewer, org);
  const team = teams.getTeamByName(env.db, org.id, name);
  if (!team) throw new NotFound();
  if (scope === "mine" && !teams.isTeamMember(env.db, team.id, viewer.id)) throw new NotFound();
  return team;
}
