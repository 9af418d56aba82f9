import type { Env } from "../env.ts";
import type { Tx } from "../../db/client.ts";
import { ActionStatus, type ActionRunJobRow, type ActionRunRow } from "../../db/schema/index.ts";
import * as runs from "../../models/actions-run.ts";
import * as tasks from "../../models/actions-task.ts";
import { aggregateStatus, isDone } from "./status.ts";
import { actionsEvents } from "./events.ts";
import { bumpTasksVersion } from "./tasks-version.ts";
import { jobHasIf, jobNeeds } from "./job-fields.ts";
import { heldByRunGroup, releaseGroups, startJobInGroup } from "./concurrency.ts";

/** The needs' results and outputs as expressions see them (`needs.build.outputs.x`, `needs.build.result`). */
function needsContext(tx: Tx, needed: ActionRunJobRow[]): Record<string, unknown> {
  const out: Record<string, { result: string; outputs: Record<string, string> }> = {};
  for (const n of needed) {
    const outputs = n.taskId ? Object.fromEntries(tasks.outputsOfTask(tx, n.taskId)) : {};
    const prev = out[n.jobId];
    const result = prev && prev.result !== "success" ? prev.result : n.status === ActionStatus.Success ? "success" : n.status === ActionStatus.Skipped ? "skipped" : n.status === ActionStatus.Cancelled ? "cancelled" : "failure";
    out[n.jobId] = { result, outputs: { ...(prev?.outputs ?? {}), ...outputs } };
  }
  return out;
}

/**
 * Gitea's job emitter and run status update, after jobs of a run changed. A blocked job may go
 * once its run is not held by its concurrency group and its needs are done: it waits for a runner
 * when every need succeeded or it has an `if:` the runner will judge, else it is skipped; a job
 * with its own `concurrency:` is evaluated then and may stay blocked behind its group. The run's
 * state follows from its jobs', with its start and stop times. Groups whose members finished let
 * their next member go. Everything that changed is recorded on the actions channel in the same
 * transaction.
 */
export function settleRun(env: Env, tx: Tx, runId: number, changedJobIds: number[], now: number, opts: { depth?: number; rerun?: boolean; statusBefore?: number } = {}): void {
  const depth = opts.depth ?? 0;
  const run = runs.runById(tx, runId);
  if (!run) return;
  const jobs = runs.jobsOfRun(tx, runId);
  const changed = new Set(changedJobIds);
  const touched = new Set<number>();
  const byKey = new Map<string, ActionRunJobRow[]>();
  for (const j of jobs) byKey.set(j.jobId, [...(byKey.get(j.jobId) ?? []), j]);
  let woke = false;
  for (let moved = !heldByRunGroup(run, jobs); moved; ) {
    moved = false;
    for (const job of jobs) {
      if (job.status !== ActionStatus.Blocked) continue;
      // Held by its own group (evaluated, waiting for the group's running member): released by releaseGroups.
      if (job.rawConcurrency && job.isConcurrencyEvaluated) continue;
      const needed = jobNeeds(job).flatMap((n) => byKey.get(n) ?? []);
      if (!needed.every((n) => isDone(n.status))) continue;
      let next: number = ActionStatus.Waiting;
      if (!needed.every((n) => n.status === ActionStatus.Success) && !jobHasIf(job)) next = ActionStatus.Skipped;
      else if (job.rawConcurrency) {
        const started = startJobInGroup(env, tx, run, job, needsContext(tx, needed), now);
        next = started.status;
        for (const id of started.touched) touched.add(id);
      }
      const patch = isDone(next) ? { status: next, stoppedUnix: now, updatedUnix: now } : { status: next, updatedUnix: now };
      runs.updateJob(tx, job.id, patch);
      Object.assign(job, patch);
      changed.add(job.id);
      if (next === ActionStatus.Waiting) woke = true;
      if (next !== ActionStatus.Blocked) moved = true;
    }
  }
  const before = opts.statusBefore ?? run.status;
  const hadStarted = run.startedUnix !== 0;
  updateRunStatus(tx, run, jobs, now);
  if (woke) bumpTasksVersion();
  if (changed.size > 0 || before !== run.status) {
    const jobStatuses = Object.fromEntries(jobs.filter((j) => changed.has(j.id)).map((j) => [String(j.id), j.status]));
    actionsEvents.emit(tx, env, {
      kind: "jobs-changed",
      runId,
      jobIds: [...changed],
      jobStatuses,
      runStatusBefore: before,
      runStatus: run.status,
      ...(!hadStarted && run.startedUnix !== 0 ? { runStarted: true } : {}),
      ...(opts.rerun ? { rerun: true } : {}),
    });
  }
  // Members that finished free their groups.
  const freed = jobs.filter((j) => changed.has(j.id) && isDone(j.status) && j.concurrencyGroup).map((j) => j.concurrencyGroup);
  if (isDone(run.status) && !isDone(before) && run.concurrencyGroup) freed.push(run.concurrencyGroup);
  if (freed.length > 0) for (const id of releaseGroups(tx, run.repoId, freed, now)) touched.add(id);
  touched.delete(runId);
  // Each further run settles once; the depth bound only guards against a cycle of groups.
  if (depth < 8) for (const id of touched) settleRun(env, tx, id, [], now, { depth: depth + 1 });
}

function updateRunStatus(tx: Tx, run: ActionRunRow, jobs: ActionRunJobRow[], now: number): void {
  const status = aggregateStatus(jobs.map((j) => j.status));
  const patch: Partial<ActionRunRow> = {};
  if (status !== run.status) patch.status = status;
  if (status === ActionStatus.Running && !run.startedUnix) patch.startedUnix = now;
  if (isDone(status) && !isDone(run.status)) {
    patch.stoppedUnix = now;
    if (!run.startedUnix) patch.startedUnix = now;
  }
  if (Object.keys(patch).length === 0) return;
  patch.updatedUnix = now;
  runs.updateRun(tx, run.id, patch);
  Object.assign(run, patch);
}
