import { and, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { listLinkedRepos, listLinkedUsers } from "./user-repo-link.ts";
import type { RepoView } from "./repo-visibility.ts";
import { repositories, stars, users, type UserRow } from "../db/schema/index.ts";

export type { RepoView } from "./repo-visibility.ts";

export function isStarring(tx: Tx, uid: number, repoId: number): boolean {
  return (
    tx
      .select({ uid: stars.uid })
      .from(stars)
      .where(and(eq(stars.uid, uid), eq(stars.repoId, repoId)))
      .get() !== undefined
  );
}

/** Stars a repository; both counters move with the row. False when it was already starred. */
export function addStar(tx: Tx, uid: number, repoId: number, unix: number): boolean {
  const inserted = tx.insert(stars).values({ uid, repoId, createdUnix: unix }).onConflictDoNothing().returning().all();
  if (inserted.length === 0) return false;
  tx.update(repositories)
    .set({ numStars: sql`${repositories.numStars} + 1` })
    .where(eq(repositories.id, repoId))
    .run();
  tx.update(users)
    .set({ numStars: sql`${users.numStars} + 1` })
    .where(eq(users.id, uid))
    .run();
  return true;
}

/** Unstars a repository; false when it was not starred. */
export function removeStar(tx: Tx, uid: number, repoId: number): boolean {
  const removed = tx
    .delete(stars)
    .where(and(eq(stars.uid, uid), eq(stars.repoId, repoId)))
    .returning()
    .all();
  if (removed.length === 0) return false;
  tx.update(repositories)
    .set({ numStars: sql`max(${repositories.numStars} - 1, 0)` })
    .where(eq(repositories.id, repoId))
    .run();
  tx.update(users)
    .set({ numStars: sql`max(${users.numStars} - 1, 0)` })
    .where(eq(users.id, uid))
    .run();
  return true;
}

/**
 * Gitea's ClearRepoStars: every star of a repository goes, and each starrer's count drops. Used
 * when a repository becomes private, and before a repository is deleted (the rows would cascade
 * away, but the users' counters would not).
 */
export function clearRepoStars(tx: Tx, repoId: number): void {
  tx.update(users)
    .set({ numStars: sql`max(${users.numStars} - 1, 0)` })
    .where(inArray(users.id, sql`(SELECT ${stars.uid} FROM ${stars} WHERE ${stars.repoId} = ${repoId})`))
    .run();
  tx.update(repositories).set({ numStars: 0 }).where(eq(repositories.id, repoId)).run();
  tx.delete(stars).where(eq(stars.repoId, repoId)).run();
}

/** The counterpart for a deleted account: the repositories it starred lose its star. */
export function clearUserStars(tx: Tx, uid: number): void {
  tx.update(repositories)
    .set({ numStars: sql`max(${repositories.numStars} - 1, 0)` })
    .where(inArray(repositories.id, sql`(SELECT ${stars.repoId} FROM ${stars} WHERE ${stars.uid} = ${uid})`))
    .run();
  tx.update(users).set({ numStars: 0 }).where(eq(users.id, uid)).run();
  tx.delete(stars).where(eq(stars.uid, uid)).run();
}

export function listStargazers(tx: Tx, repoId: number, offset: number, limit: number): UserRow[] {
  return listLinkedUsers(tx, stars, repoId, offset, limit);
}

export function listStarredRepos(tx: Tx, uid: number, view: RepoView, offset: number, limit: number) {
  return listLinkedRepos(tx, stars, uid, view, offset, limit);
}
