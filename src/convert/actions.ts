import type { Settings } from "../config/settings.ts";
import type { ActionRunRow } from "../db/schema/index.ts";
import type { RunnerView } from "../services/actions/runners.ts";
import type { JobItem, RunItem, ShownRepo, TaskItem } from "../services/actions/api-views.ts";
import type { WorkflowInfo } from "../services/actions/api-workflows.ts";
import { githubStatus, statusName } from "../services/actions/status.ts";
import { toRFC3339 } from "../lib/time.ts";
import { toAPIRepo, repoLinks } from "./repo.ts";
import { toAPIUser } from "./user.ts";
import { gitTime } from "./commit.ts";
import type {
  APIActionRunner,
  APIActionTask,
  APIActionWorkflow,
  APIActionWorkflowJob,
  APIActionWorkflowRun,
  APIActionWorkflowStep,
} from "../shapes/actions.ts";
import { jobRunsOn } from "../services/actions/job-fields.ts";
import type { APIRepository } from "../shapes/repo.ts";

/** Go's zero time.Time, which Gitea writes for a time it never sets (a workflow's `deleted_at`). */
const GO_ZERO_TIME = "0001-01-01T00:00:00Z";

/** Gitea's TimeStamp.AsTime().UTC(): Unix seconds in UTC, `0` being 1970. */
const utcTime = (unix: number): string => `${new Date(unix * 1000).toISOString().slice(0, 19)}Z`;

const pathEscape = (s: string): string => s.split("/").map(encodeURIComponent).join("/");

/** The part of a ref after refs/heads/ (Gitea's RefName.BranchName: empty for anything else). */
const branchName = (ref: string): string => (ref.startsWith("refs/heads/") ? ref.slice("refs/heads/".length) : "");

/** Gitea's ActionRun.PrettyRef: `#N` for a pull request's ref, else the ref's short name. */
function prettyRef(ref: string): string {
  const pull = /^refs\/pull\/(.+)\/head$/.exec(ref);
  if (pull) return `#${pull[1]}`;
  for (const prefix of ["refs/heads/", "refs/tags/", "refs/remotes/", "refs/"]) if (ref.startsWith(prefix)) return ref.slice(prefix.length);
  return ref;
}

function repoJson(settings: Settings, view: ShownRepo): APIRepository {
  const { parent, ...rest } = view;
  return toAPIRepo(settings, parent ? { ...rest, parent: repoJson(settings, parent) } : rest);
}

/** The run's web page (Gitea 1.25's ActionRun.HTMLURL: by the run's number in its repository). */
function runHtmlUrl(settings: Settings, repo: Pick<ShownRepo, "repo" | "owner">, run: Pick<ActionRunRow, "index">): string {
  return `${repoLinks(settings, repo.owner.name, repo.repo.name).html_url}/actions/runs/${run.index}`;
}

const apiUrl = (settings: Settings, repo: Pick<ShownRepo, "repo" | "owner">) => repoLinks(settings, repo.owner.name, repo.repo.name).url;

/** Gitea's convert.ToActionRunner: online while it was heard from lately, busy while it reports on a task. */
export function toAPIActionRunner(view: RunnerView): APIActionRunner {
  return {
    id: view.runner.id,
    name: view.runner.name,
    status: view.state === "offline" ? "offline" : "online",
    busy: view.state === "active",
    ephemeral: view.runner.ephemeral,
    labels: view.labels.map((name, i) => ({ id: i, name, type: "custom" })),
  };
}

/** Gitea's convert.ToActionWorkflowRun: the trigger user is both actor and trigger actor. */
export function toAPIWorkflowRun(settings: Settings, item: RunItem): APIActionWorkflowRun {
  const { run, repo, triggerUser } = item;
  const { status, conclusion } = githubStatus(run.status);
  const user = toAPIUser(settings, triggerUser, undefined);
  const branch = branchName(run.ref);
  return {
    id: run.id,
    url: `${apiUrl(settings, repo)}/actions/runs/${run.id}`,
    html_url: runHtmlUrl(settings, repo, run),
    display_title: run.title,
    path: `${run.workflowId}@${run.ref}`,
    event: run.event,
    run_attempt: 0,
    run_number: run.index,
    head_sha: run.commitSha,
    ...(branch ? { head_branch: branch } : {}),
    status,
    actor: user,
    trigger_actor: user,
    repository: repoJson(settings, repo),
    ...(conclusion ? { conclusion } : {}),
    started_at: toRFC3339(run.startedUnix),
    completed_at: toRFC3339(run.stoppedUnix),
  };
}

/**
 * Gitea's convert.ToActionWorkflowJob. Each step carries the job's status and conclusion, not its
 * own: Gitea 1.25 converts the job's state for every step, and so does this.
 */
export function toAPIWorkflowJob(settings: Settings, item: JobItem): APIActionWorkflowJob {
  const { job, run, repo, task } = item;
  const { status, conclusion } = githubStatus(job.status);
  const branch = branchName(run.ref);
  const labels = jobRunsOn(job);
  const steps: APIActionWorkflowStep[] | null = task
    ? task.steps.map((step, i) => ({
        name: step.name,
        number: i,
        status,
        ...(conclusion ? { conclusion } : {}),
        started_at: utcTime(step.startedUnix),
        completed_at: utcTime(step.stoppedUnix),
      }))
    : null;
  return {
    id: job.id,
    url: `${apiUrl(settings, repo)}/actions/jobs/${job.id}`,
    html_url: `${runHtmlUrl(settings, repo, run)}/jobs/${item.jobIndex}`,
    run_id: job.runId,
    run_url: `${apiUrl(settings, repo)}/actions/runs/${job.runId}`,
    name: job.name,
    labels,
    run_attempt: job.attempt,
    head_sha: run.commitSha,
    ...(branch ? { head_branch: branch } : {}),
    status,
    ...(conclusion ? { conclusion } : {}),
    ...(task && task.row.runnerId ? { runner_id: task.row.runnerId } : {}),
    ...(task && task.runnerName ? { runner_name: task.runnerName } : {}),
    // Gitea appends to a nil slice: a task without steps has `null` too.
    steps: steps && steps.length ? steps : null,
    created_at: utcTime(job.createdUnix),
    started_at: utcTime(job.startedUnix),
    completed_at: utcTime(job.stoppedUnix),
  };
}

/** Gitea's convert.ToActionTask: the task with its job's name and its run's details; its URL is the run's page. */
export function toAPIActionTask(settings: Settings, item: TaskItem): APIActionTask {
  const { task, job, run, repo } = item;
  return {
    id: task.id,
    name: job.name,
    head_branch: prettyRef(run.ref),
    head_sha: job.commitSha,
    run_number: run.index,
    event: run.triggerEvent,
    display_title: run.title,
    status: statusName(task.status),
    workflow_id: run.workflowId,
    url: runHtmlUrl(settings, repo, run),
    created_at: toRFC3339(task.createdUnix),
    updated_at: toRFC3339(task.updatedUnix),
    run_started_at: toRFC3339(task.startedUnix),
  };
}

/** Gitea's getActionWorkflowEntry: the file's API, web and badge addresses, and its state. */
export function toAPIWorkflow(settings: Settings, repo: Pick<ShownRepo, "repo" | "owner">, w: WorkflowInfo): APIActionWorkflow {
  const links = repoLinks(settings, repo.owner.name, repo.repo.name);
  const name = encodeURIComponent(w.file.name);
  const branch = repo.repo.defaultBranch;
  const when = gitTime(w.author);
  return {
    id: w.file.name,
    name: w.name,
    path: `${w.file.dir}/${w.file.name}`,
    state: w.disabled ? "disabled_manually" : "active",
    created_at: when,
    updated_at: when,
    url: `${links.url}/actions/workflows/${name}`,
    html_url: `${links.html_url}/src/branch/${pathEscape(branch)}/${pathEscape(w.file.dir)}/${name}`,
    badge_url: `${links.html_url}/actions/workflows/${name}/badge.svg?branch=${encodeURIComponent(branch)}`,
    deleted_at: GO_ZERO_TIME,
  };
}
