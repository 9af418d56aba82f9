import { and, asc, count, desc, eq, inArray } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { actionRunJobs, actionTaskOutputs, actionTaskSteps, actionTasks, type ActionTaskRow, type ActionTaskStepRow } from "../db/schema/index.ts";

export function insertTask(tx: Tx, row: typeof actionTasks.$inferInsert): ActionTaskRow {
  return tx.insert(actionTasks).values(row).returning().get();
}

export function taskById(tx: Tx, id: number): ActionTaskRow | undefined {
  return tx.select().from(actionTasks).where(eq(actionTasks.id, id)).get();
}

export function tasksByIds(tx: Tx, ids: number[]): Map<number, ActionTaskRow> {
  if (ids.length === 0) return new Map();
  return new Map(tx.select().from(actionTasks).where(inArray(actionTasks.id, [...new Set(ids)])).all().map((t) => [t.id, t]));
}

/** The task whose token hashes to this (only running tasks keep one). */
export function taskByTokenHash(tx: Tx, hash: string): ActionTaskRow | undefined {
  if (!hash) return undefined;
  return tx.select().from(actionTasks).where(eq(actionTasks.tokenHash, hash)).get();
}

export function updateTask(tx: Tx, id: number, patch: Partial<ActionTaskRow>): void {
  tx.update(actionTasks).set(patch).where(eq(actionTasks.id, id)).run();
}

export function tasksOfJob(tx: Tx, jobId: number): ActionTaskRow[] {
  return tx.select().from(actionTasks).where(eq(actionTasks.jobId, jobId)).orderBy(asc(actionTasks.id)).all();
}

/** A repository's tasks newest first, one page, and how many there are. */
export function listTasks(tx: Tx, repoId: number, page: { offset: number; limit: number }): { rows: ActionTaskRow[]; total: number } {
  const where = eq(actionTasks.repoId, repoId);
  const rows = tx.select().from(actionTasks).where(where).orderBy(desc(actionTasks.id)).limit(page.limit).offset(page.offset).all();
  const total = tx.select({ n: count() }).from(actionTasks).where(where).get()?.n ?? 0;
  return { rows, total };
}

/** Which of these runners hold a running task (Gitea's runner "busy"), in one query for a page of them. */
export function runnersWithRunningTask(tx: Tx, runnerIds: number[], running: number): Set<number> {
  if (runnerIds.length === 0) return new Set();
  return new Set(
    tx
      .selectDistinct({ id: actionTasks.runnerId })
      .from(actionTasks)
      .where(and(inArray(actionTasks.runnerId, [...new Set(runnerIds)]), eq(actionTasks.status, running)))
      .all()
      .map((r) => r.id),
  );
}

export function stepsOfTask(tx: Tx, taskId: number): ActionTaskStepRow[] {
  return tx.select().from(actionTaskSteps).where(eq(actionTaskSteps.taskId, taskId)).orderBy(asc(actionTaskSteps.index)).all();
}

export function stepsOfTasks(tx: Tx, taskIds: number[]): Map<number, ActionTaskStepRow[]> {
  const out = new Map<number, ActionTaskStepRow[]>();
  if (taskIds.length === 0) return out;
  for (const s of tx.select().from(actionTaskSteps).where(inArray(actionTaskSteps.taskId, taskIds)).orderBy(asc(actionTaskSteps.index)).all()) {
    out.set(s.taskId, [...(out.get(s.taskId) ?? []), s]);
  }
  return out;
}

export function insertSteps(tx: Tx, rows: (typeof actionTaskSteps.$inferInsert)[]): void {
  if (rows.length) tx.insert(actionTaskSteps).values(rows).run();
}

export function updateStep(tx: Tx, id: number, patch: Partial<ActionTaskStepRow>): void {
  tx.update(actionTaskSteps).set(patch).where(eq(actionTaskSteps.id, id)).run();
}

/** Gitea's InsertTaskOutputIfNotExist: an output once sent is never changed. */
export function insertOutputIfAbsent(tx: Tx, taskId: number, key: string, value: string): void {
  tx.insert(actionTaskOutputs).values({ taskId, key, value }).onConflictDoNothing().run();
}

export function outputsOfTask(tx: Tx, taskId: number): Map<string, string> {
  return new Map(
    tx
      .select({ k: actionTaskOutputs.key, v: actionTaskOutputs.value })
      .from(actionTaskOutputs)
      .where(eq(actionTaskOutputs.taskId, taskId))
      .orderBy(asc(actionTaskOutputs.key))
      .all()
      .map((r) => [r.k, r.v]),
  );
}

/** Whether the runner was ever handed a task (an ephemeral runner takes one). */
export function runnerHadTask(tx: Tx, runnerId: number): boolean {
  return tx.select({ id: actionTasks.id }).from(actionTasks).where(eq(actionTasks.runnerId, runnerId)).limit(1).get() !== undefined;
}

/** The log files of a run's tasks (or every task's of a repository), before their rows go. */
export function logFilesOf(tx: Tx, where: { runId: number } | { repoId: number }): string[] {
  const rows =
    "repoId" in where
      ? tx.select({ name: actionTasks.logFilename }).from(actionTasks).where(eq(actionTasks.repoId, where.repoId)).all()
      : tx
          .select({ name: actionTasks.logFilename })
          .from(actionTasks)
          .innerJoin(actionRunJobs, eq(actionRunJobs.id, actionTasks.jobId))
          .where(eq(actionRunJobs.runId, where.runId))
          .all();
  return rows.map((r) => r.name).filter(Boolean);
}
