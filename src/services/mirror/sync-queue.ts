import type { Env } from "../env.ts";

/**
 * The push mirror queue (sync.ts puts and works its items), registered by the composition root.
 * The pushing code is imported by the first sync, so a server without push mirrors never loads it.
 */
export const PUSH_MIRROR_QUEUE = "push_mirror";

export interface SyncItem {
  mirrorId: number;
  periodic?: true;
}

/** Declares the queue's handler; called once when the Env is made. Nothing syncs while `[mirror] ENABLED` is off. */
export function registerPushMirrorSync(env: Env): void {
  if (!env.settings.mirror.enabled) return;
  env.queue.register<SyncItem>(PUSH_MIRROR_QUEUE, async (item, job) => (await import("./sync.ts")).runSync(env, item, job), {
    concurrency: 4,
    // Longer than a push may take (it is cut at [git.timeout] MIRROR), with room to record it.
    leaseMs: env.settings.gitTimeout.mirror * 1000 + 60_000,
    maxAttempts: 3,
    backoffMs: (n) => 60_000 * n,
  });
}
