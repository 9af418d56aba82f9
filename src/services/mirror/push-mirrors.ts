import { randomInt } from "node:crypto";
import type { Env } from "../env.ts";
import type { PushMirrorRow } from "../../db/schema/index.ts";
import { writeTx } from "../../db/client.ts";
import * as model from "../../models/push-mirror.ts";
import { BadRequest, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { DurationError, formatGoDuration, parseGoDuration } from "../../config/go-duration.ts";
import { parseRemoteAddress } from "./remote-address.ts";
import { sealCredentials } from "./credentials.ts";
import { queuePeriodicSync } from "./sync.ts";
import type { Administers } from "../access/repo-access.ts";

/** Gitea's answer on every push mirror route while `[mirror] ENABLED` is off. */
export function requireMirrorsEnabled(env: Env): void {
  if (!env.settings.mirror.enabled) throw new BadRequest("Mirror feature is disabled");
}

export interface CreatePushMirrorInput {
  remoteAddress: string;
  remoteUsername: string;
  remotePassword: string;
  interval: string;
  syncOnCommit: boolean;
}

const ALPHANUMERIC = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** Gitea's util.CryptoRandomString. */
function randomSuffix(n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return s;
}

/**
 * Gitea's CreatePushMirror: the interval is a Go duration, 0 or at least `[mirror] MIN_INTERVAL`
 * (400 otherwise, even when absent: Go refuses an empty duration); the address is checked (400 /
 * 401, see parseRemoteAddress); the remote is named `remote_mirror_` + 10 random characters.
 */
export async function createPushMirror(env: Env, rc: Administers, input: CreatePushMirrorInput): Promise<PushMirrorRow> {
  const repoId = rc.repo.id;
  requireMirrorsEnabled(env);
  // Gitea's API ignores DISABLE_NEW_PUSH (only its web form honours it); hearth honours it here too.
  if (env.settings.mirror.disableNewPush) throw new BadRequest("Creating new push mirrors is disabled");
  let intervalNs: number;
  try {
    intervalNs = parseGoDuration(input.interval);
  } catch (err) {
    if (err instanceof DurationError) throw new BadRequest(err.message);
    throw err;
  }
  const min = env.settings.mirror.minIntervalNs;
  if (intervalNs !== 0 && intervalNs < min) {
    throw new BadRequest(`interval must be 0 (no periodic sync) or at least ${formatGoDuration(min)}`);
  }
  const remote = await parseRemoteAddress(env, input.remoteAddress, input.remoteUsername, input.remotePassword);
  return writeTx(env.db, (tx) => {
    const row = model.insertPushMirror(tx, {
      repoId,
      remoteName: "remote_mirror_" + randomSuffix(10),
      remoteAddress: remote.address,
      syncOnCommit: input.syncOnCommit,
      intervalNs,
      createdUnix: nowUnix(),
    });
    const sealed = sealCredentials(env, row, remote.credentials);
    if (sealed) model.setPushMirrorCredentials(tx, row.id, sealed);
    if (intervalNs > 0) queuePeriodicSync(env, tx, row.id);
    return { ...row, remoteCredentials: sealed };
  });
}

export function listPushMirrors(env: Env, repoId: number, page: { offset: number; limit: number }): { items: PushMirrorRow[]; total: number } {
  requireMirrorsEnabled(env);
  const { rows, total } = model.listPushMirrors(env.db, repoId, page);
  return { items: rows, total };
}

export function getPushMirror(env: Env, repoId: number, remoteName: string): PushMirrorRow {
  requireMirrorsEnabled(env);
  const m = model.getPushMirrorByName(env.db, repoId, remoteName);
  if (!m) throw new NotFound("The target couldn't be found.");
  return m;
}

/** Gitea's DeletePushMirrors by remote name: 404 when the repository has none of that name. */
export function deletePushMirror(env: Env, rc: Administers, remoteName: string): void {
  const repoId = rc.repo.id;
  requireMirrorsEnabled(env);
  writeTx(env.db, (tx) => {
    const m = model.getPushMirrorByName(tx, repoId, remoteName);
    if (!m) throw new NotFound("PushMirror does not exist");
    // Its queued syncs find no mirror and end.
    model.deletePushMirror(tx, m.id);
  });
}
