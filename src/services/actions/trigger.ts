import type { Env } from "../env.ts";
import { writeTx, type Tx } from "../../db/client.ts";
import { ActionStatus, type ActionRunRow, type RepoRow, type UserRow } from "../../db/schema/index.ts";
import * as runs from "../../models/actions-run.ts";
import { gitDirOf } from "../repo/lookup.ts";
import { readWorkflowFiles, changedPaths, type WorkflowFile } from "../../git/workflows.ts";
import { readCommit } from "../../git/tree.ts";
import { resolveRevision } from "../../git/objects.ts";
import { parseWorkflow, type Workflow } from "../../lib/actions/workflow.ts";
import { matchingEvents, triggerFromHook, isDefaultBranchHook, type Trigger } from "../../lib/actions/events.ts";
import { expandJobs } from "../../lib/actions/jobs.ts";
import type { ExpressionContext } from "../../lib/actions/expression.ts";
import { runTitle } from "../../lib/actions/run-name.ts";
import { shouldSkipRuns } from "../../lib/actions/skip-ci.ts";
import { evaluateConcurrency } from "../../lib/actions/concurrency.ts";
import { jobPermissions } from "../../lib/actions/permissions.ts";
import { nowUnix } from "../../lib/time.ts";
import { ACTIONS_BOT_ID } from "./bot.ts";
import { giteaContext } from "./context.ts";
import { variablesOfRepo } from "./secrets.ts";
import { prepareRun } from "./concurrency.ts";
import { settleRun } from "./settle.ts";
import { actionsEvents } from "./events.ts";
import { bumpTasksVersion } from "./tasks-version.ts";

/** An event that may start workflows, with the webhook payload Gitea builds for it. */
export interface TriggerInput {
  repo: RepoRow;
  owner: UserRow;
  doer: UserRow;
  /** Gitea's hook event (`push`, `pull_request_sync`, `issue_comment`...). */
  hookEvent: string;
  payload: Record<string, unknown>;
}

/** What a dispatched or scheduled run starts from: one workflow file at one commit. */
export interface DirectTrigger {
  repo: RepoRow;
  owner: UserRow;
  doer: UserRow;
  hookEvent: "workflow_dispatch" | "schedule";
  payload: Record<string, unknown>;
  ref: string;
  sha: string;
  workflow: WorkflowFile;
  inputs?: Record<string, unknown>;
  scheduleId?: number;
}

/** Whether Actions may run anything for the repository at all (Gitea's notify gate). */
export function actionsEnabledFor(env: Env, repo: Pick<RepoRow, "hasActions" | "isArchived" | "isEmpty">): boolean {
  return env.settings.actions.enabled && repo.hasActions && !repo.isArchived && !repo.isEmpty;
}

const str = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");
const rec = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const ZERO = /^0+$/;

/** Where an event's workflows come from and what the run is about. */
interface Source {
  trigger: Trigger;
  /** The commit whose workflow files count, and the run's commit. */
  sha: string;
  ref: string;
  /** For `pull_request_target` workflows: the base branch's commit and ref. */
  target?: { sha: string; ref: string };
  isForkPullRequest: boolean;
  /** What may ask to skip CI (`[skip ci]`): a push's head commit message, a pull request's title. */
  skip?: { commitMessage: string; pullRequestTitle?: string };
}

async function sourceOf(env: Env, input: TriggerInput, gitDir: string): Promise<Source | undefined> {
  const { payload, repo } = input;
  const translated = triggerFromHook(input.hookEvent, str(payload.action));
  if (!translated) return undefined;
  const defaultRef = `refs/heads/${repo.defaultBranch}`;
  const defaultSha = async () => (await resolveRevision(gitDir, defaultRef, "commit")) ?? "";
  const types = translated.types;
  switch (translated.event) {
    case "push": {
      const ref = str(payload.ref);
      const after = str(payload.after);
      if (!after || ZERO.test(after)) return undefined; // a deletion runs nothing
      const files = await changedPaths(gitDir, str(payload.before), after);
      const head = rec(payload.head_commit);
      return { trigger: { event: "push", ref, ...(files ? { changedFiles: files } : {}) }, sha: after, ref, isForkPullRequest: false, skip: { commitMessage: str(head.message) } };
    }
    case "pull_request": {
      const pr = rec(payload.pull_request);
      const head = rec(pr.head);
      const base = rec(pr.base);
      const sha = str(head.sha);
      if (!sha) return undefined;
      const mergeBase = str(pr.merge_base);
      const files = mergeBase ? await changedPaths(gitDir, mergeBase, sha) : undefined;
      const baseRef = str(base.ref);
      const baseSha = (await resolveRevision(gitDir, `refs/heads/${baseRef}`, "commit")) ?? str(base.sha);
      return {
        trigger: { event: "pull_request", types, baseRef, ...(files ? { changedFiles: files } : {}) },
        sha,
        ref: `refs/pull/${str(pr.number) || str(payload.number)}/head`,
        target: { sha: baseSha, ref: `refs/heads/${baseRef}` },
        isForkPullRequest: rec(head.repo).id !== rec(base.repo).id,
        skip: { commitMessage: "", pullRequestTitle: str(pr.title) },
      };
    }
    case "create": {
      const refType = str(payload.ref_type) === "tag" ? "tag" : "branch";
      const ref = `${refType === "tag" ? "refs/tags/" : "refs/heads/"}${str(payload.ref)}`;
      const sha = str(payload.sha) || ((await resolveRevision(gitDir, ref, "commit")) ?? "");
      return { trigger: { event: "create", refType }, sha, ref, isForkPullRequest: false };
    }
    case "delete": {
      const refType = str(payload.ref_type) === "tag" ? "tag" : "branch";
      return { trigger: { event: "delete", refType }, sha: await defaultSha(), ref: defaultRef, isForkPullRequest: false };
    }
    case "release": {
      const release = rec(payload.release);
      const ref = `refs/tags/${str(release.tag_name)}`;
      const sha = (await resolveRevision(gitDir, ref, "commit")) ?? "";
      return { trigger: { event: "release", types }, sha, ref, isForkPullRequest: false };
    }
    case "issues":
    case "issue_comment":
    case "pull_request_review":
    case "pull_request_review_comment":
    case "registry_package":
    case "fork":
    case "gollum": {
      const trigger = (
        translated.event === "issue_comment"
          ? { event: "issue_comment", types, onPull: Boolean(payload.is_pull) }
          : translated.event === "fork" || translated.event === "gollum"
            ? { event: translated.event }
            : { event: translated.event, types }
      ) as Trigger;
      // Review events read their workflows from the pull request's head, as Gitea does.
      if (!isDefaultBranchHook(input.hookEvent) && (translated.event === "pull_request_review" || translated.event === "pull_request_review_comment")) {
        const pr = rec(payload.pull_request);
        const sha = str(rec(pr.head).sha);
        if (sha) return { trigger, sha, ref: `refs/pull/${str(pr.number)}/head`, isForkPullRequest: rec(rec(pr.head).repo).id !== rec(rec(pr.base).repo).id };
      }
      return { trigger, sha: await defaultSha(), ref: defaultRef, isForkPullRequest: false };
    }
    default:
      return undefined;
  }
}

/**
 * Gitea's notify + handleWorkflows: the workflows of the event's commit whose `on:` matches the
 * event become runs. Events the Actions bot caused start nothing (a workflow that comments or
 * pushes would otherwise trigger itself forever); nor do archived or empty repositories, a
 * repository with Actions switched off, a disabled workflow, or a push or pull request that
 * asks to skip CI.
 */
export async function startRunsFor(env: Env, input: TriggerInput): Promise<ActionRunRow[]> {
  if (input.doer.id === ACTIONS_BOT_ID) return [];
  if (!actionsEnabledFor(env, input.repo)) return [];
  const gitDir = gitDirOf(env, input.owner, input.repo);
  const source = await sourceOf(env, input, gitDir);
  if (!source || !source.sha) return [];
  if (source.skip && shouldSkipRuns({ hookEvent: input.hookEvent, ...source.skip, skipStrings: env.settings.actions.skipWorkflowStrings })) return [];

  const disabled = runs.disabledWorkflows(env.db, input.repo.id);
  const planned: Planned[] = [];
  const consider = async (sha: string, ref: string, wanted: (name: string) => boolean) => {
    for (const file of await readWorkflowFiles(gitDir, sha)) {
      if (disabled.has(file.name)) continue;
      const workflow = parseOrLog(env, input.repo, file);
      if (!workflow) continue;
      for (const ev of matchingEvents(workflow.on, source.trigger)) {
        if (!wanted(ev.name)) continue;
        planned.push({ file, workflow, githubEvent: ev.name, sha, ref });
        break;
      }
    }
  };
  if (source.target) {
    // pull_request workflows come from the head commit; pull_request_target ones from the base branch.
    await consider(source.sha, source.ref, (n) => n !== "pull_request_target");
    if (source.target.sha) await consider(source.target.sha, source.target.ref, (n) => n === "pull_request_target");
  } else {
    await consider(source.sha, source.ref, () => true);
  }
  const created: ActionRunRow[] = [];
  for (const p of planned) {
    const run = await createRun(env, {
      repo: input.repo,
      owner: input.owner,
      doer: input.doer,
      hookEvent: input.hookEvent,
      githubEvent: p.githubEvent,
      payload: input.payload,
      ref: p.ref,
      sha: p.sha,
      file: p.file,
      workflow: p.workflow,
      isForkPullRequest: source.isForkPullRequest && p.githubEvent !== "pull_request_target",
    });
    if (run) created.push(run);
  }
  return created;
}

interface Planned {
  file: WorkflowFile;
  workflow: Workflow;
  githubEvent: string;
  sha: string;
  ref: string;
}

function parseOrLog(env: Env, repo: RepoRow, file: WorkflowFile): Workflow | undefined {
  try {
    return parseWorkflow(file.content);
  } catch (err) {
    env.log.warn("workflow file ignored", { repo: repo.id, file: `${file.dir}/${file.name}`, error: (err as Error).message });
    return undefined;
  }
}

/** A dispatched or scheduled run of one workflow file. */
export async function startDirectRun(env: Env, t: DirectTrigger): Promise<ActionRunRow | undefined> {
  const workflow = parseWorkflow(t.workflow.content);
  return createRun(env, {
    repo: t.repo,
    owner: t.owner,
    doer: t.doer,
    hookEvent: t.hookEvent,
    githubEvent: t.hookEvent,
    payload: t.payload,
    ref: t.ref,
    sha: t.sha,
    file: t.workflow,
    workflow,
    isForkPullRequest: false,
    inputs: t.inputs,
    scheduleId: t.scheduleId,
  });
}

interface NewRun {
  repo: RepoRow;
  owner: UserRow;
  doer: UserRow;
  hookEvent: string;
  githubEvent: string;
  payload: Record<string, unknown>;
  ref: string;
  sha: string;
  file: WorkflowFile;
  workflow: Workflow;
  isForkPullRequest: boolean;
  inputs?: Record<string, unknown>;
  scheduleId?: number;
}

/**
 * One run with its jobs (each job × matrix combination, as Gitea's job parser expands them):
 * jobs without `needs` wait for a runner, the others are blocked until theirs finish. The run's
 * title is its `run-name`, else the first line of the commit's message. A workflow-level
 * `concurrency` group cancels the group's unfinished runs (`cancel-in-progress`) or keeps the new
 * run blocked behind them.
 */
async function createRun(env: Env, r: NewRun): Promise<ActionRunRow | undefined> {
  const gitDir = gitDirOf(env, r.owner, r.repo);
  const commit = await readCommit(gitDir, r.sha);
  const vars = variablesOfRepo(env, r.repo);
  const github = giteaContext(env, {
    repo: r.repo,
    owner: r.owner,
    triggerUser: r.doer,
    event: r.githubEvent,
    ref: r.ref,
    sha: r.sha,
    payload: r.payload,
    workflowId: r.file.name,
    runId: 0,
    runIndex: 0,
  });
  const inputs = r.inputs ?? rec(r.payload.inputs);
  const ctx = { github, inputs, vars } satisfies ExpressionContext;
  const title = runTitle({ runName: r.workflow.runName, commitMessage: commit?.message ?? "", github, vars, inputs });
  let jobs;
  try {
    jobs = expandJobs(r.workflow, r.file.content, ctx);
  } catch (err) {
    env.log.warn("workflow jobs not expanded", { repo: r.repo.id, file: r.file.name, error: (err as Error).message });
    return undefined;
  }
  if (jobs.length === 0) return undefined;
  let group = "";
  let cancelInProgress = false;
  if (r.workflow.concurrency) {
    try {
      ({ group, cancelInProgress } = evaluateConcurrency(r.workflow.concurrency, ctx));
    } catch (err) {
      env.log.warn("concurrency not evaluated", { repo: r.repo.id, file: r.file.name, error: (err as Error).message });
      return undefined;
    }
  }
  const now = nowUnix();
  const run = writeTx(env.db, (tx) => {
    const { blocked: blockedByGroup, touched } = prepareRun(tx, r.repo.id, group, cancelInProgress, now);
    const run = runs.insertRun(tx, {
      title: title.length > 255 ? `${title.slice(0, 254)}…` : title,
      repoId: r.repo.id,
      ownerId: r.repo.ownerId,
      workflowId: r.file.name,
      workflowDir: r.file.dir,
      index: runs.nextRunIndex(tx, r.repo.id),
      triggerUserId: r.doer.id,
      scheduleId: r.scheduleId ?? 0,
      ref: r.ref,
      commitSha: r.sha,
      isForkPullRequest: r.isForkPullRequest,
      event: r.hookEvent,
      eventPayload: JSON.stringify(r.payload),
      triggerEvent: r.githubEvent,
      status: blockedByGroup ? ActionStatus.Blocked : ActionStatus.Waiting,
      concurrencyGroup: group,
      concurrencyCancel: cancelInProgress,
      createdUnix: now,
      updatedUnix: now,
    });
    for (const job of jobs) {
      runs.insertJob(tx, {
        runId: run.id,
        repoId: run.repoId,
        ownerId: run.ownerId,
        commitSha: run.commitSha,
        isForkPullRequest: run.isForkPullRequest,
        name: job.name.slice(0, 255),
        attempt: 0,
        workflowPayload: job.payload,
        jobId: job.jobId,
        needsJson: JSON.stringify(job.needs),
        runsOnJson: JSON.stringify(job.runsOn),
        rawConcurrency: job.concurrency ? JSON.stringify(job.concurrency) : "",
        tokenPermissions: tokenPermissionsOf(r.workflow, job.jobId),
        // A job with its own group is evaluated and placed in it by settleRun, below.
        status: job.needs.length > 0 || blockedByGroup || job.concurrency ? ActionStatus.Blocked : ActionStatus.Waiting,
        createdUnix: now,
        updatedUnix: now,
      });
    }
    actionsEvents.emit(tx, env, { kind: "run-created", runId: run.id });
    if (!blockedByGroup && jobs.some((j) => j.concurrency)) settleRun(env, tx, run.id, [], now);
    for (const id of touched) settleRun(env, tx, id, [], now);
    return run;
  });
  bumpTasksVersion();
  return run;
}

/** The `permissions:` a job's token gets (the job's own, else the workflow's), as stored: "" for none stated. */
function tokenPermissionsOf(workflow: Workflow, jobId: string): string {
  const job = workflow.jobs.find((j) => j.id === jobId);
  const perms = jobPermissions(workflow.raw.permissions, job?.raw.permissions);
  return perms ? JSON.stringify(perms) : "";
}

/** Re-exported for the scheduler and the dispatch operation, which name one workflow. */
export type { Tx };
