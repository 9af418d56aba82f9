import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { actionRunners, actionRunnerTokens, type ActionRunnerRow, type ActionRunnerTokenRow } from "../db/schema/index.ts";

/**
 * Where a runner or registration token belongs, as Gitea's owner_id/repo_id pair: the instance
 * (both 0), a user or organization (owner only), a repository (repo only).
 */
export type RunnerLevel = { site: true } | { ownerId: number } | { repoId: number };

export function runnerLevelColumns(level: RunnerLevel): { ownerId: number; repoId: number } {
  if ("repoId" in level) return { ownerId: 0, repoId: level.repoId };
  if ("ownerId" in level) return { ownerId: level.ownerId, repoId: 0 };
  return { ownerId: 0, repoId: 0 };
}

export function latestRunnerToken(tx: Tx, level: RunnerLevel): ActionRunnerTokenRow | undefined {
  const { ownerId, repoId } = runnerLevelColumns(level);
  return tx
    .select()
    .from(actionRunnerTokens)
    .where(and(eq(actionRunnerTokens.ownerId, ownerId), eq(actionRunnerTokens.repoId, repoId)))
    .orderBy(desc(actionRunnerTokens.id))
    .limit(1)
    .get();
}

/** A new registration token for the level; the level's older ones stop working (Gitea's NewRunnerToken). */
export function insertRunnerToken(tx: Tx, level: RunnerLevel, token: string, now: number): ActionRunnerTokenRow {
  const cols = runnerLevelColumns(level);
  tx.update(actionRunnerTokens)
    .set({ isActive: false })
    .where(and(eq(actionRunnerTokens.ownerId, cols.ownerId), eq(actionRunnerTokens.repoId, cols.repoId)))
    .run();
  return tx.insert(actionRunnerTokens).values({ ...cols, token, isActive: true, createdUnix: now }).returning().get();
}

export function findRunnerToken(tx: Tx, token: string): ActionRunnerTokenRow | undefined {
  return tx.select().from(actionRunnerTokens).where(eq(actionRunnerTokens.token, token)).get();
}

/** Uses up a registration token: true only for the one caller that found it active. */
export function spendRunnerToken(tx: Tx, id: number): boolean {
  return (
    tx
      .update(actionRunnerTokens)
      .set({ isActive: false })
      .where(and(eq(actionRunnerTokens.id, id), eq(actionRunnerTokens.isActive, true)))
      .returning({ id: actionRunnerTokens.id })
      .all().length === 1
  );
}

export function insertRunner(tx: Tx, row: typeof actionRunners.$inferInsert): ActionRunnerRow {
  return tx.insert(actionRunners).values(row).returning().get();
}

export function runnerByUuid(tx: Tx, uuid: string): ActionRunnerRow | undefined {
  return tx.select().from(actionRunners).where(eq(actionRunners.uuid, uuid)).get();
}

export function runnerById(tx: Tx, id: number): ActionRunnerRow | undefined {
  return tx.select().from(actionRunners).where(eq(actionRunners.id, id)).get();
}

export function runnersByIds(tx: Tx, ids: number[]): Map<number, ActionRunnerRow> {
  if (ids.length === 0) return new Map();
  const rows = tx
    .select()
    .from(actionRunners)
    .where(sql`${actionRunners.id} IN (SELECT value FROM json_each(${JSON.stringify([...new Set(ids)])}))`)
    .all();
  return new Map(rows.map((r) => [r.id, r]));
}

export function updateRunner(tx: Tx, id: number, patch: Partial<ActionRunnerRow>): void {
  tx.update(actionRunners).set(patch).where(eq(actionRunners.id, id)).run();
}

export function deleteRunner(tx: Tx, id: number): void {
  tx.delete(actionRunners).where(eq(actionRunners.id, id)).run();
}

/**
 * The runners a level sees, Gitea's FindRunnerOptions: the instance lists every runner; a user or
 * organization its own; a repository its own (the levels above it are listed by their own pages).
 */
export function listRunners(tx: Tx, level: RunnerLevel, page: { offset: number; limit: number }): { rows: ActionRunnerRow[]; total: number } {
  const where =
    "repoId" in level
      ? eq(actionRunners.repoId, level.repoId)
      : "ownerId" in level
        ? and(eq(actionRunners.ownerId, level.ownerId), eq(actionRunners.repoId, 0))
        : undefined;
  const rows = tx.select().from(actionRunners).where(where).orderBy(desc(actionRunners.id)).limit(page.limit).offset(page.offset).all();
  const total = tx.select({ n: count() }).from(actionRunners).where(where).get()?.n ?? 0;
  return { rows, total };
}

/** Runners of a repository or an owner, when that is deleted. */
export function deleteRunnersOf(tx: Tx, level: { repoId: number } | { ownerId: number }): void {
  const cond =
    "repoId" in level
      ? eq(actionRunners.repoId, level.repoId)
      : and(eq(actionRunners.ownerId, level.ownerId), eq(actionRunners.repoId, 0));
  tx.delete(actionRunners).where(cond).run();
  const tokCond =
    "repoId" in level
      ? eq(actionRunnerTokens.repoId, level.repoId)
      : and(eq(actionRunnerTokens.ownerId, level.ownerId), eq(actionRunnerTokens.repoId, 0));
  tx.delete(actionRunnerTokens).where(tokCond).run();
}
