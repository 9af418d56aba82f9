import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import type { RepoRow } from "../../db/schema/index.ts";
import type { Delivery } from "../webhook/payload-subscription.ts";
import * as schedules from "../../models/actions-schedule.ts";
import { disabledWorkflows } from "../../models/actions-run.ts";
import { getRepoById } from "../../models/repo.ts";
import { getUserById } from "../../models/user.ts";
import { gitDirOf } from "../repo/lookup.ts";
import { readWorkflowFiles, type WorkflowFile } from "../../git/workflows.ts";
import { readCommit } from "../../git/tree.ts";
import { resolveRevision } from "../../git/objects.ts";
import { parseWorkflow } from "../../lib/actions/workflow.ts";
import { CronError, nextRun, parseCron } from "../../lib/actions/cron.ts";
import { nowUnix } from "../../lib/time.ts";
import { ACTIONS_BOT_ID, actionsBot } from "./bot.ts";
import { actionsEnabledFor, startDirectRun } from "./trigger.ts";

/**
 * Scheduled workflows as Gitea 1.25 runs them (services/actions/notifier_helper.go handleSchedules,
 * schedule_tasks.go, models/actions/schedule*.go): the workflows with `on: schedule` on the default
 * branch's tip are remembered with their cron lines; a tick once a minute starts a run of each
 * line whose time has come, at the commit that was remembered, as the Actions bot.
 */

/** What a refresh starts from: the commit on the default branch and the event that moved it there. */
export interface ScheduleSource {
  repo: RepoRow;
  /** The default branch's commit whose workflow files count. */
  sha: string;
  /** That event's payload, which scheduled runs carry as `github.event` (Gitea stores `null` when there is none). */
  payload: unknown;
}

/** The cron lines of a workflow's `on.schedule` (act's OnSchedule: every entry's `cron` key). */
export function scheduleSpecs(content: string): string[] {
  const workflow = parseWorkflow(content);
  return workflow.on
    .filter((e) => e.name === "schedule")
    .flatMap((e) => (e.schedules ?? []).map((entry) => entry.cron).filter((c): c is string => typeof c === "string"));
}

interface Found {
  file: WorkflowFile;
  specs: string[];
}

/** Gitea's DetectScheduledWorkflows: the workflow files of the commit with at least one cron line. */
async function scheduledWorkflows(env: Env, gitDir: string, repo: RepoRow, sha: string): Promise<Found[]> {
  const found: Found[] = [];
  for (const file of await readWorkflowFiles(gitDir, sha)) {
    let specs: string[];
    try {
      specs = scheduleSpecs(file.content);
    } catch (err) {
      env.log.warn("workflow file ignored for schedules", { repo: repo.id, file: `${file.dir}/${file.name}`, error: (err as Error).message });
      continue;
    }
    if (specs.length > 0) found.push({ file, specs });
  }
  return found;
}

/** When a spec fires next after `now`; undefined for one that does not parse or never fires ("0 0 30 2 *"). */
function firstRun(spec: string, now: number): number | undefined {
  try {
    return nextRun(parseCron(spec), now);
  } catch (err) {
    if (err instanceof CronError) return undefined;
    throw err;
  }
}

/**
 * Gitea's handleSchedules: the repository's schedules are replaced by the scheduled workflows of
 * the commit, in one transaction. Workflows switched off are kept (the tick passes them over, so
 * switching one on again needs no push); a cron line that does not parse is left out.
 */
export async function refreshSchedules(env: Env, src: ScheduleSource, now = nowUnix()): Promise<number> {
  const owner = getUserById(env.db, src.repo.ownerId);
  if (!owner) return 0;
  const gitDir = gitDirOf(env, owner, src.repo);
  const found = await scheduledWorkflows(env, gitDir, src.repo, src.sha);
  const title = found.length ? ((await readCommit(gitDir, src.sha))?.message ?? "").split("\n")[0]!.trim().slice(0, 255) : "";
  const eventPayload = JSON.stringify(src.payload ?? null);
  return writeTx(env.db, (tx) => {
    schedules.deleteSchedulesOfRepo(tx, src.repo.id);
    let specs = 0;
    for (const { file, specs: lines } of found) {
      const schedule = schedules.insertSchedule(tx, {
        title,
        repoId: src.repo.id,
        ownerId: src.repo.ownerId,
        workflowId: file.name,
        workflowDir: file.dir,
        triggerUserId: ACTIONS_BOT_ID,
        ref: `refs/heads/${src.repo.defaultBranch}`,
        commitSha: src.sha,
        eventPayload,
        content: file.content,
        createdUnix: now,
      });
      for (const spec of lines) {
        const next = firstRun(spec, now);
        if (next === undefined) continue;
        schedules.insertSpec(tx, { repoId: src.repo.id, scheduleId: schedule.id, spec, nextUnix: next });
        specs++;
      }
    }
    return specs;
  });
}

/**
 * Gitea's DetectAndHandleSchedules: the schedules of the default branch's tip, for a repository
 * whose Actions were switched on, that was unarchived or that came to be with content. Nothing for
 * an empty or archived repository.
 */
export async function detectSchedules(env: Env, repo: RepoRow, now = nowUnix()): Promise<number> {
  if (repo.isEmpty || repo.isArchived) return 0;
  const owner = getUserById(env.db, repo.ownerId);
  if (!owner) return 0;
  const sha = await resolveRevision(gitDirOf(env, owner, repo), `refs/heads/${repo.defaultBranch}`, "commit");
  if (!sha) return 0;
  return refreshSchedules(env, { repo, sha, payload: null }, now);
}

/** Gitea's CleanRepoScheduleTasks: Actions were switched off for the repository (or it is gone). */
export function cleanRepoSchedules(env: Env, repoId: number): void {
  writeTx(env.db, (tx) => void schedules.deleteSchedulesOfRepo(tx, repoId));
}

const ZERO = /^0+$/;
const text = (v: unknown): string => (typeof v === "string" ? v : "");

/**
 * Gitea's notify() as far as schedules go, for the payloads the webhook notifier builds: a push to
 * the default branch replaces the schedules with those of the pushed commit, the push's payload
 * stored for the runs; the Actions bot's push does too (a scheduled workflow that commits must
 * see its own change), from the branch's tip as Gitea's DetectAndHandleSchedules. A user's push
 * to an archived repository, to one with Actions off, or one that asks to skip CI changes
 * nothing. A repository created with content has its schedules found at once; a deleted one
 * loses them.
 */
export async function schedulesAfter(env: Env, d: Delivery): Promise<void> {
  if (!env.settings.actions.enabled) return;
  const payload = d.payload as Record<string, unknown>;
  if (d.event === "repository") {
    if (payload.action === "deleted") return cleanRepoSchedules(env, d.repo.id);
    const repo = getRepoById(env.db, d.repo.id);
    if (payload.action === "created" && repo?.hasActions) await detectSchedules(env, repo);
    return;
  }
  if (d.event !== "push") return;
  const repo = getRepoById(env.db, d.repo.id);
  const after = text(payload.after);
  if (!repo || text(payload.ref) !== `refs/heads/${repo.defaultBranch}` || !after || ZERO.test(after)) return;
  if (d.doer.id === ACTIONS_BOT_ID) {
    await detectSchedules(env, repo);
    return;
  }
  if (!actionsEnabledFor(env, repo)) return;
  const head = payload.head_commit as { message?: unknown } | null | undefined;
  const message = text(head?.message);
  if (env.settings.actions.skipWorkflowStrings.some((s) => message.includes(s))) return;
  await refreshSchedules(env, { repo, sha: after, payload });
}

/** A schedule's stored payload as an object (Gitea stores `null` when the refresh had no event). */
function storedPayload(json: string): Record<string, unknown> {
  try {
    const v = JSON.parse(json) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const PAGE = 50;

/**
 * Gitea's StartScheduleTasks, for the minute of `now`: every spec whose time has come moves on to
 * its next time (after the coming minute, as Gitea's `Next(now + 1m)`), then starts a run of its
 * workflow at the remembered commit as the Actions bot, with the stored payload and `schedule`
 * set to the cron line (GitHub's `github.event.schedule`). Moving first means a workflow that
 * cannot start is tried again at its next time, not at every tick.
 *
 * Passed over (and moved on, so nothing fires late in a burst once they are back): specs of an
 * archived or empty repository, of one whose Actions are off, of a workflow switched off. A spec
 * whose repository is gone is deleted with its schedules.
 */
export async function startDueSchedules(env: Env, now: number): Promise<number> {
  let started = 0;
  let after = 0;
  for (;;) {
    const page = schedules.dueSpecs(env.db, now, after, PAGE);
    for (const { spec, schedule } of page) {
      after = spec.id;
      const repo = getRepoById(env.db, schedule.repoId);
      const owner = repo && getUserById(env.db, repo.ownerId);
      if (!repo || !owner) {
        cleanRepoSchedules(env, schedule.repoId);
        continue;
      }
      const next = firstRun(spec.spec, now + 60);
      writeTx(env.db, (tx) => {
        if (next === undefined) schedules.deleteSpec(tx, spec.id);
        else schedules.moveSpec(tx, spec.id, spec.nextUnix, next);
      });
      if (!actionsEnabledFor(env, repo) || disabledWorkflows(env.db, repo.id).has(schedule.workflowId)) continue;
      try {
        const run = await startDirectRun(env, {
          repo,
          owner,
          doer: actionsBot(),
          hookEvent: "schedule",
          payload: { ...storedPayload(schedule.eventPayload), schedule: spec.spec },
          ref: schedule.ref,
          sha: schedule.commitSha,
          workflow: { dir: schedule.workflowDir, name: schedule.workflowId, content: schedule.content },
          scheduleId: schedule.id,
        });
        if (run) started++;
      } catch (err) {
        env.log.warn("scheduled workflow not started", { repo: repo.id, workflow: schedule.workflowId, spec: spec.spec, error: (err as Error).message });
      }
    }
    if (page.length < PAGE) return started;
  }
}
