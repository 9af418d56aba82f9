import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { countQueueItems } from "../../models/queue.ts";
import { actionsWorkDue } from "../../models/actions-stale.ts";
import { nowUnix } from "../../lib/time.ts";
import { subscribePayloads, type PayloadSink } from "../webhook/payload-subscription.ts";

/**
 * Actions' background work, registered by the composition root: the cron tick (Gitea's
 * StartScheduleTasks, StopZombieTasks, StopEndlessTasks and CancelAbandonedJobs, once a minute)
 * and the refresh of scheduled workflows after a push to the default branch. The code doing
 * either is imported by its first tick or push, so a server without Actions never loads it.
 */
export const ACTIONS_CRON_QUEUE = "actions_cron";

/** A tick runs a second into each minute, after the minute's specs came due. */
const untilNextMinute = (nowMs: number) => 60_000 - (nowMs % 60_000) + 1_000;

/** Only pushes to the default branch and repository creation or deletion matter to schedules. */
const scheduleSink: PayloadSink = {
  mayWant: (env) => env.settings.actions.enabled,
  wants: (env, repo, event, branch) => env.settings.actions.enabled && (event === "repository" || (event === "push" && branch === repo.defaultBranch)),
  deliver: async (env, d) => (await import("./schedules.ts")).schedulesAfter(env, d),
};

/**
 * Once the workers start, a clock looks each minute whether the tick has work and then puts one
 * on the queue (none while one is still waiting), where it runs like any background work. The tick is an item only while it is due or
 * running: a queue that always held one would never be idle. The clock stops when the database
 * is gone (the process, or a test's instance, is over); it never keeps the process alive.
 */
function startClock(env: Env): void {
  const fire = () => {
    try {
      if (tickDue(env, nowUnix()) && countQueueItems(env.db, ACTIONS_CRON_QUEUE) === 0) {
        writeTx(env.db, (tx) => void env.queue.put(tx, ACTIONS_CRON_QUEUE, {}));
      }
    } catch {
      return;
    }
    arm();
  };
  const arm = () => setTimeout(fire, untilNextMinute(Date.now())).unref();
  arm();
}

/** Whether the tick would find work: an idle server's minute costs one read, not the tick's code. */
function tickDue(env: Env, now: number): boolean {
  const a = env.settings.actions;
  return actionsWorkDue(env.db, {
    now,
    updatedBefore: now - a.zombieTaskTimeout,
    startedBefore: now - a.endlessTaskTimeout,
    abandonedBefore: now - a.abandonedJobTimeout,
  });
}

/** Called once per Env; nothing is registered while `[actions] ENABLED` is off. */
export function registerActionsPeriodic(env: Env): void {
  if (!env.settings.actions.enabled) return;
  env.queue.register<Record<string, never>>(
    ACTIONS_CRON_QUEUE,
    async () => void (await (await import("./tick.ts")).actionsTick(env, nowUnix())),
    // A failed tick is not tried again: the next minute's comes anyway.
    { concurrency: 1, leaseMs: 30 * 60_000, maxAttempts: 1, onStart: () => startClock(env) },
  );
  subscribePayloads(env.bus, scheduleSink);
}
