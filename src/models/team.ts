import { and, asc, count, eq, inArray, or, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { containsText } from "./like.ts";
import { prepared } from "../db/prepared.ts";
import {
  AccessMode,
  repositories,
  teamRepos,
  teams,
  teamUnits,
  teamUsers,
  users,
  Visibility,
  type NewTeamRow,
  type RepoRow,
  type TeamRow,
  type TeamUnitRow,
  type UserRow,
} from "../db/schema/index.ts";

/** Teams, their members, repositories and unit modes. Counters are recounted in the same transaction. */

/** Gitea's team order: the Owners team first, then by lower-cased name. */
const teamOrder = [sql`CASE WHEN ${teams.authorize} = ${AccessMode.Owner} THEN '' ELSE ${teams.lowerName} END`, asc(teams.id)];

export function getTeamById(tx: Tx, id: number): TeamRow | undefined {
  return tx.select().from(teams).where(eq(teams.id, id)).get();
}

export function getTeamsByIds(tx: Tx, ids: number[]): TeamRow[] {
  return ids.length ? tx.select().from(teams).where(inArray(teams.id, ids)).all() : [];
}

export function getTeamByName(tx: Tx, orgId: number, name: string): TeamRow | undefined {
  return tx
    .select()
    .from(teams)
    .where(and(eq(teams.orgId, orgId), eq(teams.lowerName, name.toLowerCase())))
    .get();
}

export function insertTeam(tx: Tx, row: NewTeamRow): TeamRow {
  return tx.insert(teams).values(row).returning().get();
}

export function updateTeam(tx: Tx, id: number, patch: Partial<NewTeamRow>): TeamRow | undefined {
  return tx.update(teams).set(patch).where(eq(teams.id, id)).returning().get();
}

export function deleteTeamRow(tx: Tx, id: number): void {
  tx.delete(teams).where(eq(teams.id, id)).run();
}

export function listOrgTeams(tx: Tx, orgId: number, offset: number, limit: number): { rows: TeamRow[]; total: number } {
  const where = eq(teams.orgId, orgId);
  const rows = tx.select().from(teams).where(where).orderBy(...teamOrder).limit(limit).offset(offset).all();
  return { rows, total: tx.select({ n: count() }).from(teams).where(where).get()!.n };
}

export function searchOrgTeams(
  tx: Tx,
  f: { orgId: number; keyword: string; includeDescription: boolean; memberId?: number; offset: number; limit: number },
): { rows: TeamRow[]; total: number } {
  const conds = [eq(teams.orgId, f.orgId)];
  if (f.keyword) {
    const byName = containsText(teams.lowerName, f.keyword);
    conds.push(f.includeDescription ? or(byName, containsText(teams.description, f.keyword))! : byName);
  }
  if (f.memberId !== undefined) {
    conds.push(inArray(teams.id, sql`(SELECT ${teamUsers.teamId} FROM ${teamUsers} WHERE ${teamUsers.uid} = ${f.memberId})`));
  }
  const where = and(...conds);
  const rows = tx.select().from(teams).where(where).orderBy(...teamOrder).limit(f.limit).offset(f.offset).all();
  return { rows, total: tx.select({ n: count() }).from(teams).where(where).get()!.n };
}

/** Teams the user is in, across organizations (GET /user/teams), or within one organization. */
export function listUserTeams(
  tx: Tx,
  uid: number,
  opts: { orgId?: number; publicOrgsOnly?: boolean; offset: number; limit: number },
): { rows: TeamRow[]; total: number } {
  const where = and(
    inArray(teams.id, sql`(SELECT ${teamUsers.teamId} FROM ${teamUsers} WHERE ${teamUsers.uid} = ${uid})`),
    opts.orgId !== undefined ? eq(teams.orgId, opts.orgId) : undefined,
    opts.publicOrgsOnly
      ? inArray(teams.orgId, sql`(SELECT ${users.id} FROM ${users} WHERE ${users.visibility} = ${Visibility.Public})`)
      : undefined,
  );
  const rows = tx
    .select()
    .from(teams)
    .where(where)
    .orderBy(...teamOrder)
    .limit(opts.limit)
    .offset(opts.offset)
    .all();
  return { rows, total: tx.select({ n: count() }).from(teams).where(where).get()!.n };
}

// Units

export function unitsOfTeams(tx: Tx, teamIds: number[]): Map<number, TeamUnitRow[]> {
  const out = new Map<number, TeamUnitRow[]>();
  if (teamIds.length === 0) return out;
  for (const u of tx.select().from(teamUnits).where(inArray(teamUnits.teamId, teamIds)).orderBy(asc(teamUnits.type)).all()) {
    const list = out.get(u.teamId) ?? [];
    list.push(u);
    out.set(u.teamId, list);
  }
  return out;
}

export function replaceTeamUnits(tx: Tx, team: TeamRow, units: { type: number; accessMode: number }[]): void {
  tx.delete(teamUnits).where(eq(teamUnits.teamId, team.id)).run();
  if (units.length === 0) return;
  tx.insert(teamUnits)
    .values(units.map((u) => ({ orgId: team.orgId, teamId: team.id, type: u.type, accessMode: u.accessMode })))
    .run();
}

// Members

export function isTeamMember(tx: Tx, teamId: number, uid: number): boolean {
  return (
    tx
      .select({ id: teamUsers.id })
      .from(teamUsers)
      .where(and(eq(teamUsers.teamId, teamId), eq(teamUsers.uid, uid)))
      .get() !== undefined
  );
}

function recountMembers(tx: Tx, teamId: number): void {
  tx.update(teams)
    .set({ numMembers: sql`(SELECT count(*) FROM ${teamUsers} WHERE ${teamUsers.teamId} = ${teamId})` })
    .where(eq(teams.id, teamId))
    .run();
}

export function addTeamMember(tx: Tx, team: TeamRow, uid: number): void {
  tx.insert(teamUsers).values({ orgId: team.orgId, teamId: team.id, uid }).onConflictDoNothing().run();
  recountMembers(tx, team.id);
}

export function removeTeamMember(tx: Tx, team: TeamRow, uid: number): void {
  tx.delete(teamUsers).where(and(eq(teamUsers.teamId, team.id), eq(teamUsers.uid, uid))).run();
  recountMembers(tx, team.id);
}

/** Takes the user out of every team of the organization (leaving it), recounting each team. */
export function removeFromAllTeams(tx: Tx, orgId: number, uid: number): void {
  const ids = tx
    .select({ id: teamUsers.teamId })
    .from(teamUsers)
    .where(and(eq(teamUsers.orgId, orgId), eq(teamUsers.uid, uid)))
    .all()
    .map((r) => r.id);
  tx.delete(teamUsers).where(and(eq(teamUsers.orgId, orgId), eq(teamUsers.uid, uid))).run();
  for (const id of ids) recountMembers(tx, id);
}

export function countUserTeamsInOrg(tx: Tx, orgId: number, uid: number): number {
  return tx
    .select({ n: count() })
    .from(teamUsers)
    .where(and(eq(teamUsers.orgId, orgId), eq(teamUsers.uid, uid)))
    .get()!.n;
}

export function listTeamMembers(tx: Tx, teamId: number, offset: number, limit: number): { rows: UserRow[]; total: number } {
  const where = eq(teamUsers.teamId, teamId);
  const rows = tx
    .select({ user: users })
    .from(teamUsers)
    .innerJoin(users, eq(users.id, teamUsers.uid))
    .where(where)
    .orderBy(asc(users.fullName), asc(users.name))
    .limit(limit)
    .offset(offset)
    .all()
    .map((r) => r.user);
  return { rows, total: tx.select({ n: count() }).from(teamUsers).where(where).get()!.n };
}

// Repositories

export function hasTeamRepo(tx: Tx, teamId: number, repoId: number): boolean {
  return (
    tx
      .select({ id: teamRepos.id })
      .from(teamRepos)
      .where(and(eq(teamRepos.teamId, teamId), eq(teamRepos.repoId, repoId)))
      .get() !== undefined
  );
}

function recountRepos(tx: Tx, teamId: number): void {
  tx.update(teams)
    .set({ numRepos: sql`(SELECT count(*) FROM ${teamRepos} WHERE ${teamRepos.teamId} = ${teamId})` })
    .where(eq(teams.id, teamId))
    .run();
}

export function addTeamRepo(tx: Tx, team: TeamRow, repoId: number): void {
  tx.insert(teamRepos).values({ orgId: team.orgId, teamId: team.id, repoId }).onConflictDoNothing().run();
  recountRepos(tx, team.id);
}

export function removeTeamRepo(tx: Tx, team: TeamRow, repoId: number): void {
  tx.delete(teamRepos).where(and(eq(teamRepos.teamId, team.id), eq(teamRepos.repoId, repoId))).run();
  recountRepos(tx, team.id);
}

/** Gives a team every repository its organization owns (includes_all_repositories). */
export function addAllOrgRepos(tx: Tx, team: TeamRow): void {
  tx.run(sql`INSERT OR IGNORE INTO ${teamRepos} (org_id, team_id, repo_id)
    SELECT ${team.orgId}, ${team.id}, ${repositories.id} FROM ${repositories} WHERE ${repositories.ownerId} = ${team.orgId}`);
  recountRepos(tx, team.id);
}

/** A new or transferred-in repository joins every team of its organization that includes all repositories. */
export function addRepoToAllRepoTeams(tx: Tx, orgId: number, repoId: number): void {
  const ids = tx
    .select({ id: teams.id })
    .from(teams)
    .where(and(eq(teams.orgId, orgId), eq(teams.includesAllRepositories, true)))
    .all()
    .map((r) => r.id);
  for (const id of ids) {
    tx.insert(teamRepos).values({ orgId, teamId: id, repoId }).onConflictDoNothing().run();
    recountRepos(tx, id);
  }
}

/** A repository leaving an organization (transfer) leaves all of its teams. */
export function removeRepoFromTeams(tx: Tx, repoId: number): void {
  const ids = tx
    .select({ id: teamRepos.teamId })
    .from(teamRepos)
    .where(eq(teamRepos.repoId, repoId))
    .all()
    .map((r) => r.id);
  tx.delete(teamRepos).where(eq(teamRepos.repoId, repoId)).run();
  for (const id of ids) recountRepos(tx, id);
}

/** A team's repositories by name; `publicOnly` (a public-only token's view) leaves out the private ones. */
export function listTeamRepos(
  tx: Tx,
  teamId: number,
  opts: { publicOnly: boolean; offset: number; limit: number },
): { rows: RepoRow[]; total: number } {
  const { offset, limit } = opts;
  const where = and(eq(teamRepos.teamId, teamId), opts.publicOnly ? eq(repositories.isPrivate, false) : undefined);
  const rows = tx
    .select({ repo: repositories })
    .from(teamRepos)
    .innerJoin(repositories, eq(repositories.id, teamRepos.repoId))
    .where(where)
    .orderBy(asc(repositories.lowerName))
    .limit(limit)
    .offset(offset)
    .all()
    .map((r) => r.repo);
  const total = tx
    .select({ n: count() })
    .from(teamRepos)
    .innerJoin(repositories, eq(repositories.id, teamRepos.repoId))
    .where(where)
    .get()!.n;
  return { rows, total };
}

/** The teams through which a user reaches a repository of an organization: the permission function's input. */
export function userTeamsWithRepo(tx: Tx, orgId: number, uid: number, repoId: number): TeamRow[] {
  return prepared(tx, "team.userTeamsWithRepo", (t) =>
    t
      .select({ team: teams })
      .from(teamUsers)
      .innerJoin(teams, eq(teams.id, teamUsers.teamId))
      .innerJoin(teamRepos, and(eq(teamRepos.teamId, teams.id), eq(teamRepos.repoId, sql.placeholder("repoId"))))
      .where(and(eq(teamUsers.orgId, sql.placeholder("orgId")), eq(teamUsers.uid, sql.placeholder("uid"))))
      .prepare(),
  )
    .all({ orgId, uid, repoId })
    .map((r) => r.team);
}

/** The teams that have a repository (GET /repos/{o}/{r}/teams). */
export function teamsWithRepo(tx: Tx, repoId: number): TeamRow[] {
  return tx
    .select({ team: teams })
    .from(teamRepos)
    .innerJoin(teams, eq(teams.id, teamRepos.teamId))
    .where(eq(teamRepos.repoId, repoId))
    .orderBy(asc(teams.lowerName))
    .all()
    .map((r) => r.team);
}

/** An account's teams with the repositories each has, for permission checks over many repositories at once. */
export function teamReposOfUser(tx: Tx, uid: number): { team: TeamRow; repoId: number }[] {
  return tx
    .select({ team: teams, repoId: teamRepos.repoId })
    .from(teamUsers)
    .innerJoin(teams, eq(teams.id, teamUsers.teamId))
    .innerJoin(teamRepos, eq(teamRepos.teamId, teams.id))
    .where(eq(teamUsers.uid, uid))
    .all();
}
