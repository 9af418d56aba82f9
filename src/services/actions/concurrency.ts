import type { Env } from "../env.ts";
import type { Tx } from "../../db/client.ts";
import { ActionStatus, type ActionRunJobRow, type ActionRunRow } from "../../db/schema/index.ts";
import * as runs from "../../models/actions-run.ts";
import * as tasks from "../../models/actions-task.ts";
import { getRepoById } from "../../models/repo.ts";
import { getUserById } from "../../models/user.ts";
import { parseSingleJob } from "../../lib/actions/jobs.ts";
import { evaluateConcurrency } from "../../lib/actions/concurrency.ts";
import type { Concurrency } from "../../lib/actions/workflow.ts";
import { giteaContext } from "./context.ts";
import { variablesOfRepo } from "./secrets.ts";
import { accountById, ghostUser } from "../user/profile.ts";
import { isDone } from "./status.ts";

/**
 * Gitea 1.25's concurrency groups, for runs (`concurrency:` at the top of the workflow) and for
 * jobs (`jobs.<id>.concurrency`): a group holds at most one running and one pending member. A new
 * member cancels the group's pending ones (and, with `cancel-in-progress`, the running ones too);
 * it waits, blocked, while another member runs, and starts when that one finishes.
 */

const UNFINISHED = [ActionStatus.Waiting, ActionStatus.Blocked] as const;

/** Stops an unfinished job: a running one's task is cancelled too (the runner hears it on its next report). */
export function cancelJobInTx(tx: Tx, job: ActionRunJobRow, now: number): boolean {
  if (isDone(job.status)) return false;
  if (job.taskId) {
    const task = tasks.taskById(tx, job.taskId);
    if (task && !isDone(task.status)) tasks.updateTask(tx, task.id, { status: ActionStatus.Cancelled, stoppedUnix: now, tokenHash: "", updatedUnix: now });
  }
  runs.updateJob(tx, job.id, { status: ActionStatus.Cancelled, stoppedUnix: now, updatedUnix: now });
  job.status = ActionStatus.Cancelled;
  return true;
}

/**
 * Gitea's CancelPreviousJobsBy{Run,Job}Concurrency: the group's pending jobs (and running ones when
 * `cancel`), whether they belong to it through their run or by their own group. Returns the runs
 * whose jobs were cancelled, to be settled.
 */
function cancelGroup(tx: Tx, repoId: number, group: string, cancel: boolean, except: { runId?: number; jobId?: number }, now: number): Set<number> {
  const statuses: number[] = cancel ? [...UNFINISHED, ActionStatus.Running] : [...UNFINISHED];
  const touched = new Set<number>();
  for (const run of runs.unfinishedRunsInGroup(tx, repoId, group)) {
    if (run.id === except.runId || !statuses.includes(run.status)) continue;
    for (const job of runs.jobsOfRun(tx, run.id)) if (cancelJobInTx(tx, job, now)) touched.add(run.id);
  }
  for (const job of runs.jobsInGroup(tx, repoId, group, statuses)) {
    if (job.id === except.jobId || job.runId === except.runId) continue;
    if (cancelJobInTx(tx, job, now)) touched.add(job.runId);
  }
  return touched;
}

/** Whether a member of the group is running (then a new member waits, unless it cancels). */
function groupRunning(tx: Tx, repoId: number, group: string, except: { runId?: number; jobId?: number }): boolean {
  if (runs.unfinishedRunsInGroup(tx, repoId, group).some((r) => r.id !== except.runId && r.status === ActionStatus.Running)) return true;
  return runs.jobsInGroup(tx, repoId, group, [ActionStatus.Running]).some((j) => j.id !== except.jobId && j.runId !== except.runId);
}

/**
 * Gitea's PrepareToStartRunWithConcurrency, for a run about to be inserted in its group: the
 * group's pending members are cancelled (running ones too with `cancel`), and the new run starts
 * blocked while another member runs. Returns whether it is blocked and the runs to settle.
 */
export function prepareRun(tx: Tx, repoId: number, group: string, cancel: boolean, now: number): { blocked: boolean; touched: Set<number> } {
  if (!group) return { blocked: false, touched: new Set() };
  const touched = cancelGroup(tx, repoId, group, cancel, {}, now);
  return { blocked: !cancel && groupRunning(tx, repoId, group, {}), touched };
}

/** The same for a job with its own group, once evaluated. */
function prepareJob(tx: Tx, job: ActionRunJobRow, now: number): { blocked: boolean; touched: Set<number> } {
  if (!job.concurrencyGroup) return { blocked: false, touched: new Set() };
  const touched = cancelGroup(tx, job.repoId, job.concurrencyGroup, job.concurrencyCancel, { jobId: job.id }, now);
  return { blocked: !job.concurrencyCancel && groupRunning(tx, job.repoId, job.concurrencyGroup, { jobId: job.id }), touched };
}

/** The expression context a job's `concurrency:` is evaluated in: the run's github context, vars, inputs, the job's matrix and needs. */
function jobContext(env: Env, tx: Tx, run: ActionRunRow, job: ActionRunJobRow, needs: Record<string, unknown>) {
  const repo = getRepoById(tx, run.repoId);
  const owner = repo && getUserById(tx, repo.ownerId);
  if (!repo || !owner) return undefined;
  const payload = JSON.parse(run.eventPayload) as Record<string, unknown>;
  const github = giteaContext(env, {
    repo,
    owner,
    triggerUser: accountById(tx, run.triggerUserId) ?? ghostUser(),
    event: run.triggerEvent,
    ref: run.ref,
    sha: run.commitSha,
    payload,
    workflowId: run.workflowId,
    runId: run.id,
    runIndex: run.index,
  });
  let matrix: Record<string, unknown> = {};
  try {
    matrix = parseSingleJob(job.workflowPayload).matrix;
  } catch {
    // a payload that no longer parses has no matrix to offer
  }
  const inputs = (payload.inputs && typeof payload.inputs === "object" ? payload.inputs : {}) as Record<string, unknown>;
  return { github, vars: variablesOfRepo(env, repo), inputs, matrix, needs };
}

/**
 * A job about to leave `blocked` or start `waiting` with its own `concurrency:`: evaluated now
 * (Gitea leaves a job with `needs` until they are done, so their outputs count), then prepared in
 * its group. Returns the job's status to take (waiting or blocked) and the runs to settle. A
 * group that does not evaluate fails the job, as Gitea then fails it.
 */
export function startJobInGroup(
  env: Env,
  tx: Tx,
  run: ActionRunRow,
  job: ActionRunJobRow,
  needs: Record<string, unknown>,
  now: number,
): { status: number; touched: Set<number> } {
  if (!job.rawConcurrency) return { status: ActionStatus.Waiting, touched: new Set() };
  if (!job.isConcurrencyEvaluated) {
    const ctx = jobContext(env, tx, run, job, needs);
    try {
      if (!ctx) throw new Error("the run's repository is gone");
      const { group, cancelInProgress } = evaluateConcurrency(JSON.parse(job.rawConcurrency) as Concurrency, ctx);
      const patch = { isConcurrencyEvaluated: true, concurrencyGroup: group, concurrencyCancel: cancelInProgress };
      runs.updateJob(tx, job.id, patch);
      Object.assign(job, patch);
    } catch (err) {
      env.log.warn("job concurrency not evaluated", { job: job.id, error: (err as Error).message });
      return { status: ActionStatus.Failure, touched: new Set() };
    }
  }
  const { blocked, touched } = prepareJob(tx, job, now);
  return { status: blocked ? ActionStatus.Blocked : ActionStatus.Waiting, touched };
}

/**
 * Whether the run waits for its workflow-level group: blocked as a whole, none of its jobs placed
 * yet (a run that was let go has jobs that left `blocked`, or were placed in their own groups).
 */
export function heldByRunGroup(run: Pick<ActionRunRow, "status" | "concurrencyGroup">, jobs: readonly ActionRunJobRow[]): boolean {
  return run.status === ActionStatus.Blocked && run.concurrencyGroup !== "" && jobs.every((j) => j.status === ActionStatus.Blocked && !j.isConcurrencyEvaluated);
}

/**
 * After members of groups finished: in each group with nothing running any more, the oldest
 * pending run or job (blocked only by its group) may start. Returns the runs to settle.
 */
export function releaseGroups(tx: Tx, repoId: number, groups: Iterable<string>, now: number): Set<number> {
  const touched = new Set<number>();
  for (const group of new Set(groups)) {
    if (!group || groupRunning(tx, repoId, group, {})) continue;
    const nextRun = runs.unfinishedRunsInGroup(tx, repoId, group).find((r) => heldByRunGroup(r, runs.jobsOfRun(tx, r.id)));
    const nextJob = runs.jobsInGroup(tx, repoId, group, [ActionStatus.Blocked]).find((j) => {
      const run = runs.runById(tx, j.runId);
      return j.isConcurrencyEvaluated && run !== undefined && !heldByRunGroup(run, runs.jobsOfRun(tx, run.id));
    });
    // The older of the two goes first; one at a time keeps the group to one running member.
    if (nextRun && (!nextJob || nextRun.createdUnix <= nextJob.createdUnix)) {
      // Its jobs are placed by settleRun once the run no longer waits.
      runs.updateRun(tx, nextRun.id, { status: ActionStatus.Waiting, updatedUnix: now });
      touched.add(nextRun.id);
    } else if (nextJob) {
      runs.updateJob(tx, nextJob.id, { status: ActionStatus.Waiting, updatedUnix: now });
      touched.add(nextJob.runId);
    }
  }
  return touched;
}
