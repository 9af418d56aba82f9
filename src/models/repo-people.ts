import { and, asc, eq, inArray } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { collaborations, orgUsers, teamRepos, teamUsers, users, watches, type UserRow } from "../db/schema/index.ts";

/**
 * The people a repository has a relation with, as candidates for pickers (assignees, reviewers):
 * its collaborators and the members of the teams it belongs to (Gitea's `access` rows), and on
 * request its watchers and its organization's members. The caller decides who qualifies.
 */
export function repoPeopleIds(tx: Tx, repoId: number, opts: { watchers?: boolean; orgId?: number } = {}): Set<number> {
  const ids = new Set<number>();
  for (const r of tx.select({ id: collaborations.userId }).from(collaborations).where(eq(collaborations.repoId, repoId)).all()) ids.add(r.id);
  const teamMembers = tx
    .select({ id: teamUsers.uid })
    .from(teamUsers)
    .innerJoin(teamRepos, eq(teamRepos.teamId, teamUsers.teamId))
    .where(eq(teamRepos.repoId, repoId))
    .all();
  for (const r of teamMembers) ids.add(r.id);
  if (opts.watchers) for (const r of tx.select({ id: watches.uid }).from(watches).where(eq(watches.repoId, repoId)).all()) ids.add(r.id);
  if (opts.orgId) for (const r of tx.select({ id: orgUsers.uid }).from(orgUsers).where(eq(orgUsers.orgId, opts.orgId)).all()) ids.add(r.id);
  return ids;
}

/** Active accounts among `ids`, ordered by name (Gitea's GetOrderByName). */
export function activeUsersByName(tx: Tx, ids: number[]): UserRow[] {
  if (!ids.length) return [];
  return tx
    .select()
    .from(users)
    .where(and(inArray(users.id, ids), eq(users.isActive, true)))
    .orderBy(asc(users.lowerName))
    .all();
}
