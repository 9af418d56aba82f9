import type { Env } from "../env.ts";
import type { Tx } from "../../db/client.ts";
import type { PushMirrorRow } from "../../db/schema/index.ts";
import { writeTx } from "../../db/client.ts";
import * as model from "../../models/push-mirror.ts";
import * as repos from "../../models/repo.ts";
import * as users from "../../models/user.ts";
import { nowUnix } from "../../lib/time.ts";
import { pushMirrorRefs } from "../../git/remote.ts";
import type { Job, JobResult } from "../../queue/work-queue.ts";
import { gitDirOf } from "../repo/lookup.ts";
import { mirrorRemote } from "./remote-address.ts";
import { maskUrlCredentials } from "../../lib/url-credentials.ts";
import { openCredentials } from "./credentials.ts";
import type { Administers } from "../access/repo-access.ts";
import { PUSH_MIRROR_QUEUE, type SyncItem } from "./sync-queue.ts";
import { BUSY_RETRY_MS, exclusively } from "./one-at-a-time.ts";
import { queueItemStates } from "../../models/queue.ts";

/**
 * Push mirror syncs run from the persistent work queue `push_mirror`. An item is
 * `{mirrorId}` for one sync (requested through the API, or after a push with sync_on_commit) or
 * `{mirrorId, periodic: true}` for the mirror's interval: that item stays in the queue, run again
 * `interval` after the mirror's last sync, until the mirror is gone. Each sync records when it ran
 * and its error (Gitea's last_update / last_error); a failed sync is not retried before the next
 * trigger, as in Gitea.
 */

/** Queues the periodic item of a new mirror with an interval, in `tx`: due at once, as Gitea's next update finds it never synced. */
export function queuePeriodicSync(env: Env, tx: Tx, mirrorId: number): void {
  env.queue.put(tx, PUSH_MIRROR_QUEUE, { mirrorId, periodic: true } satisfies SyncItem);
}

/** Queues one sync of each mirror, unless one is already waiting to start. */
function queueSyncs(env: Env, mirrors: PushMirrorRow[]): void {
  if (mirrors.length === 0) return;
  writeTx(env.db, (tx) => {
    const now = Date.now();
    for (const m of mirrors) {
      const item = { mirrorId: m.id } satisfies SyncItem;
      if (!queueItemStates(tx, PUSH_MIRROR_QUEUE, JSON.stringify(item), now).waiting) env.queue.put(tx, PUSH_MIRROR_QUEUE, item);
    }
  });
}

/** Gitea's PushMirrorSync: every mirror of the repository is queued for a sync. */
export function syncRepoPushMirrors(env: Env, rc: Administers): void {
  const repoId = rc.repo.id;
  queueSyncs(env, model.listPushMirrors(env.db, repoId).rows);
}

/**
 * After a push (Gitea's syncPushMirrorWithSyncOnCommit): the mirrors with sync_on_commit are
 * queued. Never fails the push: a failure to queue is logged.
 */
export function syncPushMirrorsOnCommit(env: Env, repoId: number): void {
  if (!env.settings.mirror.enabled) return;
  try {
    queueSyncs(env, model.listSyncOnCommitMirrors(env.db, repoId));
  } catch (err) {
    env.log.error("push mirrors: could not queue the syncs after a push", { repo: repoId, error: (err as Error).message });
  }
}

/** Pushes to the mirror's remote and returns the error to record ("" for none), free of credentials. */
async function push(env: Env, m: PushMirrorRow): Promise<string | undefined> {
  const repo = repos.getRepoById(env.db, m.repoId);
  const owner = repo && users.getUserById(env.db, repo.ownerId);
  if (!repo || !owner) return undefined;
  const remote = await mirrorRemote(env, m.remoteAddress, () => openCredentials(env, m));
  if ("error" in remote) return remote.error;
  const outcome = await pushMirrorRefs(gitDirOf(env, owner, repo), remote);
  // The credentials travel in a header, never in the address: only URLs in the message can carry any.
  return outcome.ok ? "" : maskUrlCredentials(outcome.message);
}

/** Syncs a mirror now and records the outcome; false when the mirror or its repository is gone. */
async function syncNow(env: Env, m: PushMirrorRow): Promise<boolean> {
  const error = await push(env, m);
  if (error === undefined) return false;
  if (error) env.log.warn("push mirror sync failed", { mirror: m.id, remote: m.remoteName, error });
  writeTx(env.db, (tx) => model.recordPushMirrorSync(tx, m.id, nowUnix(), error));
  return true;
}

/** The queue handler (sync-queue.ts registers it). */
export async function runSync(env: Env, item: SyncItem, job: Job): Promise<JobResult> {
  if (!item.periodic) return runOnce(env, item, job);
  try {
    return await runOnce(env, item, job);
  } catch (err) {
    // The periodic item must outlive a failed run (the queue would drop it after its attempts).
    env.log.error("push mirror: periodic sync failed", { mirror: item.mirrorId, error: (err as Error).message });
    return { retryInMs: 60_000 };
  }
}

async function runOnce(env: Env, item: SyncItem, _job: Job): Promise<JobResult> {
  const m = model.getPushMirrorById(env.db, item.mirrorId);
  if (!m) return;
  const intervalMs = m.intervalNs / 1e6;
  if (item.periodic) {
    if (intervalMs <= 0) return;
    // Synced meanwhile by another trigger: the interval counts from that sync (Gitea's last_update rule).
    const dueMs = m.lastUpdateUnix * 1000 + intervalMs;
    if (dueMs - Date.now() > 1000) return { retryInMs: dueMs - Date.now() };
  }
  const outcome = await exclusively(env, "push", m.id, async () => {
    const repo = repos.getRepoById(env.db, m.repoId);
    // Gitea leaves archived repositories' mirrors alone; false: the mirror or its repository is gone.
    return !repo || repo.isArchived || (await syncNow(env, m));
  });
  if (!outcome.ran) return { retryInMs: BUSY_RETRY_MS };
  if (!outcome.value) return;
  return item.periodic ? { retryInMs: intervalMs } : undefined;
}
