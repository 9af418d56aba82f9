import type { Env } from "../env.ts";
import { writeTx, type Tx } from "../../db/client.ts";
import { AccessMode, UnitType, type TeamRow, type TeamUnitRow, type UserRow } from "../../db/schema/index.ts";
import * as orgs from "../../models/org.ts";
import * as teams from "../../models/team.ts";
import * as users from "../../models/user.ts";
import { Forbidden, Invalid, NotFound } from "../../lib/errors.ts";
import type { ListPage } from "./org.ts";
import { isPublicOnly, requireOwnerInReach, type Doer } from "../access/permission.ts";

/** Gitea's unit names (`repo.code`, ...) by unit type. */
export const UNIT_NAMES: Record<number, string> = {
  [UnitType.Code]: "repo.code",
  [UnitType.Issues]: "repo.issues",
  [UnitType.PullRequests]: "repo.pulls",
  [UnitType.Releases]: "repo.releases",
  [UnitType.Wiki]: "repo.wiki",
  [UnitType.ExternalWiki]: "repo.ext_wiki",
  [UnitType.ExternalTracker]: "repo.ext_issues",
  [UnitType.Projects]: "repo.projects",
  [UnitType.Packages]: "repo.packages",
  [UnitType.Actions]: "repo.actions",
};
const UNIT_BY_NAME = new Map(Object.entries(UNIT_NAMES).map(([type, name]) => [name, Number(type)]));

export const MODE_NAMES = ["none", "read", "write", "admin", "owner"] as const;

const PARSED_MODES: Record<string, number> = { read: AccessMode.Read, write: AccessMode.Write, admin: AccessMode.Admin };

/**
 * Gitea's perm.ParseAccessMode: read, write and admin; any other word (owner included) is none, and
 * so is a mode outside `allowed` when it is given.
 */
function parseMode(name: string | undefined, ...allowed: number[]): number {
  const mode = PARSED_MODES[name ?? ""] ?? AccessMode.None;
  return allowed.length === 0 || allowed.includes(mode) ? mode : AccessMode.None;
}

export interface TeamInput {
  name?: string;
  description?: string;
  permission?: string;
  units?: string[];
  unitsMap?: Record<string, string>;
  includesAllRepositories?: boolean;
  canCreateOrgRepo?: boolean;
}

type UnitMode = { type: number; accessMode: number };

/** Unit names match case-insensitively (Gitea's TypeFromKey); unknown names are dropped, a repeated unit counts once. */
function unitType(name: string): number | undefined {
  return UNIT_BY_NAME.get(name.toLowerCase());
}

function unitsFromMap(map: Record<string, string>): UnitMode[] {
  const modes = new Map<number, number>();
  for (const [name, mode] of Object.entries(map)) {
    const type = unitType(name);
    if (type !== undefined) modes.set(type, parseMode(mode));
  }
  return [...modes].map(([type, accessMode]) => ({ type, accessMode }));
}

function unitsFromList(names: string[], mode: number): UnitMode[] {
  const types = new Set(names.map(unitType).filter((t): t is number => t !== undefined));
  return [...types].map((type) => ({ type, accessMode: mode }));
}

/** An admin team's units: admin on every unit, read on the external ones (they are only links). */
function adminUnits(): UnitMode[] {
  return Object.values(UnitType).map((type) => ({
    type,
    accessMode: type === UnitType.ExternalWiki || type === UnitType.ExternalTracker ? AccessMode.Read : AccessMode.Admin,
  }));
}

/**
 * Gitea 1.25's team access (go-gitea#34128): a team's own mode is admin or none. An admin team has
 * every unit; below admin the access is in the units, from `units_map`, else from `units` each at the
 * request's read or write `permission` (none without one). Undefined when the request names no units.
 */
function unitsFor(mode: number, input: TeamInput): UnitMode[] | undefined {
  if (mode >= AccessMode.Admin) return adminUnits();
  if (input.unitsMap && Object.keys(input.unitsMap).length > 0) return unitsFromMap(input.unitsMap);
  if (input.units && input.units.length > 0) {
    return unitsFromList(input.units, parseMode(input.permission, AccessMode.Read, AccessMode.Write));
  }
  return undefined;
}

const teamExists = (orgId: number, name: string) =>
  new Invalid(`team already exists [org_id: ${orgId}, name: ${name.toLowerCase()}]`);

export function createTeam(env: Env, org: UserRow, input: TeamInput & { name: string }): TeamRow {
  // Gitea's IsUsableTeamName: "new" would shadow the web UI's new-team page.
  if (input.name === "new") throw new Invalid("name is reserved [name: new]");
  const mode = parseMode(input.permission, AccessMode.None, AccessMode.Admin);
  const units = unitsFor(mode, input);
  // Gitea answers 500 here; a request error is a 422.
  if (!units) throw new Invalid("units permission should not be empty");
  return writeTx(env.db, (tx) => {
    if (teams.getTeamByName(tx, org.id, input.name)) throw teamExists(org.id, input.name);
    const team = teams.insertTeam(tx, {
      orgId: org.id,
      name: input.name,
      lowerName: input.name.toLowerCase(),
      description: input.description ?? "",
      authorize: mode,
      includesAllRepositories: input.includesAllRepositories ?? false,
      canCreateOrgRepo: input.canCreateOrgRepo ?? false,
    });
    teams.replaceTeamUnits(tx, team, units);
    if (team.includesAllRepositories) teams.addAllOrgRepos(tx, team);
    return teams.getTeamById(tx, team.id)!;
  });
}

const isOwnerTeam = (team: TeamRow) => team.authorize >= AccessMode.Owner;

/** An admin or owner team: every unit, at the team's own mode. */
export const isAdminTeam = (team: TeamRow) => team.authorize >= AccessMode.Admin;

/**
 * Gitea's EditTeam: only given fields change. The mode and includes_all_repositories change only
 * along with a `permission`; units only when named (an admin team always has them all). The Owners
 * team keeps its access, repositories, right to create repositories and, unlike in Gitea (where a
 * renamed Owners team stops making owners), its name.
 */
export function editTeam(env: Env, team: TeamRow, input: TeamInput): TeamRow {
  return writeTx(env.db, (tx) => {
    const patch: Partial<TeamRow> = {};
    if (input.name) {
      if (isOwnerTeam(team) && input.name.toLowerCase() !== team.lowerName) {
        throw new Invalid("the Owners team cannot be renamed");
      }
      const other = teams.getTeamByName(tx, team.orgId, input.name);
      if (other && other.id !== team.id) throw teamExists(team.orgId, input.name);
      patch.name = input.name;
      patch.lowerName = input.name.toLowerCase();
    }
    if (input.description !== undefined) patch.description = input.description;
    if (input.canCreateOrgRepo !== undefined) patch.canCreateOrgRepo = isOwnerTeam(team) || input.canCreateOrgRepo;
    let units: UnitMode[] | undefined;
    if (!isOwnerTeam(team)) {
      let mode = team.authorize;
      if (input.permission) {
        mode = patch.authorize = parseMode(input.permission, AccessMode.None, AccessMode.Admin);
        if (input.includesAllRepositories !== undefined) patch.includesAllRepositories = input.includesAllRepositories;
      }
      units = unitsFor(mode, input);
      if (!units && team.authorize >= AccessMode.Admin && mode < AccessMode.Admin) {
        // Leaving admin without naming units: Gitea would leave every unit at admin; keep the
        // units at the read or write the request asks for instead.
        units = unitsFromList(Object.values(UNIT_NAMES), parseMode(input.permission, AccessMode.Read, AccessMode.Write));
      }
    }
    const updated = Object.keys(patch).length > 0 ? teams.updateTeam(tx, team.id, patch)! : team;
    if (units) teams.replaceTeamUnits(tx, updated, units);
    if (updated.includesAllRepositories && !team.includesAllRepositories) teams.addAllOrgRepos(tx, updated);
    return teams.getTeamById(tx, team.id)!;
  });
}

/** Deletes a team; the Owners team cannot go, and members left in no team leave the organization. */
export function deleteTeam(env: Env, team: TeamRow): void {
  if (isOwnerTeam(team)) throw new Invalid("the Owners team cannot be deleted");
  writeTx(env.db, (tx) => {
    const members = teams.listTeamMembers(tx, team.id, 0, 1_000_000).rows;
    teams.deleteTeamRow(tx, team.id);
    for (const m of members) dropIfTeamless(tx, team.orgId, m.id);
  });
}

function dropIfTeamless(tx: Tx, orgId: number, uid: number): void {
  if (teams.countUserTeamsInOrg(tx, orgId, uid) === 0) orgs.removeOrgUser(tx, orgId, uid);
}

export function teamUnits(env: Env, teamIds: number[]): Map<number, TeamUnitRow[]> {
  return teams.unitsOfTeams(env.db, teamIds);
}

/**
 * The team of `/teams/{id}` for `doer`, with Gitea's reqTeamMembership: site admins, organization
 * owners and the team's members pass; other organization members get 403; everyone else 404. Then
 * its organization must be within a public-only token's reach (Gitea's checkTokenPublicOnly, 403).
 * Gitea parses the id leniently: anything but a number finds no team.
 */
export function teamForMember(env: Env, doer: Doer, id: string): { team: TeamRow; org: UserRow } {
  const team = /^\d{1,15}$/.test(id) ? teams.getTeamById(env.db, Number(id)) : undefined;
  const org = team && users.getUserById(env.db, team.orgId);
  if (!team || !org) throw new NotFound();
  if (doer.isAdmin || orgs.isOrgOwner(env.db, org.id, doer.id) || teams.isTeamMember(env.db, team.id, doer.id)) {
    requireOwnerInReach(env, org, doer);
    return { team, org };
  }
  if (orgs.isOrgMember(env.db, org.id, doer.id)) throw new Forbidden("Must be a team member");
  throw new NotFound();
}

/** Gitea's reqOrgOwnership on `/teams/{id}` routes: with only a team in its context it answers 404, not 403. */
export function requireTeamOwner(env: Env, doer: UserRow, team: TeamRow): void {
  if (!doer.isAdmin && !orgs.isOrgOwner(env.db, team.orgId, doer.id)) throw new NotFound();
}

export function listOrgTeams(env: Env, org: UserRow, page: ListPage) {
  return teams.listOrgTeams(env.db, org.id, page.offset, page.limit);
}

/** Team search: site admins search every team, anyone else only the teams they are in (as Gitea). */
export function searchTeams(
  env: Env,
  doer: UserRow,
  org: UserRow,
  input: { keyword: string; includeDescription: boolean } & ListPage,
) {
  return teams.searchOrgTeams(env.db, {
    orgId: org.id,
    keyword: input.keyword,
    includeDescription: input.includeDescription,
    memberId: doer.isAdmin ? undefined : doer.id,
    offset: input.offset,
    limit: input.limit,
  });
}

/** GET /user/teams: the doer's teams; through a public-only token only those of public organizations. */
export function listUserTeams(env: Env, doer: Doer, page: ListPage) {
  return teams.listUserTeams(env.db, doer.id, { publicOrgsOnly: isPublicOnly(doer), ...page });
}

/** The organizations of a set of teams, by id, for the `organization` field. */
export function orgsOfTeams(env: Env, rows: TeamRow[]): Map<number, UserRow> {
  return new Map(users.getUsersByIds(env.db, [...new Set(rows.map((t) => t.orgId))]).map((o) => [o.id, o]));
}

// Members

export function listTeamMembers(env: Env, team: TeamRow, page: ListPage) {
  return teams.listTeamMembers(env.db, team.id, page.offset, page.limit);
}

export function isTeamMember(env: Env, team: TeamRow, user: UserRow): boolean {
  return teams.isTeamMember(env.db, team.id, user.id);
}

/** Adds a user to a team, and so to the organization. */
export function addTeamMember(env: Env, team: TeamRow, user: UserRow): void {
  writeTx(env.db, (tx) => {
    orgs.addOrgUser(tx, team.orgId, user.id, env.settings.service.defaultOrgMemberVisible);
    teams.addTeamMember(tx, team, user.id);
  });
}

/**
 * Takes a user out of a team; out of its last team, out of the organization. The Owners team keeps
 * at least one member (Gitea's ErrLastOrgOwner, a 422 here rather than Gitea's 500).
 */
export function removeTeamMember(env: Env, team: TeamRow, user: UserRow): void {
  writeTx(env.db, (tx) => {
    if (!teams.isTeamMember(tx, team.id, user.id)) return;
    if (isOwnerTeam(team) && (teams.getTeamById(tx, team.id)?.numMembers ?? 0) <= 1) {
      throw new Invalid(`user is the last member of owner team [uid: ${user.id}]`);
    }
    teams.removeTeamMember(tx, team, user.id);
    dropIfTeamless(tx, team.orgId, user.id);
  });
}
