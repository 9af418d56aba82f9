import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import type { ActionRunnerRow } from "../../db/schema/index.ts";
import * as model from "../../models/actions-runner.ts";
import { ActionStatus } from "../../db/schema/index.ts";
import { runnersWithRunningTask } from "../../models/actions-task.ts";
import { constantTimeEqual, hashToken, newAccessToken } from "../../crypto/token.ts";
import { nowUnix } from "../../lib/time.ts";
import { NotFound } from "../../lib/errors.ts";
import { getUserByName } from "../../models/user.ts";
import { getRepoByOwner } from "../../models/repo.ts";

export type { RunnerLevel } from "../../models/actions-runner.ts";
import type { RunnerLevel } from "../../models/actions-runner.ts";

/** A runner not heard from for this long is offline (Gitea's RunnerOfflineTime). */
export const RUNNER_OFFLINE_SECONDS = 60;
/** A runner that reported on a task this recently is active, else idle (Gitea's RunnerIdleTime). */
export const RUNNER_IDLE_SECONDS = 10;

/** Gitea's registration token length: 40 characters. */
const newRegistrationToken = newAccessToken;

/**
 * Gitea's GetRegistrationToken (both the GET and the POST operation): the level's latest token
 * while no runner has used it, else a new one. A token registers one runner.
 */
export function registrationToken(env: Env, level: RunnerLevel): string {
  return writeTx(env.db, (tx) => {
    const latest = model.latestRunnerToken(tx, level);
    if (latest?.isActive) return latest.token;
    return model.insertRunnerToken(tx, level, newRegistrationToken(), nowUnix()).token;
  });
}

export class RegistrationRefused extends Error {}

export interface RegisterInput {
  token: string;
  name: string;
  labels: string[];
  version: string;
  ephemeral: boolean;
}

/** A new runner and the token it authenticates with from now on (shown this once; only its hash is kept). */
export function registerRunner(env: Env, input: RegisterInput): { runner: ActionRunnerRow; token: string } {
  if (!input.token || !input.name) throw new RegistrationRefused("missing runner token, name");
  const token = newAccessToken();
  return writeTx(env.db, (tx) => {
    const reg = model.findRunnerToken(tx, input.token);
    if (!reg) throw new RegistrationRefused("runner registration token not found");
    if (!model.spendRunnerToken(tx, reg.id)) throw new RegistrationRefused("runner registration token has been used or replaced, get a new one");
    const now = nowUnix();
    const runner = model.insertRunner(tx, {
      uuid: crypto.randomUUID(),
      name: truncateBytes(input.name, 255),
      version: truncateBytes(input.version, 64),
      ownerId: reg.ownerId,
      repoId: reg.repoId,
      tokenHash: hashToken(token),
      labelsJson: JSON.stringify(cleanLabels(input.labels)),
      ephemeral: input.ephemeral,
      lastOnlineUnix: 0,
      lastActiveUnix: 0,
      createdUnix: now,
      updatedUnix: now,
    });
    return { runner, token };
  });
}

function truncateBytes(s: string, max: number): string {
  const buf = Buffer.from(s);
  return buf.length <= max ? s : buf.subarray(0, max).toString("utf8").replace(/\uFFFD$/, "");
}

/** Labels as a runner declares them (`ubuntu-latest:docker://node:20`): the name before the colon counts, kept whole. */
function cleanLabels(labels: string[]): string[] {
  return [...new Set(labels.map((l) => l.trim()).filter(Boolean))].slice(0, 256);
}

/** The name a job's `runs-on` is matched against: a declared label's part before `:`. */
export const labelName = (label: string): string => label.split(":")[0]!;

export function runnerLabels(runner: Pick<ActionRunnerRow, "labelsJson">): string[] {
  try {
    const v = JSON.parse(runner.labelsJson) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

/**
 * The runner a request speaks for: its uuid and token must match one registered runner (the
 * token compared by hash, in constant time). Every call but Register needs it.
 */
export function authenticateRunner(env: Env, uuid: string, token: string): ActionRunnerRow | undefined {
  if (!uuid || !token) return undefined;
  const runner = model.runnerByUuid(env.db, uuid);
  if (!runner || !constantTimeEqual(runner.tokenHash, hashToken(token))) return undefined;
  return runner;
}

/**
 * Gitea's runner interceptor: every authenticated call is a sign of life; reports on a task
 * (UpdateTask, UpdateLog) make it active. Written at most once per second per kind.
 */
export function touchRunner(env: Env, runner: ActionRunnerRow, reporting: boolean): void {
  const now = nowUnix();
  const patch: Partial<ActionRunnerRow> = {};
  if (runner.lastOnlineUnix !== now) patch.lastOnlineUnix = now;
  if (reporting && runner.lastActiveUnix !== now) patch.lastActiveUnix = now;
  if (Object.keys(patch).length === 0) return;
  writeTx(env.db, (tx) => model.updateRunner(tx, runner.id, patch));
  Object.assign(runner, patch);
}

/** Declare: the runner's labels and version as it runs now. */
export function declareRunner(env: Env, runner: ActionRunnerRow, labels: string[], version: string): ActionRunnerRow {
  const patch = { labelsJson: JSON.stringify(cleanLabels(labels)), version: truncateBytes(version, 64), updatedUnix: nowUnix() };
  writeTx(env.db, (tx) => model.updateRunner(tx, runner.id, patch));
  return { ...runner, ...patch };
}

export type RunnerState = "offline" | "idle" | "active";

/** Gitea's ActionRunner.Status from the runner's last contact. */
export function runnerState(runner: Pick<ActionRunnerRow, "lastOnlineUnix" | "lastActiveUnix">, now = nowUnix()): RunnerState {
  if (now - runner.lastOnlineUnix > RUNNER_OFFLINE_SECONDS) return "offline";
  if (now - runner.lastActiveUnix > RUNNER_IDLE_SECONDS) return "idle";
  return "active";
}

export interface RunnerView {
  runner: ActionRunnerRow;
  labels: string[];
  state: RunnerState;
  /** Holds a task that has not finished. */
  busy: boolean;
}

/** The runners as the API shows them, whether each holds a running task read in one query. */
function viewsOf(env: Env, runners: ActionRunnerRow[]): RunnerView[] {
  const running = runnersWithRunningTask(env.db, runners.map((r) => r.id), ActionStatus.Running);
  return runners.map((runner) => {
    const state = runnerState(runner);
    return { runner, labels: runnerLabels(runner), state, busy: state === "active" || running.has(runner.id) };
  });
}

export function listRunners(env: Env, level: RunnerLevel, page: { offset: number; limit: number }): { items: RunnerView[]; total: number } {
  const { rows, total } = model.listRunners(env.db, level, page);
  return { items: viewsOf(env, rows), total };
}

/** Gitea's EditableInContext: the instance reaches every runner, a level only its own. */
function belongsTo(runner: ActionRunnerRow, level: RunnerLevel): boolean {
  if ("repoId" in level) return runner.repoId === level.repoId;
  if ("ownerId" in level) return runner.ownerId === level.ownerId && runner.repoId === 0;
  return true;
}

export function getRunner(env: Env, level: RunnerLevel, id: number): RunnerView {
  const runner = model.runnerById(env.db, id);
  if (!runner || !belongsTo(runner, level)) throw new NotFound("Runner not found");
  return viewsOf(env, [runner])[0]!;
}

export function deleteRunner(env: Env, level: RunnerLevel, id: number): void {
  const { runner } = getRunner(env, level, id);
  writeTx(env.db, (tx) => model.deleteRunner(tx, runner.id));
}

/**
 * The level a `gitea actions generate-runner-token --scope` names: "" the instance, `owner` a
 * user or organization, `owner/repo` a repository (Gitea's GenerateActionsRunnerToken).
 */
export function runnerLevelOfScope(env: Env, scope: string): RunnerLevel {
  const s = scope.trim();
  if (!s) return { site: true };
  const [ownerName, repoName, extra] = s.split("/");
  if (extra !== undefined || !ownerName) throw new NotFound(`bad scope ${JSON.stringify(scope)}: expected owner or owner/repo`);
  const owner = getUserByName(env.db, ownerName);
  if (!owner) throw new NotFound(`user redirect does not exist [name: ${ownerName}]`);
  if (repoName === undefined) return { ownerId: owner.id };
  const repo = getRepoByOwner(env.db, owner.id, repoName);
  if (!repo) throw new NotFound(`repository does not exist [name: ${ownerName}/${repoName}]`);
  return { repoId: repo.id };
}
