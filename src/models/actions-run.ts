import { and, asc, count, desc, eq, inArray, max, sql, type SQL } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import {
  ActionStatus,
  actionDisabledWorkflows,
  actionRunJobs,
  actionRuns,
  type ActionRunJobRow,
  type ActionRunRow,
  type NewActionRunJobRow,
  type NewActionRunRow,
} from "../db/schema/index.ts";

/** The next run number of a repository (Gitea's resource index for action runs). */
export function nextRunIndex(tx: Tx, repoId: number): number {
  return (tx.select({ n: max(actionRuns.index) }).from(actionRuns).where(eq(actionRuns.repoId, repoId)).get()?.n ?? 0) + 1;
}

export function insertRun(tx: Tx, row: NewActionRunRow): ActionRunRow {
  return tx.insert(actionRuns).values(row).returning().get();
}

export function insertJob(tx: Tx, row: NewActionRunJobRow): ActionRunJobRow {
  return tx.insert(actionRunJobs).values(row).returning().get();
}

export function runById(tx: Tx, id: number): ActionRunRow | undefined {
  return tx.select().from(actionRuns).where(eq(actionRuns.id, id)).get();
}

export function runsByIds(tx: Tx, ids: number[]): Map<number, ActionRunRow> {
  if (ids.length === 0) return new Map();
  return new Map(tx.select().from(actionRuns).where(inArray(actionRuns.id, [...new Set(ids)])).all().map((r) => [r.id, r]));
}

export function runOfRepo(tx: Tx, repoId: number, id: number): ActionRunRow | undefined {
  return tx.select().from(actionRuns).where(and(eq(actionRuns.repoId, repoId), eq(actionRuns.id, id))).get();
}

export function runByIndex(tx: Tx, repoId: number, index: number): ActionRunRow | undefined {
  return tx.select().from(actionRuns).where(and(eq(actionRuns.repoId, repoId), eq(actionRuns.index, index))).get();
}

export function updateRun(tx: Tx, id: number, patch: Partial<ActionRunRow>): void {
  tx.update(actionRuns)
    .set({ ...patch, version: sql`${actionRuns.version} + 1` })
    .where(eq(actionRuns.id, id))
    .run();
}

export function deleteRun(tx: Tx, id: number): void {
  tx.delete(actionRuns).where(eq(actionRuns.id, id)).run();
}

export function jobsOfRun(tx: Tx, runId: number): ActionRunJobRow[] {
  return tx.select().from(actionRunJobs).where(eq(actionRunJobs.runId, runId)).orderBy(asc(actionRunJobs.id)).all();
}

export function jobsOfRuns(tx: Tx, runIds: number[]): ActionRunJobRow[] {
  if (runIds.length === 0) return [];
  return tx.select().from(actionRunJobs).where(inArray(actionRunJobs.runId, runIds)).orderBy(asc(actionRunJobs.id)).all();
}

export function jobById(tx: Tx, id: number): ActionRunJobRow | undefined {
  return tx.select().from(actionRunJobs).where(eq(actionRunJobs.id, id)).get();
}

export function updateJob(tx: Tx, id: number, patch: Partial<ActionRunJobRow>): void {
  tx.update(actionRunJobs).set(patch).where(eq(actionRunJobs.id, id)).run();
}

/** Moves a job from one status to another only if it still has the first: false when someone else moved it. */
export function moveJob(tx: Tx, id: number, from: number, patch: Partial<ActionRunJobRow>): boolean {
  return (
    tx
      .update(actionRunJobs).set(patch).where(and(eq(actionRunJobs.id, id), eq(actionRunJobs.status, from)))
      .returning({ id: actionRunJobs.id })
      .all().length === 1
  );
}

/**
 * Jobs waiting for a runner, oldest first, among those a runner may take (Gitea's runner scope and
 * CanMatchLabels): of one repository, of one owner's repositories, or any (the instance's
 * runners); and only those whose every `runs-on` label is one of `labels`, so jobs for labels no
 * runner has never crowd out the ones it can run.
 */
export function waitingJobs(tx: Tx, scope: { repoId: number; ownerId: number }, labels: readonly string[], limit: number): ActionRunJobRow[] {
  const conds: SQL[] = [
    eq(actionRunJobs.status, ActionStatus.Waiting),
    sql`NOT EXISTS (SELECT 1 FROM json_each(${actionRunJobs.runsOnJson}) WHERE value NOT IN (SELECT value FROM json_each(${JSON.stringify(labels)})))`,
  ];
  if (scope.repoId) conds.push(eq(actionRunJobs.repoId, scope.repoId));
  else if (scope.ownerId) conds.push(eq(actionRunJobs.ownerId, scope.ownerId));
  return tx
    .select()
    .from(actionRunJobs)
    .where(and(...conds))
    .orderBy(asc(actionRunJobs.id))
    .limit(limit)
    .all();
}

/**
 * The lists of runs and jobs (Gitea's FindRunOptions and FindRunJobOptions as its API uses them):
 * the instance's, an owner's or a repository's runs and jobs with the API's filters. A run's
 * `event` filter is GitHub's name of the event (`trigger_event`), as Gitea's TriggerEvent.
 */
export interface RunFilter {
  repoId?: number;
  ownerId?: number;
  workflowId?: string;
  triggerEvent?: string;
  /** A full ref (`refs/heads/main`). */
  ref?: string;
  statuses?: number[];
  triggerUserId?: number;
  commitSha?: string;
}

function runWhere(f: RunFilter): SQL | undefined {
  const conds: SQL[] = [];
  if (f.repoId !== undefined) conds.push(eq(actionRuns.repoId, f.repoId));
  if (f.ownerId !== undefined) conds.push(eq(actionRuns.ownerId, f.ownerId));
  if (f.workflowId !== undefined) conds.push(eq(actionRuns.workflowId, f.workflowId));
  if (f.triggerEvent !== undefined) conds.push(eq(actionRuns.triggerEvent, f.triggerEvent));
  if (f.ref !== undefined) conds.push(eq(actionRuns.ref, f.ref));
  if (f.statuses !== undefined) conds.push(f.statuses.length ? inArray(actionRuns.status, f.statuses) : sql`0`);
  if (f.triggerUserId !== undefined) conds.push(eq(actionRuns.triggerUserId, f.triggerUserId));
  if (f.commitSha !== undefined) conds.push(eq(actionRuns.commitSha, f.commitSha));
  return conds.length ? and(...conds) : undefined;
}

/** Runs newest first (Gitea orders runs by id descending), one page, and how many match. */
export function listRuns(tx: Tx, f: RunFilter, page: { offset: number; limit: number }): { rows: ActionRunRow[]; total: number } {
  const where = runWhere(f);
  const rows = tx.select().from(actionRuns).where(where).orderBy(desc(actionRuns.id)).limit(page.limit).offset(page.offset).all();
  const total = tx.select({ n: count() }).from(actionRuns).where(where).get()?.n ?? 0;
  return { rows, total };
}

export interface JobFilter {
  repoId?: number;
  ownerId?: number;
  runId?: number;
  statuses?: number[];
}

/** Jobs in the order they were created (Gitea's FindRunJobOptions has no order of its own), one page, and how many match. */
export function listJobs(tx: Tx, f: JobFilter, page: { offset: number; limit: number }): { rows: ActionRunJobRow[]; total: number } {
  const conds: SQL[] = [];
  if (f.repoId !== undefined) conds.push(eq(actionRunJobs.repoId, f.repoId));
  if (f.ownerId !== undefined) conds.push(eq(actionRunJobs.ownerId, f.ownerId));
  if (f.runId !== undefined) conds.push(eq(actionRunJobs.runId, f.runId));
  if (f.statuses !== undefined) conds.push(f.statuses.length ? inArray(actionRunJobs.status, f.statuses) : sql`0`);
  const where = conds.length ? and(...conds) : undefined;
  const rows = tx.select().from(actionRunJobs).where(where).orderBy(asc(actionRunJobs.id)).limit(page.limit).offset(page.offset).all();
  const total = tx.select({ n: count() }).from(actionRunJobs).where(where).get()?.n ?? 0;
  return { rows, total };
}

/** The job ids of each run, in order: a job's place among them is its index in the run's pages. */
export function jobIdsOfRuns(tx: Tx, runIds: number[]): Map<number, number[]> {
  const out = new Map<number, number[]>();
  if (runIds.length === 0) return out;
  const rows = tx
    .select({ id: actionRunJobs.id, runId: actionRunJobs.runId })
    .from(actionRunJobs)
    .where(inArray(actionRunJobs.runId, [...new Set(runIds)]))
    .orderBy(asc(actionRunJobs.id))
    .all();
  for (const r of rows) out.set(r.runId, [...(out.get(r.runId) ?? []), r.id]);
  return out;
}

export function jobsByIds(tx: Tx, ids: number[]): Map<number, ActionRunJobRow> {
  if (ids.length === 0) return new Map();
  return new Map(tx.select().from(actionRunJobs).where(inArray(actionRunJobs.id, [...new Set(ids)])).all().map((j) => [j.id, j]));
}

/** Runs of a repository in a concurrency group that have not finished, oldest first. */
export function unfinishedRunsInGroup(tx: Tx, repoId: number, group: string): ActionRunRow[] {
  return tx
    .select()
    .from(actionRuns)
    .where(
      and(
        eq(actionRuns.repoId, repoId),
        eq(actionRuns.concurrencyGroup, group),
        inArray(actionRuns.status, [ActionStatus.Waiting, ActionStatus.Running, ActionStatus.Blocked]),
      ),
    )
    .orderBy(asc(actionRuns.id))
    .all();
}

/** The latest run of each workflow file of a repository, for the badge and the workflow list. */
export function workflowIdsWithRuns(tx: Tx, repoId: number): string[] {
  return tx
    .selectDistinct({ w: actionRuns.workflowId })
    .from(actionRuns)
    .where(eq(actionRuns.repoId, repoId))
    .all()
    .map((r) => r.w);
}

export function disabledWorkflows(tx: Tx, repoId: number): Set<string> {
  return new Set(
    tx
      .select({ w: actionDisabledWorkflows.workflowId })
      .from(actionDisabledWorkflows)
      .where(eq(actionDisabledWorkflows.repoId, repoId))
      .all()
      .map((r) => r.w),
  );
}

export function setWorkflowDisabled(tx: Tx, repoId: number, workflowId: string, disabled: boolean): void {
  if (disabled) tx.insert(actionDisabledWorkflows).values({ repoId, workflowId }).onConflictDoNothing().run();
  else
    tx.delete(actionDisabledWorkflows)
      .where(and(eq(actionDisabledWorkflows.repoId, repoId), eq(actionDisabledWorkflows.workflowId, workflowId)))
      .run();
}

/** Everything Actions keeps of a repository, when the repository is deleted. */
export function deleteRepoRuns(tx: Tx, repoId: number): void {
  tx.delete(actionRuns).where(eq(actionRuns.repoId, repoId)).run();
  tx.delete(actionDisabledWorkflows).where(eq(actionDisabledWorkflows.repoId, repoId)).run();
}

/** Jobs of a repository in a job-level concurrency group with one of the statuses, oldest first. */
export function jobsInGroup(tx: Tx, repoId: number, group: string, statuses: readonly number[]): ActionRunJobRow[] {
  if (!group || statuses.length === 0) return [];
  return tx
    .select()
    .from(actionRunJobs)
    .where(and(eq(actionRunJobs.repoId, repoId), eq(actionRunJobs.concurrencyGroup, group), inArray(actionRunJobs.status, [...statuses])))
    .orderBy(asc(actionRunJobs.id))
    .all();
}
