import type { Env } from "../env.ts";

/**
 * The work queue of ref changes waiting to be announced (push-events.ts records and works them
 * out). Registered by the composition root; the module that works an item out, with the git and
 * issue code it needs, is imported by the first item, so a server that receives no push never
 * loads it.
 */
export const PUSH_ANNOUNCE_QUEUE = "push-announce";

export interface RefChange {
  ref: string;
  old: string;
  new: string;
}

export interface Announcement {
  repoId: number;
  pusherId: number;
  changes: RefChange[];
}

/** Registers the announcing worker: one push at a time, in the order they were recorded. */
export function registerPushAnnouncements(env: Env): void {
  env.queue.register<Announcement>(PUSH_ANNOUNCE_QUEUE, async (item) => (await import("./push-events.ts")).announcePush(env, item), {
    concurrency: 1,
  });
}
