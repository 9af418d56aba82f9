import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import {
  AccessMode,
  ActionStatus,
  type ActionRunJobRow,
  type ActionRunRow,
  type ActionTaskRow,
  type ActionTaskStepRow,
  type RepoRow,
  type UserRow,
} from "../../db/schema/index.ts";
import * as runs from "../../models/actions-run.ts";
import * as tasks from "../../models/actions-task.ts";
import { runnersByIds } from "../../models/actions-runner.ts";
import { getReposByIds, topicsOf } from "../../models/repo.ts";
import { getUserByName, getUsersByIds } from "../../models/user.ts";
import { RepoPermission } from "../access/permission.ts";
import type { Writes } from "../access/repo-access.ts";
import type { RepoContext } from "../repo/lookup.ts";
import { ghostUser } from "../user/profile.ts";
import { BadRequest, NotFound } from "../../lib/errors.ts";
import { isDone } from "./status.ts";
import { removeActionFiles, removeRunInTx } from "./removal.ts";
import { accountsByIds } from "../user/profile.ts";
import { actionLogs } from "./tasks.ts";

/**
 * What the Actions API shows of runs, jobs and tasks (Gitea's routers/api/v1/shared/action.go and
 * repo/action.go): one page of rows from the level's index, then everything each row shows —
 * repositories with their owners and topics, trigger users, tasks with steps, runners, each job's
 * place in its run — loaded by id lists in a constant number of queries.
 */

/** Whose runs and jobs a list covers: the instance's, one user's or organization's repositories, or one repository. */
export type ActionsScope = { site: true } | { ownerId: number } | { repoId: number };

/** A repository as the API shows it inside a run (Gitea's ToRepo with no access: the viewer's permission plays no part). */
export interface ShownRepo {
  repo: RepoRow;
  owner: UserRow;
  perm: RepoPermission;
  topics: string[];
  parent?: ShownRepo;
}

export interface RunItem {
  run: ActionRunRow;
  repo: ShownRepo;
  triggerUser: UserRow;
}

export interface JobItem {
  job: ActionRunJobRow;
  run: ActionRunRow;
  repo: ShownRepo;
  /** The job's place among its run's jobs (the web page's `/jobs/{index}`). */
  jobIndex: number;
  /** The job's latest task and its steps, once a runner took it. */
  task?: { row: ActionTaskRow; steps: ActionTaskStepRow[]; runnerName: string };
}

export interface TaskItem {
  task: ActionTaskRow;
  job: ActionRunJobRow;
  run: ActionRunRow;
  repo: Pick<ShownRepo, "repo" | "owner">;
}

/**
 * Gitea's convertToInternal: the GitHub status and conclusion names the API filters by, each
 * one or more of Gitea's states; any other name is a 400.
 */
const STATUS_FILTERS: Record<string, number[]> = {
  pending: [ActionStatus.Blocked],
  waiting: [ActionStatus.Blocked],
  requested: [ActionStatus.Blocked],
  action_required: [ActionStatus.Blocked],
  queued: [ActionStatus.Waiting],
  in_progress: [ActionStatus.Running],
  completed: [ActionStatus.Success, ActionStatus.Failure, ActionStatus.Skipped, ActionStatus.Cancelled],
  failure: [ActionStatus.Failure],
  success: [ActionStatus.Success],
  skipped: [ActionStatus.Skipped],
  neutral: [ActionStatus.Skipped],
  cancelled: [ActionStatus.Cancelled],
  timed_out: [ActionStatus.Cancelled],
};

/** The states a list's `status` parameters (repeatable) ask for; undefined when none is given. */
export function statusesOf(names: readonly string[]): number[] | undefined {
  if (names.length === 0) return undefined;
  const out: number[] = [];
  for (const name of names) {
    const states = Object.hasOwn(STATUS_FILTERS, name) ? STATUS_FILTERS[name] : undefined;
    if (!states) throw new BadRequest(`Invalid status ${name}`);
    out.push(...states);
  }
  return out;
}

const scopeFilter = (scope: ActionsScope): { repoId?: number; ownerId?: number } =>
  "repoId" in scope ? { repoId: scope.repoId } : "ownerId" in scope ? { ownerId: scope.ownerId } : {};

/** The repositories of the rows, each with its owner, topics and a fork's parent, in four queries. */
function shownRepos(env: Env, repoIds: number[]): Map<number, ShownRepo> {
  const rows = getReposByIds(env.db, [...new Set(repoIds)]);
  const parentIds = rows.filter((r) => r.isFork && r.forkId).map((r) => r.forkId);
  const parents = getReposByIds(env.db, parentIds.filter((id) => !rows.some((r) => r.id === id)));
  const all = [...rows, ...parents];
  const owners = new Map(getUsersByIds(env.db, [...new Set(all.map((r) => r.ownerId))]).map((u) => [u.id, u]));
  const topics = topicsOf(env.db, all.map((r) => r.id));
  const bare = new Map<number, ShownRepo>();
  for (const repo of all) {
    const owner = owners.get(repo.ownerId);
    if (owner) bare.set(repo.id, { repo, owner, perm: new RepoPermission(AccessMode.None, repo), topics: topics.get(repo.id) ?? [] });
  }
  const out = new Map<number, ShownRepo>();
  for (const repo of rows) {
    const view = bare.get(repo.id);
    if (!view) continue;
    const parent = repo.isFork ? bare.get(repo.forkId) : undefined;
    out.set(repo.id, parent ? { ...view, parent: { ...parent, perm: view.perm.withRepo(parent.repo) } } : view);
  }
  return out;
}

/** Accounts by id, the Actions bot and the ghost among them (Gitea's GetPossibleUserByID, a deleted account shown as the ghost). */
function people(env: Env, ids: number[]): (id: number) => UserRow {
  const found = accountsByIds(env.db, ids);
  return (id) => found.get(id) ?? ghostUser();
}

function runItems(env: Env, rows: ActionRunRow[]): RunItem[] {
  const repos = shownRepos(env, rows.map((r) => r.repoId));
  const user = people(env, rows.map((r) => r.triggerUserId));
  return rows.flatMap((run) => {
    const repo = repos.get(run.repoId);
    return repo ? [{ run, repo, triggerUser: user(run.triggerUserId) }] : [];
  });
}

export interface RunQuery {
  /** GitHub's event name (`push`, `pull_request`...). */
  event?: string;
  branch?: string;
  status: readonly string[];
  /** The login of who triggered the run. */
  actor?: string;
  headSha?: string;
}

/**
 * Gitea's shared.ListRuns: a level's runs newest first with the API's filters. An actor who does
 * not exist matches no run (Gitea answers that with a 500).
 */
export function listRunItems(env: Env, scope: ActionsScope, q: RunQuery, page: { offset: number; limit: number }): { items: RunItem[]; total: number } {
  const filter: runs.RunFilter = { ...scopeFilter(scope) };
  if (q.event) filter.triggerEvent = q.event;
  if (q.branch) filter.ref = `refs/heads/${q.branch}`;
  const statuses = statusesOf(q.status);
  if (statuses) filter.statuses = statuses;
  if (q.actor) {
    const actor = getUserByName(env.db, q.actor);
    if (!actor) return { items: [], total: 0 };
    filter.triggerUserId = actor.id;
  }
  if (q.headSha) filter.commitSha = q.headSha;
  const { rows, total } = runs.listRuns(env.db, filter, page);
  return { items: runItems(env, rows), total };
}

/** Gitea's APIErrorNotFound wording, whatever was not found. */
const NOT_FOUND = "The target couldn't be found.";
/** Gitea's util.ErrNotExist, which GetWorkflowRun and GetWorkflowJob answer with. */
const NOT_EXIST = "resource does not exist";

/** One run of the repository; 404 for another repository's. */
export function runItem(env: Env, repoId: number, runId: number): RunItem {
  const run = runId > 0 ? runs.runOfRepo(env.db, repoId, runId) : undefined;
  const item = run && runItems(env, [run])[0];
  if (!item) throw new NotFound(NOT_EXIST);
  return item;
}

function jobItems(env: Env, rows: ActionRunJobRow[]): JobItem[] {
  const runsById = runs.runsByIds(env.db, rows.map((j) => j.runId));
  const repos = shownRepos(env, rows.map((j) => j.repoId));
  const order = runs.jobIdsOfRuns(env.db, [...runsById.keys()]);
  const taskRows = tasks.tasksByIds(env.db, rows.map((j) => j.taskId).filter((id) => id > 0));
  const steps = tasks.stepsOfTasks(env.db, [...taskRows.keys()]);
  const runners = runnersByIds(env.db, [...taskRows.values()].map((t) => t.runnerId));
  return rows.flatMap((job) => {
    const run = runsById.get(job.runId);
    const repo = repos.get(job.repoId);
    if (!run || !repo) return [];
    const task = job.taskId ? taskRows.get(job.taskId) : undefined;
    return [
      {
        job,
        run,
        repo,
        jobIndex: Math.max(0, order.get(run.id)?.indexOf(job.id) ?? 0),
        ...(task ? { task: { row: task, steps: steps.get(task.id) ?? [], runnerName: runners.get(task.runnerId)?.name ?? "" } } : {}),
      },
    ];
  });
}

/** Gitea's shared.ListJobs: a level's jobs (or one run's) in the order they were created. */
export function listJobItems(
  env: Env,
  scope: ActionsScope,
  q: { runId?: number; status: readonly string[] },
  page: { offset: number; limit: number },
): { items: JobItem[]; total: number } {
  const filter: runs.JobFilter = { ...scopeFilter(scope) };
  if (q.runId !== undefined) filter.runId = q.runId;
  const statuses = statusesOf(q.status);
  if (statuses) filter.statuses = statuses;
  const { rows, total } = runs.listJobs(env.db, filter, page);
  return { items: jobItems(env, rows), total };
}

/** One job of the repository (Gitea's GetRunJobByRepoAndID). */
export function jobItem(env: Env, repoId: number, jobId: number): JobItem {
  const job = jobId > 0 ? runs.jobById(env.db, jobId) : undefined;
  const item = job && job.repoId === repoId ? jobItems(env, [job])[0] : undefined;
  if (!item) throw new NotFound(NOT_EXIST);
  return item;
}

/** Gitea's ListActionTasks: the repository's tasks newest first. */
export function listTaskItems(env: Env, rc: Pick<RepoContext, "repo" | "owner">, page: { offset: number; limit: number }): { items: TaskItem[]; total: number } {
  const { rows, total } = tasks.listTasks(env.db, rc.repo.id, page);
  const jobs = runs.jobsByIds(env.db, rows.map((t) => t.jobId));
  const runsById = runs.runsByIds(env.db, [...jobs.values()].map((j) => j.runId));
  const items = rows.flatMap((task) => {
    const job = jobs.get(task.jobId);
    const run = job && runsById.get(job.runId);
    return job && run ? [{ task, job, run, repo: { repo: rc.repo, owner: rc.owner } }] : [];
  });
  return { items, total };
}

/**
 * Gitea's DeleteActionRun: a finished run of the repository goes with its jobs, tasks and their
 * logs; one still going is a 400.
 */
export function deleteRun(env: Env, rc: Writes<"actions">, runId: number): void {
  const run = runId > 0 ? runs.runOfRepo(env.db, rc.repo.id, runId) : undefined;
  if (!run) throw new NotFound(NOT_FOUND);
  if (!isDone(run.status)) throw new BadRequest("this workflow run is not done");
  removeActionFiles(env, writeTx(env.db, (tx) => removeRunInTx(tx, run.id)));
}

/** Gitea's log time format (`2006-01-02T15:04:05.0000000Z07:00`, in UTC). */
function logTime(ms: number): string {
  const iso = new Date(ms).toISOString(); // 2024-01-02T03:04:05.678Z
  return `${iso.slice(0, 23)}0000Z`;
}

/**
 * Gitea's common.DownloadActionsRunJobLogs: the plain-text log of the job's latest task, a line
 * per row as Gitea stores it (`time content`), named `{workflow}-{job}-{task}.log` after the
 * workflow file's name up to its first dot. 404 before a runner took the job, or once the log
 * was cleaned up.
 */
export async function jobLog(env: Env, repoId: number, jobId: number): Promise<{ fileName: string; text: string }> {
  const job = jobId > 0 ? runs.jobById(env.db, jobId) : undefined;
  // Gitea answers each of these with APIErrorNotFound: its generic message, the reason ("job not
  // started", "logs have been cleaned up") only in an `errors` list hearth's error shape lacks.
  if (!job || job.repoId !== repoId || !job.taskId) throw new NotFound(NOT_FOUND);
  const task = tasks.taskById(env.db, job.taskId);
  const run = runs.runById(env.db, job.runId);
  if (!task || !run || task.logExpired) throw new NotFound(NOT_FOUND);
  const rows = task.logFilename ? await actionLogs(env).read(task.logFilename) : [];
  const text = rows.map((r) => `${logTime(r.time)} ${r.content}\n`).join("");
  const dot = run.workflowId.indexOf(".");
  const workflow = dot > 0 ? run.workflowId.slice(0, dot) : run.workflowId;
  return { fileName: `${workflow}-${job.name}-${task.id}.log`, text };
}
