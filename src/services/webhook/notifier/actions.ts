import type { Env } from "../../env.ts";
import type { RepoRow, UserRow } from "../../../db/schema/index.ts";
import type { ActionsEvent } from "../../actions/events.ts";
import { jobsOfRun, runById } from "../../../models/actions-run.ts";
import { jobItem, runItem, type JobItem, type RunItem } from "../../actions/api-views.ts";
import { getWorkflow } from "../../actions/api-workflows.ts";
import { isDone } from "../../actions/status.ts";
import { ActionStatus, UserType } from "../../../db/schema/index.ts";
import { anyHookWants, currentRepo } from "../sources.ts";
import { toAPIWorkflow, toAPIWorkflowJob, toAPIWorkflowRun } from "../../../convert/actions.ts";
import { toAPIOrganization } from "../../../convert/org.ts";
import { Lru } from "../../../lib/lru.ts";
import { fire, repoJson, userJson } from "./common.ts";

/**
 * Gitea 1.25's WorkflowRunStatusUpdate and WorkflowJobStatusUpdate webhook notifiers
 * (services/webhook/notifier.go): what happens to runs and jobs, as recorded on the actions
 * channel, reaches the hooks that chose `workflow_run` or `workflow_job` with GitHub's payloads —
 * the run (or job) as the API shows it, the run's workflow, the repository with owner access, the
 * organization when the owner is one, and the run's trigger user as sender.
 */

/** Gitea's ToWorkflowRunAction: a run is `requested` until it runs, then `in_progress`, then `completed`. */
export function workflowRunAction(status: number): string {
  if (isDone(status)) return "completed";
  if (status === ActionStatus.Running) return "in_progress";
  if (status === ActionStatus.Waiting || status === ActionStatus.Blocked) return "requested";
  return "";
}

/** Gitea's ToActionsStatus as a job's action: `queued` (waiting for a runner), `waiting` (blocked), `in_progress`, `completed`. */
export function workflowJobAction(status: number): string {
  if (isDone(status)) return "completed";
  if (status === ActionStatus.Waiting) return "queued";
  if (status === ActionStatus.Blocked) return "waiting";
  if (status === ActionStatus.Running) return "in_progress";
  return "";
}

/**
 * What each run and job was last announced as. The channel's events name what changed and are
 * handled after their commits, so two changes in quick succession (a task picked, then finished)
 * both find the later state; it is announced once, as Gitea announces each change once. A
 * re-run's job is told apart by its attempt, a re-run's run by its jobs' attempts.
 */
const announced = new WeakMap<Env, Lru<string>>();
function announcements(env: Env): Lru<string> {
  let seen = announced.get(env);
  if (!seen) announced.set(env, (seen = new Lru<string>(4096)));
  return seen;
}

function firstTime(env: Env, key: string, state: string): boolean {
  const seen = announcements(env);
  if (seen.get(key) === state) return false;
  seen.set(key, state);
  return true;
}

/** A run's attempt, as far as its jobs tell: a re-run's jobs take their next attempt. */
const runAttempt = (env: Env, item: RunItem) => Math.max(0, ...jobsOfRun(env.db, item.run.id).map((j) => j.attempt));

function organizationOf(env: Env, owner: UserRow): Record<string, unknown> {
  return owner.type === UserType.Organization ? { organization: toAPIOrganization(env.settings, owner) } : {};
}

/**
 * What a change of the run's state announces, as Gitea's notifiers call WorkflowRunStatusUpdate:
 * `requested` when it is created (or re-run), `in_progress` when it starts running, `completed`
 * when its last job is done. A run going back to waiting between two jobs is not announced.
 */
function runAnnouncement(before: number, now: number): string | undefined {
  const action = workflowRunAction(now);
  if (!action || action === workflowRunAction(before)) return undefined;
  if (action === "requested" && !isDone(before)) return undefined;
  return action;
}

/**
 * A re-run sets its run waiting before it records the change, so the event's state before is
 * already waiting: a waiting run last announced as completed was re-run (Gitea's Rerun announces
 * it requested).
 */
function rerunAnnouncement(env: Env, item: RunItem): string | undefined {
  if (workflowRunAction(item.run.status) !== "requested") return undefined;
  return announcements(env).get(`run:${item.run.id}`)?.startsWith("completed/") ? "requested" : undefined;
}

/** The channel's subscriber (index.ts): run-created announces the run, then its jobs; jobs-changed the jobs, then the run if it moved. */
export async function onActionsEvent(env: Env, e: ActionsEvent): Promise<void> {
  const row = runById(env.db, e.runId);
  const where = row && currentRepo(env, row.repoId);
  if (!where) return; // deleted meanwhile
  const wantsRun = anyHookWants(env, where.repo, "workflow_run");
  const wantsJob = anyHookWants(env, where.repo, "workflow_job");
  if (!wantsRun && !wantsJob) return;
  const run = findRun(env, where.repo.id, e.runId);
  if (!run) return;
  const jobIds = e.kind === "run-created" ? jobsOfRun(env.db, run.run.id).map((j) => j.id) : e.jobIds;
  const announce = e.kind === "run-created" ? "requested" : (runAnnouncement(e.runStatusBefore, run.run.status) ?? rerunAnnouncement(env, run));
  if (e.kind === "run-created" && wantsRun) await sendRun(env, where.repo, where.owner, run, "requested");
  if (wantsJob) {
    for (const id of jobIds) {
      const job = findJob(env, run.run.repoId, id);
      if (job) await sendJob(env, where.repo, where.owner, run.triggerUser, job);
    }
  }
  if (e.kind === "jobs-changed" && announce && wantsRun) await sendRun(env, where.repo, where.owner, run, announce);
}

function findRun(env: Env, repoId: number, runId: number): RunItem | undefined {
  try {
    return runItem(env, repoId, runId);
  } catch {
    return undefined;
  }
}

function findJob(env: Env, repoId: number, jobId: number): JobItem | undefined {
  try {
    return jobItem(env, repoId, jobId);
  } catch {
    return undefined;
  }
}

/**
 * Gitea's WorkflowRunStatusUpdate: the payload needs the run's workflow as the default branch has
 * it; a run of a workflow the default branch does not have (a pull request's own file) is not
 * announced, as Gitea's GetActionWorkflow fails and it logs and returns.
 */
async function sendRun(env: Env, repo: RepoRow, owner: UserRow, item: RunItem, action: string): Promise<void> {
  if (!firstTime(env, `run:${item.run.id}`, `${action}/${runAttempt(env, item)}`)) return;
  let workflow;
  try {
    workflow = toAPIWorkflow(env.settings, { repo, owner }, await getWorkflow(env, { repo, owner }, item.run.workflowId));
  } catch (err) {
    env.log.warn("workflow_run webhook not sent: workflow not on the default branch", { repo: repo.id, run: item.run.id, error: (err as Error).message });
    return;
  }
  const payload = {
    action,
    workflow,
    workflow_run: toAPIWorkflowRun(env.settings, item),
    ...organizationOf(env, owner),
    repository: repoJson(env, repo, owner, "owner"),
    sender: userJson(env, item.triggerUser),
  };
  await fire(env, "workflow_run", payload, repo, owner);
}

/** Gitea's WorkflowJobStatusUpdate: the job with its latest task's steps and runner. */
async function sendJob(env: Env, repo: RepoRow, owner: UserRow, sender: UserRow, item: JobItem): Promise<void> {
  if (!firstTime(env, `job:${item.job.id}`, `${item.job.status}/${item.job.attempt}`)) return;
  const payload = {
    action: workflowJobAction(item.job.status),
    workflow_job: toAPIWorkflowJob(env.settings, item),
    ...organizationOf(env, owner),
    repository: repoJson(env, repo, owner, "owner"),
    sender: userJson(env, sender),
  };
  await fire(env, "workflow_job", payload, repo, owner);
}
