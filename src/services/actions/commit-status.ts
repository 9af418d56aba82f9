import type { Env } from "../env.ts";
import { ActionStatus, type ActionRunJobRow, type ActionRunRow } from "../../db/schema/index.ts";
import * as runs from "../../models/actions-run.ts";
import { getRepoById } from "../../models/repo.ts";
import { getUserById } from "../../models/user.ts";
import { latestStatuses } from "../status/combine.ts";
import { createSystemCommitStatus } from "../status/statuses.ts";
import { nowUnix } from "../../lib/time.ts";
import { ACTIONS_BOT_ID } from "./bot.ts";
import { workflowDisplayName } from "./job-fields.ts";
import { duration, humanDuration } from "./status.ts";

const rec = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** The PR hook events whose runs report on the pull request's head (Gitea's createCommitStatus). */
const PULL_EVENTS = new Set([
  "pull_request",
  "pull_request_sync",
  "pull_request_assign",
  "pull_request_label",
  "pull_request_review_request",
  "pull_request_milestone",
]);

/** The event the status is named after and the commit it is set on, or undefined for events Gitea sets none for. */
function statusTarget(run: ActionRunRow): { event: string; sha: string } | undefined {
  if (run.event === "push" || run.event === "schedule" || run.event === "workflow_dispatch") return { event: run.event, sha: run.commitSha };
  if (run.event === "release") return { event: "release", sha: run.commitSha };
  if (PULL_EVENTS.has(run.event)) {
    let payload: Record<string, unknown> = {};
    try {
      payload = rec(JSON.parse(run.eventPayload));
    } catch {
      return undefined;
    }
    const sha = String(rec(rec(payload.pull_request).head).sha ?? "");
    if (!sha) return undefined;
    return { event: run.triggerEvent === "pull_request_target" ? "pull_request_target" : "pull_request", sha };
  }
  return undefined;
}

function stateOf(status: number): string {
  switch (status) {
    case ActionStatus.Success:
      return "success";
    case ActionStatus.Failure:
    case ActionStatus.Cancelled:
      return "failure";
    case ActionStatus.Skipped:
      return "skipped";
    case ActionStatus.Waiting:
    case ActionStatus.Blocked:
    case ActionStatus.Running:
      return "pending";
    default:
      return "warning";
  }
}

function descriptionOf(job: ActionRunJobRow, now: number): string {
  const took = humanDuration(duration(job.startedUnix, job.stoppedUnix, now));
  switch (job.status) {
    case ActionStatus.Success:
      return `Successful in ${took}`;
    case ActionStatus.Failure:
      return `Failing after ${took}`;
    case ActionStatus.Cancelled:
      return "Has been cancelled";
    case ActionStatus.Skipped:
      return "Has been skipped";
    case ActionStatus.Running:
      return "Has started running";
    case ActionStatus.Waiting:
      return "Waiting to run";
    case ActionStatus.Blocked:
      return "Blocked by required conditions";
    default:
      return "Unknown status";
  }
}

/**
 * Gitea's CreateCommitStatus for Actions: each job of a push, pull request, release, schedule or
 * dispatch run reports on its commit as `{workflow} / {job} ({event})`, created by the Actions bot
 * and linking to the job's page, so branch protection can require it. A status is added only
 * when the job's state or description changed.
 */
export function reportJobStatuses(env: Env, runId: number, jobIds?: number[]): void {
  const run = runs.runById(env.db, runId);
  if (!run) return;
  const target = statusTarget(run);
  if (!target) return;
  const repo = getRepoById(env.db, run.repoId);
  const owner = repo && getUserById(env.db, repo.ownerId);
  if (!repo || !owner) return;
  const jobs = runs.jobsOfRun(env.db, run.id);
  const latest = new Map(latestStatuses(env, repo.id, target.sha).map((s) => [s.context, s]));
  const now = nowUnix();
  const base = `${env.settings.server.rootUrl}${encodeURIComponent(owner.name)}/${encodeURIComponent(repo.name)}/actions/runs/${run.index}`;
  jobs.forEach((job, index) => {
    if (jobIds && !jobIds.includes(job.id)) return;
    const context = `${workflowDisplayName(job, run)} / ${job.name} (${target.event})`;
    const state = stateOf(job.status);
    const description = descriptionOf(job, now);
    const prev = latest.get(context);
    if (prev && prev.state === state && prev.description === description) return;
    createSystemCommitStatus(env, repo.id, ACTIONS_BOT_ID, target.sha, { state, description, context, targetUrl: `${base}/jobs/${index}` });
  });
}
