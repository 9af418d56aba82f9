import type { Env } from "../env.ts";
import type { Tx } from "../../db/client.ts";

/**
 * The pull mirror queue (pull-sync.ts puts and works its items), registered by the composition
 * root. The fetching code is imported by the first sync, so a server without pull mirrors never
 * loads it.
 *
 * An item is `{repoId}` for one sync (asked through the API or the settings page), or
 * `{repoId, periodic: true}` for the mirror's interval: that one item stays in the queue, run again
 * at the mirror's next_update_unix, until the mirror is gone or its interval is 0.
 */
export const PULL_MIRROR_QUEUE = "pull_mirror";

export interface PullSyncItem {
  repoId: number;
  periodic?: true;
}

/** The item of a repository, always built alike, so that its stored payload can be found again. */
export function pullSyncItem(repoId: number, periodic: boolean): PullSyncItem {
  return periodic ? { repoId, periodic: true } : { repoId };
}

/** The item's payload exactly as the queue stores it. */
export const pullSyncPayload = (repoId: number, periodic: boolean): string => JSON.stringify(pullSyncItem(repoId, periodic));

/** Puts a repository's item in `tx`, due after `delayMs`. */
export function putPullSync(env: Env, tx: Tx, repoId: number, periodic: boolean, delayMs = 0): void {
  env.queue.put(tx, PULL_MIRROR_QUEUE, pullSyncItem(repoId, periodic), { delayMs });
}

/** Declares the queue's handler; called once when the Env is made. Nothing syncs while `[mirror] ENABLED` is off. */
export function registerPullMirrorSync(env: Env): void {
  if (!env.settings.mirror.enabled) return;
  env.queue.register<PullSyncItem>(PULL_MIRROR_QUEUE, async (item, job) => (await import("./pull-sync.ts")).runPullSync(env, item, job), {
    concurrency: 4,
    // Longer than a fetch may take (it is cut at [git.timeout] MIRROR), with room to process it as a push.
    leaseMs: env.settings.gitTimeout.mirror * 1000 + 120_000,
    maxAttempts: 3,
    backoffMs: (n) => 60_000 * n,
  });
}
