import { eq } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { pullMirrors, type NewPullMirrorRow, type PullMirrorRow } from "../db/schema/index.ts";

/** Pull mirrors (Gitea's mirror): one row per mirror repository. */

export function insertPullMirror(tx: Tx, row: NewPullMirrorRow): PullMirrorRow {
  return tx.insert(pullMirrors).values(row).returning().get();
}

export function getPullMirrorByRepo(tx: Tx, repoId: number): PullMirrorRow | undefined {
  return tx.select().from(pullMirrors).where(eq(pullMirrors.repoId, repoId)).get();
}
