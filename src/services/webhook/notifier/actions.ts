import type { Env } from "../../env.ts";
import type { RepoRow, UserRow } from "../../../db/schema/index.ts";
import type { ActionsEvent } from "../../actions/events.ts";
import { jobsOfRun, runById } from "../../../models/actions-run.ts";
import { jobItem, runItem, type JobItem, type RunItem } from "../../actions/api-views.ts";
import { getWorkflow } from "../../actions/api-workflows.ts";
import { githubStatus, isDone } from "../../actions/status.ts";
import { ActionStatus, UserType } from "../../../db/schema/index.ts";
import { anyHookWants, currentRepo } from "../sources.ts";
import { toAPIWorkflow, toAPIWorkflowJob, toAPIWorkflowRun } from "../../../convert/actions.ts";
import { toAPIOrganization } from "../../../convert/org.ts";
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
  return githubStatus(status).status;
}

function organizationOf(env: Env, owner: UserRow): Record<string, unknown> {
  return owner.type === UserType.Organization ? { organization: toAPIOrganization(env.settings, owner) } : {};
}

/**
 * What a change of the run's state announces, as Gitea's notifiers call WorkflowRunStatusUpdate:
 * `requested` when it is created (or re-run), `in_progress` when it starts running, `completed`
 * when its last job is done. A run going back to waiting between two jobs is not announced.
 */
function runAnnouncement(e: Extract<ActionsEvent, { kind: "jobs-changed" }>): string | undefined {
  const action = workflowRunAction(e.runStatus);
  if (!action || action === workflowRunAction(e.runStatusBefore)) return undefined;
  if (action === "requested" && !isDone(e.runStatusBefore)) return undefined;
  // Back to running after waiting between two jobs is not a new start.
  if (action === "in_progress" && !e.runStarted) return undefined;
  return action;
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
  // The states this change left (the rows may have moved on since): a re-run is requested again.
  const jobIds = e.kind === "run-created" ? jobsOfRun(env.db, run.run.id).map((j) => j.id) : e.jobIds;
  const announce = e.kind === "run-created" ? "requested" : e.rerun ? "requested" : runAnnouncement(e);
  const runAsChanged = e.kind === "jobs-changed" ? { ...run, run: { ...run.run, status: e.runStatus } } : run;
  if (e.kind === "run-created" && wantsRun) await sendRun(env, where.repo, where.owner, run, "requested");
  if (wantsJob) {
    for (const id of jobIds) {
      const job = findJob(env, run.run.repoId, id);
      const status = e.kind === "jobs-changed" ? e.jobStatuses[String(id)] : undefined;
      if (job) await sendJob(env, where.repo, where.owner, run.triggerUser, status === undefined ? job : { ...job, job: { ...job.job, status } });
    }
  }
  if (e.kind === "jobs-changed" && announce && wantsRun) await sendRun(env, where.repo, where.owner, runAsChanged, announce);
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
  const payload = {
    action: workflowJobAction(item.job.status),
    workflow_job: toAPIWorkflowJob(env.settings, item),
    ...organizationOf(env, owner),
    repository: repoJson(env, repo, owner, "owner"),
    sender: userJson(env, sender),
  };
  await fire(env, "workflow_job", payload, repo, owner);
}
