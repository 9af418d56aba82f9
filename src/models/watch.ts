import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { listLinkedRepos, listLinkedUsers } from "./user-repo-link.ts";
import { repositories, watches, type UserRow } from "../db/schema/index.ts";
import type { RepoView } from "./repo-visibility.ts";

export function isWatching(tx: Tx, uid: number, repoId: number): boolean {
  return (
    tx
      .select({ uid: watches.uid })
      .from(watches)
      .where(and(eq(watches.uid, uid), eq(watches.repoId, repoId)))
      .get() !== undefined
  );
}

/** Watches a repository; `num_watches` moves with the row. False when it was already watched. */
export function addWatch(tx: Tx, uid: number, repoId: number, unix: number): boolean {
  const inserted = tx.insert(watches).values({ uid, repoId, createdUnix: unix }).onConflictDoNothing().returning().all();
  if (inserted.length === 0) return false;
  tx.update(repositories)
    .set({ numWatches: sql`${repositories.numWatches} + 1` })
    .where(eq(repositories.id, repoId))
    .run();
  return true;
}

export function removeWatch(tx: Tx, uid: number, repoId: number): boolean {
  const removed = tx
    .delete(watches)
    .where(and(eq(watches.uid, uid), eq(watches.repoId, repoId)))
    .returning()
    .all();
  if (removed.length === 0) return false;
  tx.update(repositories)
    .set({ numWatches: sql`max(${repositories.numWatches} - 1, 0)` })
    .where(eq(repositories.id, repoId))
    .run();
  return true;
}

export function listWatchers(tx: Tx, repoId: number, offset: number, limit: number): UserRow[] {
  return listLinkedUsers(tx, watches, repoId, offset, limit);
}

export function listWatchedRepos(tx: Tx, uid: number, view: RepoView, offset: number, limit: number) {
  return listLinkedRepos(tx, watches, uid, view, offset, limit);
}

/** For a deleted account: the repositories it watched lose its watch (the rows would cascade, the counters not). */
export function clearUserWatches(tx: Tx, uid: number): void {
  tx.update(repositories)
    .set({ numWatches: sql`max(${repositories.numWatches} - 1, 0)` })
    .where(sql`${repositories.id} IN (SELECT ${watches.repoId} FROM ${watches} WHERE ${watches.uid} = ${uid})`)
    .run();
  tx.delete(watches).where(eq(watches.uid, uid)).run();
}

/** A user leaving an organization stops watching its repositories (Gitea does the same). */
export function clearUserWatchesIn(tx: Tx, uid: number, ownerId: number): void {
  const inOwner = sql`${watches.repoId} IN (SELECT ${repositories.id} FROM ${repositories} WHERE ${repositories.ownerId} = ${ownerId})`;
  tx.update(repositories)
    .set({ numWatches: sql`max(${repositories.numWatches} - 1, 0)` })
    .where(
      sql`${repositories.ownerId} = ${ownerId} AND ${repositories.id} IN (SELECT ${watches.repoId} FROM ${watches} WHERE ${watches.uid} = ${uid})`,
    )
    .run();
  tx.delete(watches).where(and(eq(watches.uid, uid), inOwner)).run();
}
