import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { AccessMode, orgUsers, teams, teamUsers, users, UserType, type UserRow } from "../db/schema/index.ts";

/** Membership of organizations: who is in which, and who shows it. */

export function isOrgMember(tx: Tx, orgId: number, uid: number): boolean {
  return (
    prepared(tx, "org.isMember", (t) =>
      t
        .select({ id: orgUsers.id })
        .from(orgUsers)
        .where(and(eq(orgUsers.orgId, sql.placeholder("orgId")), eq(orgUsers.uid, sql.placeholder("uid"))))
        .prepare(),
    ).get({ orgId, uid }) !== undefined
  );
}

export function isPublicOrgMember(tx: Tx, orgId: number, uid: number): boolean {
  const row = tx
    .select({ isPublic: orgUsers.isPublic })
    .from(orgUsers)
    .where(and(eq(orgUsers.orgId, orgId), eq(orgUsers.uid, uid)))
    .get();
  return row?.isPublic ?? false;
}

/** An owner is a member of a team with owner access (the Owners team). */
export function isOrgOwner(tx: Tx, orgId: number, uid: number): boolean {
  return (
    prepared(tx, "org.isOwner", (t) =>
      t
        .select({ id: teamUsers.id })
        .from(teamUsers)
        .innerJoin(teams, eq(teams.id, teamUsers.teamId))
        .where(
          and(
            eq(teamUsers.orgId, sql.placeholder("orgId")),
            eq(teamUsers.uid, sql.placeholder("uid")),
            eq(teams.authorize, AccessMode.Owner),
          ),
        )
        .prepare(),
    ).get({ orgId, uid }) !== undefined
  );
}

export function countOrgOwners(tx: Tx, orgId: number): number {
  return tx
    .select({ n: sql<number>`count(DISTINCT ${teamUsers.uid})` })
    .from(teamUsers)
    .innerJoin(teams, eq(teams.id, teamUsers.teamId))
    .where(and(eq(teamUsers.orgId, orgId), eq(teams.authorize, AccessMode.Owner)))
    .get()!.n;
}

export function addOrgUser(tx: Tx, orgId: number, uid: number, isPublic: boolean): void {
  tx.insert(orgUsers).values({ orgId, uid, isPublic }).onConflictDoNothing().run();
}

export function removeOrgUser(tx: Tx, orgId: number, uid: number): void {
  tx.delete(orgUsers).where(and(eq(orgUsers.orgId, orgId), eq(orgUsers.uid, uid))).run();
}

export function setMembershipPublic(tx: Tx, orgId: number, uid: number, isPublic: boolean): void {
  tx.update(orgUsers).set({ isPublic }).where(and(eq(orgUsers.orgId, orgId), eq(orgUsers.uid, uid))).run();
}

export function countOrgMembers(tx: Tx, orgId: number): number {
  return tx.select({ n: count() }).from(orgUsers).where(eq(orgUsers.orgId, orgId)).get()!.n;
}

export function listOrgMembers(
  tx: Tx,
  orgId: number,
  opts: { publicOnly: boolean; offset: number; limit: number },
): { rows: UserRow[]; total: number } {
  const where = and(eq(orgUsers.orgId, orgId), opts.publicOnly ? eq(orgUsers.isPublic, true) : undefined);
  const rows = tx
    .select({ user: users })
    .from(orgUsers)
    .innerJoin(users, eq(users.id, orgUsers.uid))
    .where(where)
    .orderBy(asc(users.lowerName))
    .limit(opts.limit)
    .offset(opts.offset)
    .all()
    .map((r) => r.user);
  const total = tx.select({ n: count() }).from(orgUsers).where(where).get()!.n;
  return { rows, total };
}

export interface UserOrgsFilter {
  uid: number;
  /** Only memberships the member made public. */
  publicOnly?: boolean;
  /** Only organizations with one of these visibilities... */
  visibleIn?: number[];
  /** ...or of which this user is a member too. */
  alsoMemberId?: number;
  offset: number;
  limit: number;
}

/** The organizations a user belongs to, as a viewer may see them. */
export function listUserOrgs(tx: Tx, f: UserOrgsFilter): { rows: UserRow[]; total: number } {
  const conds = [eq(orgUsers.uid, f.uid), eq(users.type, UserType.Organization)];
  if (f.publicOnly) conds.push(eq(orgUsers.isPublic, true));
  if (f.visibleIn) {
    const visible = inArray(users.visibility, f.visibleIn);
    conds.push(
      f.alsoMemberId !== undefined
        ? sql`(${visible} OR ${users.id} IN (SELECT ${orgUsers.orgId} FROM ${orgUsers} WHERE ${orgUsers.uid} = ${f.alsoMemberId}))`
        : visible,
    );
  }
  const where = and(...conds);
  const rows = tx
    .select({ org: users })
    .from(orgUsers)
    .innerJoin(users, eq(users.id, orgUsers.orgId))
    .where(where)
    .orderBy(asc(users.lowerName))
    .limit(f.limit)
    .offset(f.offset)
    .all()
    .map((r) => r.org);
  const total = tx.select({ n: count() }).from(orgUsers).innerJoin(users, eq(users.id, orgUsers.orgId)).where(where).get()!.n;
  return { rows, total };
}

/** Ids of every organization the user is a member of. */
export function orgIdsOfMember(tx: Tx, uid: number): number[] {
  return tx
    .select({ id: orgUsers.orgId })
    .from(orgUsers)
    .where(eq(orgUsers.uid, uid))
    .all()
    .map((r) => r.id);
}

/** Organizations where this user is the only owner: they cannot be left without one. */
export function orgsSolelyOwnedBy(tx: Tx, uid: number): UserRow[] {
  const owned = tx
    .selectDistinct({ orgId: teamUsers.orgId })
    .from(teamUsers)
    .innerJoin(teams, eq(teams.id, teamUsers.teamId))
    .where(and(eq(teamUsers.uid, uid), eq(teams.authorize, AccessMode.Owner)))
    .all()
    .map((r) => r.orgId);
  const sole = owned.filter((orgId) => countOrgOwners(tx, orgId) === 1);
  if (sole.length === 0) return [];
  return tx.select().from(users).where(inArray(users.id, sole)).orderBy(asc(users.lowerName)).all();
}

/** The organizations an account owns (is in an Owners-mode team of). */
export function ownedOrgIds(tx: Tx, uid: number): number[] {
  return tx
    .selectDistinct({ orgId: teamUsers.orgId })
    .from(teamUsers)
    .innerJoin(teams, eq(teams.id, teamUsers.teamId))
    .where(and(eq(teamUsers.uid, uid), eq(teams.authorize, AccessMode.Owner)))
    .all()
    .map((r) => r.orgId);
}
