import { and, asc, eq, inArray, lt, or } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { ActionStatus, actionRunJobs, actionTasks, type ActionRunJobRow, type ActionTaskRow } from "../db/schema/index.ts";

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
