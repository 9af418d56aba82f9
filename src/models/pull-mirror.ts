import { eq, inArray } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { pullMirrors, type NewPullMirrorRow, type PullMirrorRow } from "../db/schema/index.ts";

/** Pull mirrors (Gitea's mirror): one row per mirror repository. */

export function insertPullMirror(tx: Tx, row: NewPullMirrorRow): PullMirrorRow {
  return tx.insert(pullMirrors).values(row).returning().get();
}

export function getPullMirrorByRepo(tx: Tx, repoId: number): PullMirrorRow | undefined {
  return tx.select().from(pullMirrors).where(eq(pullMirrors.repoId, repoId)).get();
}

/** The mirror rows of a page of repositories, in one query (repository lists show every mirror's interval). */
export function listPullMirrorsByRepos(tx: Tx, repoIds: number[]): PullMirrorRow[] {
  if (repoIds.length === 0) return [];
  return tx.select().from(pullMirrors).where(inArray(pullMirrors.repoId, repoIds)).all();
}

export type PullMirrorPatch = Partial<Pick<PullMirrorRow, "intervalNs" | "enablePrune" | "updatedUnix" | "nextUpdateUnix" | "lastError">>;

export function updatePullMirror(tx: Tx, repoId: number, patch: PullMirrorPatch): void {
  if (Object.keys(patch).length === 0) return;
  tx.update(pullMirrors).set(patch).where(eq(pullMirrors.repoId, repoId)).run();
}

export function deletePullMirror(tx: Tx, repoId: number): void {
  tx.delete(pullMirrors).where(eq(pullMirrors.repoId, repoId)).run();
}
