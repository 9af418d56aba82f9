/**
 * What the Actions pages show (Gitea's routers/web/repo/actions): a repository's workflows and
 * runs, one run with its jobs, one job with its steps and their log rows. Read-only: the pages'
 * cancel and re-run go through cancel.ts.
 */
import type { Env } from "../env.ts";
import type { ActionRunJobRow, ActionRunRow, ActionTaskRow, UserRow } from "../../db/schema/index.ts";

/** Gitea's status numbers, for the pages' filters and words (the web door reaches the schema only through services). */
export { ActionStatus } from "../../db/schema/index.ts";
import * as runs from "../../models/actions-run.ts";
import * as tasks from "../../models/actions-task.ts";
import { latestRunIndex, runActorIds } from "../../models/actions-views.ts";
import { getBranch } from "../../models/branch.ts";
import { resolveRevision } from "../../git/objects.ts";
import { readWorkflowFiles } from "../../git/workflows.ts";
import { parseWorkflow } from "../../lib/actions/workflow.ts";
import { NotFound } from "../../lib/errors.ts";
import type { LogLine } from "../../storage/actions-logs.ts";
import { gitDirOf, type RepoContext } from "../repo/lookup.ts";
import { fullSteps, type ShownStep } from "./full-steps.ts";
import { accountsByIds } from "../user/profile.ts";
import { actionLogs } from "./tasks.ts";

/**
 * Gitea's MustEnableActions and MustBeNotEmpty: the Actions pages are not there when Actions is
 * switched off for the site, or for an empty repository (the unit's own switch is the declared
 * read access).
 */
export function requireActionsPages(env: Env, rc: RepoContext): void {
  if (!env.settings.actions.enabled || rc.repo.isEmpty) throw new NotFound();
}

/** A workflow file of the default branch, as the runs page's sidebar lists it. */
export interface WorkflowEntry {
  /** The file name (`ci.yml`): Gitea's workflow id and the `?workflow=` filter. */
  id: string;
  /** Why the file cannot run, when it does not parse. */
  error?: string;
  disabled: boolean;
}

/**
 * Gitea's List: the workflow files at the head of the default branch, in name order, each parsed
 * so a broken one says so; none for an empty repository.
 */
export async function workflowsOfRepo(env: Env, rc: RepoContext): Promise<WorkflowEntry[]> {
  if (rc.repo.isEmpty) return [];
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const head = await resolveRevision(gitDir, `refs/heads/${rc.repo.defaultBranch}`, "commit");
  if (!head) return [];
  const disabled = runs.disabledWorkflows(env.db, rc.repo.id);
  const files = await readWorkflowFiles(gitDir, head);
  return files
    .map((f) => {
      let error: string | undefined;
      try {
        parseWorkflow(f.content);
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
      }
      return { id: f.name, error, disabled: disabled.has(f.name) };
    })
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

const accountsOf = (env: Env, ids: number[]): Map<number, UserRow> => accountsByIds(env.db, ids);

/** Who started the repository's runs, by name (the actor filter's choices). */
export function runActors(env: Env, rc: RepoContext): UserRow[] {
  return [...accountsOf(env, runActorIds(env.db, rc.repo.id)).values()].sort((a, b) => a.lowerName.localeCompare(b.lowerName));
}

export interface RunFilters {
  workflow?: string;
  actorId?: number;
  status?: number;
}

export interface RunListItem {
  run: ActionRunRow;
  actor: UserRow;
}

/** One page of the repository's runs, newest first, with who started each. */
export function listRunsForWeb(env: Env, rc: RepoContext, f: RunFilters, page: { offset: number; limit: number }): { items: RunListItem[]; total: number } {
  const { rows, total } = runs.listRuns(
    env.db,
    {
      repoId: rc.repo.id,
      workflowId: f.workflow || undefined,
      triggerUserId: f.actorId,
      statuses: f.status !== undefined ? [f.status] : undefined,
    },
    page,
  );
  const actors = accountsOf(env, rows.map((r) => r.triggerUserId));
  return { items: rows.map((run) => ({ run, actor: actors.get(run.triggerUserId)! })), total };
}

export interface RunView {
  run: ActionRunRow;
  jobs: ActionRunJobRow[];
  actor: UserRow;
  /** The run's branch is gone (Gitea strikes it through). */
  branchDeleted: boolean;
}

/** A run by its number in the repository (or `latest`), with its jobs in the order they were planned. */
export function runForWeb(env: Env, rc: RepoContext, index: number | "latest"): RunView {
  const number = index === "latest" ? latestRunIndex(env.db, rc.repo.id) : index;
  const run = number !== undefined ? runs.runByIndex(env.db, rc.repo.id, number) : undefined;
  if (!run) throw new NotFound();
  const jobs = runs.jobsOfRun(env.db, run.id);
  const actor = accountsOf(env, [run.triggerUserId]).get(run.triggerUserId)!;
  const branch = run.ref.startsWith("refs/heads/") ? run.ref.slice("refs/heads/".length) : undefined;
  const branchDeleted = branch !== undefined && !getBranch(env.db, rc.repo.id, branch);
  return { run, jobs, actor, branchDeleted };
}

/** A job of a run by its position in the run (Gitea's job index, from 0). */
export function jobOfRun(view: RunView, jobIndex: number): ActionRunJobRow {
  const job = view.jobs[jobIndex];
  if (!job) throw new NotFound();
  return job;
}

/** A step with its own rows of the log: the last `cut` rows before `lines` were left out. */
export interface StepLog {
  step: ShownStep;
  lines: LogLine[];
  /** Rows of the step not shown (the first ones: a failure is at the end). */
  cut: number;
}

export interface JobView {
  task?: ActionTaskRow;
  steps: StepLog[];
  /** The log was cleaned up after its retention time. */
  logExpired: boolean;
}

/** How many of a job's log rows a page shows: per step, in all, and at least per step once the rest is spent. */
export interface LogBudget {
  perStep: number;
  total: number;
  floor: number;
}

/**
 * The steps of a job's latest attempt (Gitea's FullSteps) and each step's rows of the stored log:
 * the last ones, at most `perStep` of a step and about `total` in all (a step met after the total
 * is spent still shows its last `floor` rows), so a page stays readable whatever a job printed.
 * A job that has not started has no steps.
 */
export async function jobStepsForWeb(env: Env, job: ActionRunJobRow, budget: LogBudget): Promise<JobView> {
  const task = job.taskId ? tasks.taskById(env.db, job.taskId) : undefined;
  if (!task) return { steps: [], logExpired: false };
  const shown = fullSteps(task, tasks.stepsOfTask(env.db, task.id));
  const rows = task.logExpired || !task.logFilename ? [] : await actionLogs(env).read(task.logFilename);
  let left = budget.total;
  const steps = shown.map((step) => {
    const own = rows.slice(step.logIndex, step.logIndex + step.logLength);
    const room = Math.min(budget.perStep, Math.max(left, budget.floor));
    const cut = Math.max(0, own.length - room);
    left -= own.length - cut;
    return { step, lines: cut ? own.slice(cut) : own, cut };
  });
  return { task, steps, logExpired: task.logExpired };
}

/**
 * Gitea's Logs: a job's whole log as text, one row a line (`time content`), and the name Gitea
 * gives the download (`{workflow without extension}-{job}-{task}.log`).
 */
export async function jobLogText(env: Env, run: ActionRunRow, job: ActionRunJobRow): Promise<{ fileName: string; text: string }> {
  const task = job.taskId ? tasks.taskById(env.db, job.taskId) : undefined;
  if (!task || task.logExpired || !task.logFilename) throw new NotFound(task ? "logs have been cleaned up" : "job is not started");
  const rows = await actionLogs(env).read(task.logFilename);
  const dot = run.workflowId.indexOf(".");
  const workflow = dot > 0 ? run.workflowId.slice(0, dot) : run.workflowId;
  return {
    fileName: `${workflow}-${job.name}-${task.id}.log`,
    text: rows.map((r) => `${new Date(r.time).toISOString()} ${r.content}\n`).join(""),
  };
}
