import { and, asc, count, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { actionRunJobs, actionRuns, type ActionRunJobRow, type ActionRunRow } from "../db/schema/index.ts";

/**
 * The Actions API's lists (Gitea's FindRunOptions and FindRunJobOptions as its API uses them):
 * the instance's, an owner's or a repository's runs and jobs with the API's filters. A run's
 * `event` filter is GitHub's name of the event (`trigger_event`), as Gitea's TriggerEvent.
 */
export interface ApiRunFilter {
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

function runWhere(f: ApiRunFilter): SQL | undefined {
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
export function findRuns(tx: Tx, f: ApiRunFilter, page: { offset: number; limit: number }): { rows: ActionRunRow[]; total: number } {
  const where = runWhere(f);
  const rows = tx.select().from(actionRuns).where(where).orderBy(desc(actionRuns.id)).limit(page.limit).offset(page.offset).all();
  const total = tx.select({ n: count() }).from(actionRuns).where(where).get()?.n ?? 0;
  return { rows, total };
}

export interface ApiJobFilter {
  repoId?: number;
  ownerId?: number;
  runId?: number;
  statuses?: number[];
}

/** Jobs in the order they were created (Gitea's FindRunJobOptions has no order of its own), one page, and how many match. */
export function findJobs(tx: Tx, f: ApiJobFilter, page: { offset: number; limit: number }): { rows: ActionRunJobRow[]; total: number } {
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
