import { and, asc, count, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { AccessMode, orgUsers, stars, teams, teamUsers, users, Visibility, type UserRow } from "../db/schema/index.ts";
import { containsText } from "./like.ts";
import { inIdList } from "./id-list.ts";
import { prepared } from "../db/prepared.ts";

/** Lists of accounts the web pages show: the explore pages' searches, a profile's stars, an organization's people. */

export type AccountViewer = Pick<UserRow, "id" | "isAdmin" | "isRestricted"> | undefined;

/**
 * Gitea's BuildCanSeeUserCondition: anonymous viewers see public accounts; site admins all; anyone
 * else themselves and the organizations they belong to, and unless restricted public and limited
 * accounts too.
 */
function canSeeAccount(viewer: AccountViewer): SQL | undefined {
  if (!viewer) return eq(users.visibility, Visibility.Public);
  if (viewer.isAdmin) return undefined;
  const theirOrgs = inArray(users.id, sql`(SELECT ${orgUsers.orgId} FROM ${orgUsers} WHERE ${orgUsers.uid} = ${viewer.id})`);
  const self = eq(users.id, viewer.id);
  if (viewer.isRestricted) return or(theirOrgs, self);
  return or(inArray(users.visibility, [Visibility.Public, Visibility.Limited]), theirOrgs, self);
}

export type AccountOrder = "newest" | "oldest" | "alphabetically" | "reversealphabetically";

export interface AccountSearch {
  type: number;
  viewer: AccountViewer;
  /** Case-insensitive part of the name or full name (Gitea's explore pages do not search emails). */
  keyword?: string;
  isActive?: boolean;
  order: AccountOrder;
  offset: number;
  limit: number;
}

/** Gitea's SearchUsers as the explore pages call it: a page of accounts of one type the viewer may see, and how many. */
export function searchAccounts(tx: Tx, f: AccountSearch): { rows: UserRow[]; total: number } {
  const where = and(
    eq(users.type, f.type),
    canSeeAccount(f.viewer),
    f.keyword ? or(containsText(users.lowerName, f.keyword), containsText(users.fullName, f.keyword)) : undefined,
    f.isActive !== undefined ? eq(users.isActive, f.isActive) : undefined,
  );
  const order = {
    newest: [desc(users.id)],
    oldest: [asc(users.id)],
    alphabetically: [asc(users.lowerName)],
    reversealphabetically: [desc(users.lowerName)],
  }[f.order];
  const rows = tx
    .select()
    .from(users)
    .where(where)
    .orderBy(...order)
    .limit(f.limit)
    .offset(f.offset)
    .all();
  const total = tx.select({ n: count() }).from(users).where(where).get()!.n;
  return { rows, total };
}

/** Ids of the repositories `uid` starred (the primary key's order), for a repository list to narrow to. */
export function starredRepoIds(tx: Tx, uid: number): number[] {
  return prepared(tx, "accounts.starredIds", (t) =>
    t.select({ id: stars.repoId }).from(stars).where(eq(stars.uid, sql.placeholder("uid"))).prepare(),
  )
    .all({ uid })
    .map((r) => r.id);
}

export interface MemberFlags {
  isPublic: boolean;
  isOwner: boolean;
}

/** For a page of an organization's members: whether each shows the membership and whether each is an owner, in two queries. */
export function memberFlags(tx: Tx, orgId: number, uids: number[]): Map<number, MemberFlags> {
  const out = new Map<number, MemberFlags>();
  if (uids.length === 0) return out;
  const shown = tx
    .select({ uid: orgUsers.uid, isPublic: orgUsers.isPublic })
    .from(orgUsers)
    .where(and(eq(orgUsers.orgId, orgId), inIdList(orgUsers.uid, uids)))
    .all();
  for (const r of shown) out.set(r.uid, { isPublic: r.isPublic, isOwner: false });
  const owners = tx
    .selectDistinct({ uid: teamUsers.uid })
    .from(teamUsers)
    .innerJoin(teams, eq(teams.id, teamUsers.teamId))
    .where(and(eq(teamUsers.orgId, orgId), eq(teams.authorize, AccessMode.Owner), inIdList(teamUsers.uid, uids)))
    .all();
  for (const r of owners) {
    const flags = out.get(r.uid);
    if (flags) flags.isOwner = true;
  }
  return out;
}

/** Whether the user is in a team of the organization that sees every team: an admin team over all its repositories (Gitea's shouldSeeAllTeams). */
export function inAllReposAdminTeam(tx: Tx, orgId: number, uid: number): boolean {
  return (
    tx
      .select({ id: teamUsers.id })
      .from(teamUsers)
      .innerJoin(teams, eq(teams.id, teamUsers.teamId))
      .where(
        and(
          eq(teamUsers.orgId, orgId),
          eq(teamUsers.uid, uid),
          eq(teams.includesAllRepositories, true),
          sql`${teams.authorize} >= ${AccessMode.Admin}`,
        ),
      )
      .get() !== undefined
  );
}
