import { eq, inArray } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { repoTransfers } from "../db/schema/index.ts";

export type RepoTransferRow = typeof repoTransfers.$inferSelect;

/** The pending transfer of a repository, if any (a repository has at most one). */
export function getPendingTransfer(tx: Tx, repoId: number): RepoTransferRow | undefined {
  return tx.select().from(repoTransfers).where(eq(repoTransfers.repoId, repoId)).get();
}

export function pendingTransfersOf(tx: Tx, repoIds: number[]): RepoTransferRow[] {
  if (repoIds.length === 0) return [];
  return tx.select().from(repoTransfers).where(inArray(repoTransfers.repoId, repoIds)).all();
}

export function insertTransfer(
  tx: Tx,
  row: { repoId: number; doerId: number; recipientId: number; teamIds: number[]; createdUnix: number },
): RepoTransferRow {
  return tx
    .insert(repoTransfers)
    .values({ ...row, teamIds: row.teamIds.join(",") })
    .returning()
    .get();
}

export function deleteTransfer(tx: Tx, repoId: number): boolean {
  return tx.delete(repoTransfers).where(eq(repoTransfers.repoId, repoId)).returning().all().length > 0;
}
