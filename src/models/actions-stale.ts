import { and, asc, eq, inArray, lt, or, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { ActionStatus, actionRunJobs, actionScheduleSpecs, actionTasks, type ActionRunJobRow, type ActionTaskRow } from "../db/schema/index.ts";

/**
 * What Gitea's clear_tasks.go looks for: running tasks a runner stopped reporting on (zombies) or
 * that run too long (endless), and jobs no runner took for too long (abandoned).
 */

/**
 * Running tasks last heard from before `updatedBefore`, or started before `startedBefore`. Found
 * through the running jobs (the job status index), whose latest task is the running one.
 */
export function staleRunningTasks(tx: Tx, cutoffs: { updatedBefore?: number; startedBefore?: number }, limit: number): ActionTaskRow[] {
  const late = [
    cutoffs.updatedBefore !== undefined ? lt(actionTasks.updatedUnix, cutoffs.updatedBefore) : undefined,
    cutoffs.startedBefore !== undefined ? lt(actionTasks.startedUnix, cutoffs.startedBefore) : undefined,
  ].filter((c) => c !== undefined);
  if (late.length === 0) return [];
  return tx
    .select({ task: actionTasks })
    .from(actionRunJobs)
    .innerJoin(actionTasks, eq(actionTasks.id, actionRunJobs.taskId))
    .where(and(eq(actionRunJobs.status, ActionStatus.Running), eq(actionTasks.status, ActionStatus.Running), or(...late)))
    .orderBy(asc(actionTasks.id))
    .limit(limit)
    .all()
    .map((r) => r.task);
}

/** Jobs waiting for a runner or blocked, unchanged since before `updatedBefore`, oldest first. */
export function abandonedJobs(tx: Tx, updatedBefore: number, limit: number): ActionRunJobRow[] {
  return tx
    .select()
    .from(actionRunJobs)
    .where(and(inArray(actionRunJobs.status, [ActionStatus.Waiting, ActionStatus.Blocked]), lt(actionRunJobs.updatedUnix, updatedBefore)))
    .orderBy(asc(actionRunJobs.id))
    .limit(limit)
    .all();
}

/**
 * Whether a cron tick has anything to do: a schedule spec due, a stale running task, an
 * abandoned job. One indexed look each, so an idle server's tick costs a read, not the tick.
 */
export function actionsWorkDue(tx: Tx, c: { now: number; updatedBefore: number; startedBefore: number; abandonedBefore: number }): boolean {
  const row = tx.get<{ due: number }>(sql`SELECT (
    EXISTS (SELECT 1 FROM ${actionScheduleSpecs} WHERE ${actionScheduleSpecs.nextUnix} <= ${c.now})
    OR EXISTS (SELECT 1 FROM ${actionRunJobs} INNER JOIN ${actionTasks} ON ${actionTasks.id} = ${actionRunJobs.taskId}
               WHERE ${actionRunJobs.status} = ${ActionStatus.Running} AND ${actionTasks.status} = ${ActionStatus.Running}
                 AND (${actionTasks.updatedUnix} < ${c.updatedBefore} OR ${actionTasks.startedUnix} < ${c.startedBefore}))
    OR EXISTS (SELECT 1 FROM ${actionRunJobs} WHERE ${actionRunJobs.status} IN (${ActionStatus.Waiting}, ${ActionStatus.Blocked})
               AND ${actionRunJobs.updatedUnix} < ${c.abandonedBefore})
  ) AS due`);
  return Boolean(row?.due);
}
