import type { Env } from "../env.ts";
import { writeTx, type Tx } from "../../db/client.ts";
import { ActionStatus, type ActionRunJobRow, type ActionRunRow } from "../../db/schema/index.ts";
import * as runs from "../../models/actions-run.ts";
import { Invalid } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { duration, isDone } from "./status.ts";
import { settleRun } from "./settle.ts";
import { cancelJobInTx } from "./concurrency.ts";
import { jobNeeds } from "./job-fields.ts";
import { bumpTasksVersion } from "./tasks-version.ts";

/** Gitea's CancelRun inside a transaction: every unfinished job of the run is cancelled. */
export function cancelRunInTx(env: Env, tx: Tx, run: ActionRunRow, now: number): void {
  const changed = runs.jobsOfRun(tx, run.id).filter((j) => cancelJobInTx(tx, j, now)).map((j) => j.id);
  settleRun(env, tx, run.id, changed, now);
}

/** The run page's and the API's cancel: nothing happens to a finished run. */
export function cancelRun(env: Env, run: ActionRunRow): void {
  writeTx(env.db, (tx) => cancelRunInTx(env, tx, run, nowUnix()));
}

/**
 * Gitea's Rerun: the run (or one job and the jobs that need it) starts over. A job without needs
 * waits for a runner again, the others are blocked; the next task of each is its next attempt.
 * Only a finished run, or a finished job, can be re-run.
 */
export function rerun(env: Env, run: ActionRunRow, onlyJob?: ActionRunJobRow): void {
  const now = nowUnix();
  writeTx(env.db, (tx) => {
    const current = runs.runById(tx, run.id);
    if (!current) return;
    const jobs = runs.jobsOfRun(tx, run.id);
    if (onlyJob ? !isDone(jobs.find((j) => j.id === onlyJob.id)?.status ?? 0) : !isDone(current.status)) {
      throw new Invalid("only a finished run or job can be re-run");
    }
    const chosen = onlyJob ? dependentsOf(jobs, onlyJob) : jobs;
    for (const job of chosen) {
      const needs = jobNeeds(job);
      const waitsForNothing = (onlyJob ? job.id === onlyJob.id || needs.length === 0 : needs.length === 0) && !job.rawConcurrency;
      runs.updateJob(tx, job.id, {
        // A job with its own concurrency group is evaluated again as it starts over (settleRun).
        status: waitsForNothing ? ActionStatus.Waiting : ActionStatus.Blocked,
        isConcurrencyEvaluated: false,
        concurrencyGroup: "",
        concurrencyCancel: false,
        taskId: 0,
        startedUnix: 0,
        stoppedUnix: 0,
        updatedUnix: now,
      });
    }
    runs.updateRun(tx, run.id, {
      status: ActionStatus.Waiting,
      previousDuration: current.previousDuration + duration(current.startedUnix, current.stoppedUnix, now),
      startedUnix: 0,
      stoppedUnix: 0,
      updatedUnix: now,
    });
    settleRun(env, tx, run.id, chosen.map((j) => j.id), now, { rerun: true, statusBefore: current.status });
  });
  bumpTasksVersion();
}

/** The job and every job that needs it, directly or not (by id: `root` may be a row read elsewhere). */
function dependentsOf(jobs: ActionRunJobRow[], root: ActionRunJobRow): ActionRunJobRow[] {
  const keys = new Set([root.jobId]);
  const ids = new Set([root.id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const j of jobs) {
      if (ids.has(j.id)) continue;
      if (jobNeeds(j).some((n) => keys.has(n))) {
        ids.add(j.id);
        keys.add(j.jobId);
        grew = true;
      }
    }
  }
  return jobs.filter((j) => ids.has(j.id));
}
