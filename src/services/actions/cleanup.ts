import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { ActionStatus, type ActionRunJobRow, type ActionTaskRow } from "../../db/schema/index.ts";
import * as runs from "../../models/actions-run.ts";
import * as tasks from "../../models/actions-task.ts";
import { abandonedJobs, staleRunningTasks } from "../../models/actions-stale.ts";
import { settleRun } from "./settle.ts";
import { isDone } from "./status.ts";
import { actionLogs } from "./tasks.ts";

/**
 * Gitea's clear_tasks.go: tasks whose runner went silent (`[actions] ZOMBIE_TASK_TIMEOUT`) or that
 * run too long (`ENDLESS_TASK_TIMEOUT`) fail, and jobs no runner took (`ABANDONED_JOB_TIMEOUT`)
 * are cancelled. Each change and the run's new state commit together (settleRun), so commit
 * statuses and the workflow_job / workflow_run webhooks follow from the actions channel.
 */

const BATCH = 100;

/**
 * Gitea's StopTask(task, failure) with its job: the task, its unfinished steps and its job fail
 * now; the run settles (jobs that needed this one are skipped, the run fails). False when the
 * task had finished meanwhile.
 */
function failTask(env: Env, taskId: number, now: number): ActionTaskRow | undefined {
  return writeTx(env.db, (tx) => {
    const task = tasks.taskById(tx, taskId);
    if (!task || isDone(task.status)) return undefined;
    tasks.updateTask(tx, task.id, { status: ActionStatus.Failure, stoppedUnix: now, tokenHash: "", updatedUnix: now });
    for (const step of tasks.stepsOfTask(tx, task.id)) {
      if (isDone(step.status)) continue;
      tasks.updateStep(tx, step.id, { status: ActionStatus.Failure, startedUnix: step.startedUnix || now, stoppedUnix: now });
    }
    const job = runs.jobById(tx, task.jobId);
    if (job && job.taskId === task.id && !isDone(job.status)) {
      runs.updateJob(tx, job.id, { status: ActionStatus.Failure, stoppedUnix: now, updatedUnix: now });
      settleRun(env, tx, job.runId, [job.id], now);
    }
    return task;
  });
}

/** Gitea's TransferLogs for a stopped task: the log is sealed (compressed) as a finished one is. */
async function sealLog(env: Env, task: ActionTaskRow): Promise<void> {
  if (task.logCompressed || !task.logFilename) return;
  try {
    await actionLogs(env).seal(task.logFilename);
    writeTx(env.db, (tx) => tasks.updateTask(tx, task.id, { logCompressed: true }));
  } catch (err) {
    env.log.warn("log of a stopped task not sealed", { task: task.id, error: (err as Error).message });
  }
}

async function stopTasks(env: Env, cutoffs: { updatedBefore?: number; startedBefore?: number }, now: number): Promise<number> {
  let stopped = 0;
  const seen = new Set<number>();
  for (;;) {
    const batch = staleRunningTasks(env.db, cutoffs, BATCH).filter((t) => !seen.has(t.id));
    for (const candidate of batch) {
      seen.add(candidate.id);
      const task = failTask(env, candidate.id, now);
      if (!task) continue;
      stopped++;
      await sealLog(env, task);
    }
    if (batch.length === 0) return stopped;
  }
}

/** Gitea's StopZombieTasks: running tasks not heard from for ZOMBIE_TASK_TIMEOUT fail. */
export function stopZombieTasks(env: Env, now: number): Promise<number> {
  return stopTasks(env, { updatedBefore: now - env.settings.actions.zombieTaskTimeout }, now);
}

/** Gitea's StopEndlessTasks: tasks running for longer than ENDLESS_TASK_TIMEOUT fail, however busy. */
export function stopEndlessTasks(env: Env, now: number): Promise<number> {
  return stopTasks(env, { startedBefore: now - env.settings.actions.endlessTaskTimeout }, now);
}

/**
 * Gitea's CancelAbandonedJobs: jobs waiting for a runner (or blocked) and unchanged for
 * ABANDONED_JOB_TIMEOUT are cancelled, a run's jobs in one transaction with the run's new state.
 */
export function cancelAbandonedJobs(env: Env, now: number): number {
  const cutoff = now - env.settings.actions.abandonedJobTimeout;
  let cancelled = 0;
  for (;;) {
    const batch = abandonedJobs(env.db, cutoff, BATCH);
    if (batch.length === 0) return cancelled;
    const byRun = new Map<number, ActionRunJobRow[]>();
    for (const job of batch) byRun.set(job.runId, [...(byRun.get(job.runId) ?? []), job]);
    for (const [runId, jobs] of byRun) {
      cancelled += writeTx(env.db, (tx) => {
        const changed: number[] = [];
        for (const job of jobs) {
          // Still as found: a runner may have taken it meanwhile.
          const moved = runs.moveJob(tx, job.id, job.status, { status: ActionStatus.Cancelled, stoppedUnix: now, updatedUnix: now });
          if (moved) changed.push(job.id);
        }
        if (changed.length) settleRun(env, tx, runId, changed, now);
        return changed.length;
      });
    }
  }
}
