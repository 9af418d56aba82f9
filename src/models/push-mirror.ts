import { and, asc, count, eq } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { pushMirrors, type NewPushMirrorRow, type PushMirrorRow } from "../db/schema/index.ts";

/** Push mirrors (Gitea's push_mirror), always scoped to their repository. */

export function insertPushMirror(tx: Tx, row: NewPushMirrorRow): PushMirrorRow {
  return tx.insert(pushMirrors).values(row).returning().get();
}

export function setPushMirrorCredentials(tx: Tx, id: number, sealed: string): void {
  tx.update(pushMirrors).set({ remoteCredentials: sealed }).where(eq(pushMirrors.id, id)).run();
}

export function getPushMirrorById(tx: Tx, id: number): PushMirrorRow | undefined {
  return tx.select().from(pushMirrors).where(eq(pushMirrors.id, id)).get();
}

export function getPushMirrorByName(tx: Tx, repoId: number, remoteName: string): PushMirrorRow | undefined {
  return tx
    .select()
    .from(pushMirrors)
    .where(and(eq(pushMirrors.repoId, repoId), eq(pushMirrors.remoteName, remoteName)))
    .get();
}

/** A repository's mirrors, oldest first, one page (all of them without `page`), and how many there are. */
export function listPushMirrors(tx: Tx, repoId: number, page?: { offset: number; limit: number }): { rows: PushMirrorRow[]; total: number } {
  const where = eq(pushMirrors.repoId, repoId);
  let q = tx.select().from(pushMirrors).where(where).orderBy(asc(pushMirrors.id)).$dynamic();
  if (page) q = q.limit(page.limit).offset(page.offset);
  const rows = q.all();
  const total = tx.select({ n: count() }).from(pushMirrors).where(where).get()?.n ?? 0;
  return { rows, total };
}

/** Gitea's GetPushMirrorsSyncedOnCommit. */
export function listSyncOnCommitMirrors(tx: Tx, repoId: number): PushMirrorRow[] {
  return tx
    .select()
    .from(pushMirrors)
    .where(and(eq(pushMirrors.repoId, repoId), eq(pushMirrors.syncOnCommit, true)))
    .all();
}

export function deletePushMirror(tx: Tx, id: number): void {
  tx.delete(pushMirrors).where(eq(pushMirrors.id, id)).run();
}

export function recordPushMirrorSync(tx: Tx, id: number, lastUpdateUnix: number, lastError: string): void {
  tx.update(pushMirrors).set({ lastUpdateUnix, lastError }).where(eq(pushMirrors.id, id)).run();
}

