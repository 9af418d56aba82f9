import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { branches, type BranchRow } from "../db/schema/index.ts";

export interface BranchRecord {
  name: string;
  commitId: string;
  commitMessage: string;
  commitUnix: number;
  pusherId: number;
}

export function countBranches(tx: Tx, repoId: number): number {
  return prepared(tx, "branch.count", (t) =>
    t.select({ n: count() }).from(branches).where(eq(branches.repoId, sql.placeholder("repoId"))).prepare(),
  ).get({ repoId })!.n;
}

export function getBranch(tx: Tx, repoId: number, name: string): BranchRow | undefined {
  return tx
    .select()
    .from(branches)
    .where(and(eq(branches.repoId, repoId), eq(branches.name, name)))
    .get();
}

export function listBranches(tx: Tx, repoId: number, offset: number, limit: number): { rows: BranchRow[]; total: number } {
  const rows = tx
    .select()
    .from(branches)
    .where(eq(branches.repoId, repoId))
    .orderBy(asc(branches.name))
    .limit(limit)
    .offset(offset)
    .all();
  return { rows, total: countBranches(tx, repoId) };
}

/** A page of branch rows in the API's order (Gitea's): newest commit first, then by name. */
export function listBranchesNewestFirst(tx: Tx, repoId: number, offset: number, limit: number): { rows: BranchRow[]; total: number } {
  const rows = tx
    .select()
    .from(branches)
    .where(eq(branches.repoId, repoId))
    .orderBy(desc(branches.commitUnix), asc(branches.name))
    .limit(limit)
    .offset(offset)
    .all();
  return { rows, total: countBranches(tx, repoId) };
}

/** Inserts or updates one branch row (the common push case). */
export function upsertBranch(tx: Tx, repoId: number, b: BranchRecord, unix: number): void {
  tx.insert(branches)
    .values({ repoId, ...b, createdUnix: unix, updatedUnix: unix })
    .onConflictDoUpdate({
      target: [branches.repoId, branches.name],
      set: {
        commitId: b.commitId,
        commitMessage: b.commitMessage,
        commitUnix: b.commitUnix,
        pusherId: b.pusherId,
        updatedUnix: unix,
      },
    })
    .run();
}

export function deleteBranches(tx: Tx, repoId: number, names: string[]): void {
  if (names.length === 0) return;
  tx.delete(branches)
    .where(and(eq(branches.repoId, repoId), inArray(branches.name, names)))
    .run();
}

/** Makes the table match `heads` exactly: the full synchronisation after a first push. */
export function replaceBranches(tx: Tx, repoId: number, heads: BranchRecord[], unix: number): void {
  tx.delete(branches).where(eq(branches.repoId, repoId)).run();
  for (const b of heads) upsertBranch(tx, repoId, b, unix);
}

/** Renames one branch row (an API rename); false when `from` has no row. */
export function renameBranch(tx: Tx, repoId: number, from: string, to: string, unix: number): boolean {
  const renamed = tx
    .update(branches)
    .set({ name: to, updatedUnix: unix })
    .where(and(eq(branches.repoId, repoId), eq(branches.name, from)))
    .returning({ id: branches.id })
    .all();
  return renamed.length > 0;
}

/** Some branches of a repository by name, in one query (the heads of a page of pull requests). */
export function branchesNamed(tx: Tx, repoId: number, names: string[]): BranchRow[] {
  if (names.length === 0) return [];
  return tx.select().from(branches).where(and(eq(branches.repoId, repoId), inArray(branches.name, names))).all();
}
