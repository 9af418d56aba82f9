import { and, asc, eq, max } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { protectedBranches, type NewProtectedBranchRow, type ProtectedBranchRow } from "../db/schema/index.ts";

/** Every branch protection rule of a repository, oldest first (Gitea's FindRepoProtectedBranchRules before sorting). */
export function listProtectedBranches(tx: Tx, repoId: number): ProtectedBranchRow[] {
  return tx
    .select()
    .from(protectedBranches)
    .where(eq(protectedBranches.repoId, repoId))
    .orderBy(asc(protectedBranches.createdUnix), asc(protectedBranches.id))
    .all();
}

/** A rule of this repository by its exact name (Gitea's GetProtectedBranchRuleByName). */
export function getProtectedBranchByName(tx: Tx, repoId: number, ruleName: string): ProtectedBranchRow | undefined {
  return tx
    .select()
    .from(protectedBranches)
    .where(and(eq(protectedBranches.repoId, repoId), eq(protectedBranches.ruleName, ruleName)))
    .get();
}

/** The highest priority number in use in a repository (0 without rules). */
export function maxProtectedBranchPriority(tx: Tx, repoId: number): number {
  return tx.select({ n: max(protectedBranches.priority) }).from(protectedBranches).where(eq(protectedBranches.repoId, repoId)).get()?.n ?? 0;
}

export function insertProtectedBranch(tx: Tx, row: NewProtectedBranchRow): ProtectedBranchRow {
  return tx.insert(protectedBranches).values(row).returning().get();
}

export function updateProtectedBranch(tx: Tx, repoId: number, id: number, patch: Partial<NewProtectedBranchRow>): ProtectedBranchRow | undefined {
  return tx
    .update(protectedBranches)
    .set(patch)
    .where(and(eq(protectedBranches.repoId, repoId), eq(protectedBranches.id, id)))
    .returning()
    .get();
}

export function deleteProtectedBranch(tx: Tx, repoId: number, id: number): boolean {
  return (
    tx
      .delete(protectedBranches)
      .where(and(eq(protectedBranches.repoId, repoId), eq(protectedBranches.id, id)))
      .returning({ id: protectedBranches.id })
      .all().length > 0
  );
}

/** Sets `priority` of one rule of this repository; a foreign id changes nothing. */
export function setProtectedBranchPriority(tx: Tx, repoId: number, id: number, priority: number): void {
  tx.update(protectedBranches)
    .set({ priority })
    .where(and(eq(protectedBranches.repoId, repoId), eq(protectedBranches.id, id)))
    .run();
}

/** Renames the rule named exactly `from` (a branch rename carries its rule along). */
export function renameProtectionRule(tx: Tx, repoId: number, from: string, to: string): void {
  tx.update(protectedBranches)
    .set({ ruleName: to })
    .where(and(eq(protectedBranches.repoId, repoId), eq(protectedBranches.ruleName, from)))
    .run();
}
