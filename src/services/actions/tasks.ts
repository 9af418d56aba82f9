import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { ActionStatus, type ActionRunJobRow, type ActionRunnerRow, type ActionTaskRow } from "../../db/schema/index.ts";
import * as runs from "../../models/actions-run.ts";
import * as tasks from "../../models/actions-task.ts";
import { deleteRunner } from "../../models/actions-runner.ts";
import { getRepoById } from "../../models/repo.ts";
import { getUserById } from "../../models/user.ts";
import { hashToken, newAccessToken } from "../../crypto/token.ts";
import { nowUnix } from "../../lib/time.ts";
import { labelName, runnerLabels } from "./runners.ts";
import { giteaContext } from "./context.ts";
import { secretsOfTask, variablesOfRepo } from "./secrets.ts";
import { createRuntimeToken } from "./runtime-token.ts";
import { settleRun } from "./settle.ts";
import { isDone } from "./status.ts";
import { tasksVersion } from "./tasks-version.ts";
import { ActionLogStore } from "../../storage/actions-logs.ts";
import { jobNeeds, stepNames } from "./job-fields.ts";
import { accountById, ghostUser } from "../user/profile.ts";

/** What a runner gets for a task (the Task message's fields). */
export interface TaskForRunner {
  id: number;
  workflowPayload: string;
  context: Record<string, unknown>;
  secrets: Record<string, string>;
  vars: Record<string, string>;
  needs: Record<string, { outputs: Record<string, string>; result: number }>;
}

/** Jobs looked at per FetchTask: the oldest waiting ones the runner may take (more only if others took them first). */
const CANDIDATES = 16;

/**
 * Gitea's PickTask / CreateTaskForRunner: the oldest waiting job within the runner's reach whose
 * `runs-on` labels the runner all has becomes a running task with a fresh token; the run starts
 * running with it. An ephemeral runner takes one task in its life. Undefined when there is nothing
 * (then `version` tells the runner what to send next time).
 */
export async function pickTask(env: Env, runner: ActionRunnerRow, knownVersion: number): Promise<{ task?: TaskForRunner; version: number }> {
  const version = tasksVersion();
  if (knownVersion === version) return { version };
  const now = nowUnix();
  const token = newAccessToken();
  const picked = writeTx(env.db, (tx) => {
    if (runner.ephemeral && tasks.runnerHadTask(tx, runner.id)) return undefined;
    const labels = [...new Set(runnerLabels(runner).map(labelName))];
    for (const job of runs.waitingJobs(tx, runner, labels, CANDIDATES)) {
      const attempt = job.attempt + 1;
      if (!runs.moveJob(tx, job.id, ActionStatus.Waiting, { status: ActionStatus.Running, attempt, startedUnix: now, updatedUnix: now })) continue;
      const task = tasks.insertTask(tx, {
        jobId: job.id,
        attempt,
        runnerId: runner.id,
        status: ActionStatus.Running,
        startedUnix: now,
        repoId: job.repoId,
        ownerId: job.ownerId,
        commitSha: job.commitSha,
        isForkPullRequest: job.isForkPullRequest,
        tokenHash: hashToken(token),
        tokenLastEight: token.slice(-8),
        createdUnix: now,
        updatedUnix: now,
      });
      const logFilename = ActionLogStore.fileName(job.repoId, task.id);
      tasks.updateTask(tx, task.id, { logFilename });
      tasks.insertSteps(
        tx,
        stepNames(job).map((name, index) => ({ taskId: task.id, name, index, repoId: job.repoId, status: ActionStatus.Waiting })),
      );
      runs.updateJob(tx, job.id, { taskId: task.id });
      settleRun(env, tx, job.runId, [job.id], now);
      return { task: { ...task, logFilename }, job: { ...job, attempt, taskId: task.id } };
    }
    return undefined;
  });
  if (!picked) return { version };
  return { task: await taskForRunner(env, picked.task, picked.job, token, now), version };
}

async function taskForRunner(env: Env, task: ActionTaskRow, job: ActionRunJobRow, token: string, now: number): Promise<TaskForRunner> {
  const run = runs.runById(env.db, job.runId)!;
  const repo = getRepoById(env.db, run.repoId)!;
  const owner = getUserById(env.db, repo.ownerId)!;
  const triggerUser = accountById(env.db, run.triggerUserId) ?? ghostUser();
  const payload = JSON.parse(run.eventPayload) as Record<string, unknown>;
  const context = giteaContext(env, {
    repo,
    owner,
    triggerUser,
    event: run.triggerEvent,
    ref: run.ref,
    sha: run.commitSha,
    payload,
    workflowId: run.workflowId,
    runId: run.id,
    runIndex: run.index,
    job: { jobId: job.jobId, attempt: job.attempt },
  });
  context.token = token;
  context.gitea_runtime_token = await createRuntimeToken(env, { id: task.id, runId: run.id, jobId: job.id }, now);
  return {
    id: task.id,
    workflowPayload: job.workflowPayload,
    context,
    secrets: secretsOfTask(env, repo, token, run.isForkPullRequest && run.triggerEvent !== "pull_request_target"),
    vars: variablesOfRepo(env, repo),
    needs: needsOf(env, job),
  };
}

/** Gitea's FindTaskNeeds: each needed job's outputs (from its latest task) and result. */
function needsOf(env: Env, job: ActionRunJobRow): TaskForRunner["needs"] {
  const needs = new Set(jobNeeds(job));
  if (needs.size === 0) return {};
  const out: TaskForRunner["needs"] = {};
  for (const other of runs.jobsOfRun(env.db, job.runId)) {
    if (!needs.has(other.jobId)) continue;
    const outputs = other.taskId && isDone(other.status) ? Object.fromEntries(tasks.outputsOfTask(env.db, other.taskId)) : {};
    const prev = out[other.jobId];
    // A matrix job's results merge: any failure fails the need.
    const result = prev && prev.result !== ActionStatus.Success ? prev.result : other.status;
    out[other.jobId] = { outputs: { ...(prev?.outputs ?? {}), ...outputs }, result };
  }
  return out;
}

export class TaskUpdateRefused extends Error {}

export interface StepReport {
  id: number;
  result: number;
  startedAt?: number;
  stoppedAt?: number;
  logIndex: number;
  logLength: number;
}

export interface TaskReport {
  id: number;
  result: number;
  startedAt?: number;
  stoppedAt?: number;
  steps: StepReport[];
}

/**
 * Gitea's UpdateTaskByState + the UpdateTask handler: step states, outputs (kept once sent; keys
 * over 255 bytes and values over 1 MiB dropped), and with a result the task's and job's end, after
 * which blocked jobs may go. A task already finished (cancelled meanwhile) stays as it is; the
 * answer's result tells the runner. Returns the task's status and the output keys stored.
 */
export function updateTask(env: Env, runner: ActionRunnerRow, report: TaskReport, outputs: Record<string, string>): { status: number; sentOutputs: string[] } {
  const now = nowUnix();
  const result = writeTx(env.db, (tx) => {
    const task = tasks.taskById(tx, report.id);
    if (!task || task.runnerId !== runner.id) throw new TaskUpdateRefused("task not found for this runner");
    for (const [k, v] of Object.entries(outputs)) {
      if (Buffer.byteLength(k) > 255 || Buffer.byteLength(v) > 1024 * 1024) continue;
      tasks.insertOutputIfAbsent(tx, task.id, k, v);
    }
    const sentOutputs = [...tasks.outputsOfTask(tx, task.id).keys()];
    if (isDone(task.status)) return { status: task.status, sentOutputs, finished: false, task };
    const finished = report.result !== 0;
    if (finished) {
      const status = report.result;
      const stopped = report.stoppedAt ? Math.floor(report.stoppedAt) : now;
      tasks.updateTask(tx, task.id, { status, stoppedUnix: stopped, tokenHash: "", updatedUnix: now });
      runs.updateJob(tx, task.jobId, { status, stoppedUnix: stopped, updatedUnix: now });
      task.status = status;
    } else {
      tasks.updateTask(tx, task.id, { updatedUnix: now });
    }
    const reported = new Map(report.steps.map((s) => [s.id, s]));
    for (const step of tasks.stepsOfTask(tx, task.id)) {
      const r = reported.get(step.index);
      if (!r) continue;
      const started = r.startedAt ? Math.floor(r.startedAt) : step.startedUnix;
      const stopped = r.stoppedAt ? Math.floor(r.stoppedAt) : step.stoppedUnix;
      const status = r.result !== 0 ? r.result : started ? ActionStatus.Running : step.status;
      tasks.updateStep(tx, step.id, { status, logIndex: r.logIndex, logLength: r.logLength, startedUnix: started, stoppedUnix: stopped });
    }
    const job = runs.jobById(tx, task.jobId);
    if (job) settleRun(env, tx, job.runId, finished ? [job.id] : [], now);
    return { status: task.status, sentOutputs, finished, task };
  });
  if (result.finished && runner.ephemeral) writeTx(env.db, (tx) => deleteRunner(tx, runner.id));
  return { status: result.status, sentOutputs: result.sentOutputs };
}

const logStores = new WeakMap<Env, ActionLogStore>();
export function actionLogs(env: Env): ActionLogStore {
  let s = logStores.get(env);
  if (!s) logStores.set(env, (s = new ActionLogStore(`${env.settings.server.appDataPath}/actions_log`)));
  return s;
}

export class LogArchived extends Error {}

/**
 * Gitea's UpdateLog: rows from `index` on; rows the server already has are skipped, so a runner
 * repeating a batch after a lost answer changes nothing. `noMore` seals the log (compressed at
 * rest). Answers how many rows the server holds.
 */
export async function appendLog(
  env: Env,
  runner: ActionRunnerRow,
  taskId: number,
  index: number,
  rows: { time: number; content: string }[],
  noMore: boolean,
): Promise<number> {
  const task = tasks.taskById(env.db, taskId);
  if (!task || task.runnerId !== runner.id) throw new TaskUpdateRefused("task not found for this runner");
  const ack = task.logLength;
  if (rows.length === 0 || index > ack || rows.length + index <= ack) {
    if (noMore && !task.logCompressed && rows.length + index <= ack) await sealLog(env, task);
    return ack;
  }
  if (task.logCompressed) throw new LogArchived("log file has been archived");
  const fresh = rows.slice(ack - index);
  const written = await actionLogs(env).append(task.logFilename, fresh);
  const logLength = ack + fresh.length;
  writeTx(env.db, (tx) => tasks.updateTask(tx, task.id, { logLength, logSize: task.logSize + written }));
  if (noMore) await sealLog(env, { ...task, logLength });
  return logLength;
}

async function sealLog(env: Env, task: ActionTaskRow): Promise<void> {
  await actionLogs(env).seal(task.logFilename);
  writeTx(env.db, (tx) => tasks.updateTask(tx, task.id, { logCompressed: true }));
}
