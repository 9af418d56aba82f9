import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { countQueueItems } from "../../models/queue.ts";
import { artifactsToSweep } from "../../models/actions-artifact.ts";
import { nowUnix } from "../../lib/time.ts";

/**
 * The artifact retention sweep (artifacts.ts sweepArtifacts), registered by the composition root:
 * expires artifacts past their retention and removes the files of deleted ones, as Gitea's
 * cleanup_actions cron does once a day. A clock puts one sweep on the queue a minute after the
 * workers start (so a server restarted daily still sweeps) and then every day; the item exists
 * only while due or running, so the queue can go idle (as periodic.ts's tick). The artifact code
 * is imported by the first sweep.
 */
export const ARTIFACT_SWEEP_QUEUE = "actions_artifact_sweep";

export const ARTIFACT_SWEEP_EVERY_MS = 24 * 60 * 60_000;
const FIRST_SWEEP_AFTER_MS = 60_000;

/** Puts a sweep on the queue unless one is already waiting or running. */
export function queueArtifactSweep(env: Env): void {
  writeTx(env.db, (tx) => {
    if (countQueueItems(tx, ARTIFACT_SWEEP_QUEUE) === 0) env.queue.put(tx, ARTIFACT_SWEEP_QUEUE, {});
  });
}

/** The clock's sweep: only when there is something to sweep, so an idle server never loads the artifact code. */
function sweepIfDue(env: Env): void {
  if (artifactsToSweep(env.db, nowUnix())) queueArtifactSweep(env);
}

/** The clock stops when the database is gone (the process, or a test's instance, is over); it never keeps the process alive. */
function startClock(env: Env): void {
  const fire = () => {
    try {
      sweepIfDue(env);
    } catch {
      return;
    }
    setTimeout(fire, ARTIFACT_SWEEP_EVERY_MS).unref();
  };
  setTimeout(fire, FIRST_SWEEP_AFTER_MS).unref();
}

/** Called once per Env; nothing is registered while `[actions] ENABLED` is off. */
export function registerArtifactSweep(env: Env): void {
  if (!env.settings.actions.enabled) return;
  env.queue.register<Record<string, never>>(
    ARTIFACT_SWEEP_QUEUE,
    async () => {
      const { expired, deleted } = (await import("./artifacts.ts")).sweepArtifacts(env, nowUnix());
      if (expired || deleted) env.log.info("actions artifacts swept", { expired, deleted });
    },
    // A failed sweep is not tried again: the next day's comes anyway.
    { concurrency: 1, leaseMs: 30 * 60_000, maxAttempts: 1, onStart: () => startClock(env) },
  );
}
