import type { Env } from "../env.ts";
import type { Tx } from "../../db/client.ts";
import { ActionStatus, type ActionRunJobRow, type ActionRunRow } from "../../db/schema/index.ts";
import * as runs from "../../models/actions-run.ts";
import { aggregateStatus, isDone } from "./status.ts";
import { actionsEvents } from "./events.ts";
import { bumpTasksVersion } from "./tasks-version.ts";

const needsOf = (job: ActionRunJobRow): string[] => {
  try {
    const v = JSON.parse(job.needsJson) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
};

/** Whether the job's own payload has an `if:` (then the runner decides, even after a failed need). */
function jobHasIf(job: ActionRunJobRow): boolean {
  try {
    const doc = Bun.YAML.parse(job.workflowPayload) as { jobs?: Record<string, { if?: unknown }> };
    const only = doc?.jobs?.[job.jobId];
    return only?.if !== undefined && only.if !== null && String(only.if).trim() !== "";
  } catch {
    return false;
  }
}

/**
 * Gitea's job emitter and run status update, after jobs of a run changed: blocked jobs whose needs
 * are all done start waiting when every need succeeded, or when they have an `if:` the runner will
 * judge; otherwise they are skipped. The run's state follows from its jobs', with its start and
 * stop times; a finished run lets the next run of its concurrency group go. Everything that
 * changed is recorded on the actions channel in the same transaction.
 */
export function settleRun(env: Env, tx: Tx, runId: number, changedJobIds: number[], now: number): void {
  const run = runs.runById(tx, runId);
  if (!run) return;
  const jobs = runs.jobsOfRun(tx, runId);
  const changed = new Set(changedJobIds);
  const byKey = new Map<string, ActionRunJobRow[]>();
  for (const j of jobs) byKey.set(j.jobId, [...(byKey.get(j.jobId) ?? []), j]);
  let woke = false;
  for (let moved = true; moved; ) {
    moved = false;
    for (const job of jobs) {
      if (job.status !== ActionStatus.Blocked) continue;
      const needs = needsOf(job);
      if (needs.length === 0) continue; // blocked by its run's concurrency group, not by needs
      const needed = needs.flatMap((n) => byKey.get(n) ?? []);
      if (!needed.every((n) => isDone(n.status))) continue;
      const allSucceeded = needed.every((n) => n.status === ActionStatus.Success);
      const next = allSucceeded || jobHasIf(job) ? ActionStatus.Waiting : ActionStatus.Skipped;
      const patch = next === ActionStatus.Skipped ? { status: next, stoppedUnix: now, updatedUnix: now } : { status: next, updatedUnix: now };
      runs.updateJob(tx, job.id, patch);
      Object.assign(job, patch);
      changed.add(job.id);
      if (next === ActionStatus.Waiting) woke = true;
      moved = true;
    }
  }
  const before = run.status;
  updateRunStatus(tx, run, jobs, now);
  if (woke) bumpTasksVersion();
  if (changed.size > 0 || before !== run.status) {
    actionsEvents.emit(tx, env, { kind: "jobs-changed", runId, jobIds: [...changed], runStatusBefore: before });
  }
  if (isDone(run.status) && !isDone(before) && run.concurrencyGroup) releaseGroup(env, tx, run, now);
}

function updateRunStatus(tx: Tx, run: ActionRunRow, jobs: ActionRunJobRow[], now: number): void {
  if (run.status === ActionStatus.Blocked && jobs.every((j) => j.status === ActionStatus.Blocked)) return;
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

/** The oldest run held back by the finished run's concurrency group may start. */
function releaseGroup(env: Env, tx: Tx, run: ActionRunRow, now: number): void {
  const next = runs.unfinishedRunsInGroup(tx, run.repoId, run.concurrencyGroup).find((r) => r.status === ActionStatus.Blocked);
  if (!next) return;
  const woken: number[] = [];
  for (const job of runs.jobsOfRun(tx, next.id)) {
    if (job.status === ActionStatus.Blocked && needsOf(job).length === 0) {
      runs.updateJob(tx, job.id, { status: ActionStatus.Waiting, updatedUnix: now });
      woken.push(job.id);
    }
  }
  runs.updateRun(tx, next.id, { status: ActionStatus.Waiting, updatedUnix: now });
  bumpTasksVersion();
  actionsEvents.emit(tx, env, { kind: "jobs-changed", runId: next.id, jobIds: woken, runStatusBefore: ActionStatus.Blocked });
}
