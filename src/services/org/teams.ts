import type { Env } from "../env.ts";
import { writeTx, type Tx } from "../../db/client.ts";
import { AccessMode, UnitType, type TeamRow, type TeamUnitRow, type UserRow } from "../../db/schema/index.ts";
import * as orgs from "../../models/org.ts";
import * as teams from "../../models/team.ts";
import * as users from "../../models/user.ts";
import { Forbidden, Invalid, NotFound } from "../../lib/errors.ts";
import type { ListPage } from "./org.ts";

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
const EXTERNAL = new Set<number>([UnitType.ExternalWiki, UnitType.ExternalTracker]);

export const MODE_NAMES = ["none", "read", "write", "admin", "owner"] as const;

/** Gitea's perm.ParseAccessMode: unknown words are none. */
function parseMode(name: string | undefined): number {
  const i = MODE_NAMES.indexOf((name ?? "") as (typeof MODE_NAMES)[number]);
  return i < 0 ? AccessMode.None : i;
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

function unitsFromMap(map: Record<string, string>): UnitMode[] {
  const out: UnitMode[] = [];
  for (const [name, mode] of Object.entries(map)) {
    const type = UNIT_BY_NAME.get(name);
    if (type === undefined) continue;
    // External trackers and wikis are links: nobody writes to them.
    out.push({ type, accessMode: EXTERNAL.has(type) ? Math.min(parseMode(mode), AccessMode.Read) : parseMode(mode) });
  }
  return out;
}

function unitsFromList(names: string[], mode: number): UnitMode[] {
  const types = [...new Set(names.map((n) => UNIT_BY_NAME.get(n)).filter((t): t is number => t !== undefined))];
  return types.map((type) => ({ type, accessMode: EXTERNAL.has(type) ? AccessMode.Read : mode }));
}

function adminUnits(): UnitMode[] {
  return Object.values(UnitType).map((type) => ({ type, accessMode: EXTERNAL.has(type) ? AccessMode.Read : AccessMode.Admin }));
}

/** Gitea's MinUnitAccessMode: the weakest mode above none among the non-external units. */
function minUnitMode(units: UnitMode[]): number {
  let res: number = AccessMode.None;
  for (const u of units) {
    if (EXTERNAL.has(u.type) || u.accessMode <= AccessMode.None) continue;
    if (res === AccessMode.None || u.accessMode < res) res = u.accessMode;
  }
  return res;
}

/**
 * The team's mode and units from a create/edit request, as Gitea's API derives them: admin teams
 * get every unit; otherwise `units_map` wins over `units`, and with a map the team's mode is its
 * weakest unit's.
 */
function resolveAccess(permission: number, input: TeamInput): { mode: number; units: UnitMode[] | undefined } {
  if (permission >= AccessMode.Admin) return { mode: permission, units: adminUnits() };
  if (input.unitsMap && Object.keys(input.unitsMap).length > 0) {
    const units = unitsFromMap(input.unitsMap);
    return { mode: minUnitMode(units), units };
  }
  if (input.units && input.units.length > 0) return { mode: permission, units: unitsFromList(input.units, permission) };
  return { mode: permission, units: undefined };
}

function checkName(name: string): void {
  if (!/^[\w.-]+$/.test(name)) throw new Invalid("[Name]: AlphaDashDot");
}

export function createTeam(env: Env, org: UserRow, input: TeamInput & { name: string }): TeamRow {
  checkName(input.name);
  const { mode, units } = resolveAccess(parseMode(input.permission), input);
  if (!units) throw new Invalid("units permission should not be empty");
  return writeTx(env.db, (tx) => {
    if (teams.getTeamByName(tx, org.id, input.name)) {
      throw new Invalid(`team already exists [org_id: ${org.id}, name: ${input.name}]`);
    }
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

/**
 * Gitea's EditTeam: only given fields change; the Owners team keeps its access, its repositories
 * and the right to create repositories.
 */
export function editTeam(env: Env, team: TeamRow, input: TeamInput): TeamRow {
  if (input.name !== undefined && input.name !== "") checkName(input.name);
  return writeTx(env.db, (tx) => {
    const patch: Partial<TeamRow> = {};
    if (input.name && input.name.toLowerCase() !== team.lowerName) {
      if (isOwnerTeam(team)) throw new Invalid("the Owners team cannot be renamed");
      if (teams.getTeamByName(tx, team.orgId, input.name)) {
        throw new Invalid(`team already exists [org_id: ${team.orgId}, name: ${input.name}]`);
      }
    }
    if (input.name) {
      patch.name = input.name;
      patch.lowerName = input.name.toLowerCase();
    }
    if (input.description !== undefined) patch.description = input.description;
    if (input.canCreateOrgRepo !== undefined) patch.canCreateOrgRepo = isOwnerTeam(team) || input.canCreateOrgRepo;
    let mode = team.authorize;
    let units: UnitMode[] | undefined;
    if (!isOwnerTeam(team)) {
      const permission = input.permission ? parseMode(input.permission) : team.authorize;
      const resolved = resolveAccess(permission, input);
      mode = resolved.mode;
      units = resolved.units;
      if (input.permission && permission < AccessMode.Admin && team.authorize >= AccessMode.Admin && !units) {
        // Leaving admin without naming units: keep the units the team had, at the new mode.
        units = teams
          .unitsOfTeams(tx, [team.id])
          .get(team.id)
          ?.map((u) => ({ type: u.type, accessMode: EXTERNAL.has(u.type) ? AccessMode.Read : permission }));
      }
      patch.authorize = mode;
      if (input.permission && input.includesAllRepositories !== undefined) {
        patch.includesAllRepositories = input.includesAllRepositories;
      }
    }
    const updated = teams.updateTeam(tx, team.id, patch)!;
    if (units) teams.replaceTeamUnits(tx, updated, units);
    if (updated.includesAllRepositories && !team.includesAllRepositories) teams.addAllOrgRepos(tx, updated);
    return updated;
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
 * owners and the team's members pass; other organization members get 403; everyone else 404.
 */
export function teamForMember(env: Env, doer: UserRow, id: number): { team: TeamRow; org: UserRow } {
  const team = teams.getTeamById(env.db, id);
  const org = team && users.getUserById(env.db, team.orgId);
  if (!team || !org) throw new NotFound();
  if (doer.isAdmin || orgs.isOrgOwner(env.db, org.id, doer.id) || teams.isTeamMember(env.db, team.id, doer.id)) {
    return { team, org };
  }
  if (orgs.isOrgMember(env.db, org.id, doer.id)) throw new Forbidden("Must be a team member");
  throw new NotFound();
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

export function listUserTeams(env: Env, doer: UserRow, page: ListPage) {
  return teams.listUserTeams(env.db, doer.id, page);
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
