import type { Env } from "../env.ts";
import { cancelAbandonedJobs, stopEndlessTasks, stopZombieTasks } from "./cleanup.ts";
import { startDueSchedules } from "./schedules.ts";

export interface TickOutcome {
  zombies: number;
  endless: number;
  abandoned: number;
  scheduled: number;
}

/**
 * One pass of Gitea's Actions cron tasks at `now` (Unix seconds): stop zombie and endless tasks,
 * cancel abandoned jobs, start the scheduled workflows that are due. The server runs it once a
 * minute (periodic.ts); tests call it with the time they want. A part that fails is logged and
 * the others still run.
 */
export async function actionsTick(env: Env, now: number): Promise<TickOutcome> {
  const out: TickOutcome = { zombies: 0, endless: 0, abandoned: 0, scheduled: 0 };
  const part = async (name: keyof TickOutcome, run: () => number | Promise<number>) => {
    try {
      out[name] = await run();
    } catch (err) {
      env.log.error(`actions cron: ${name} failed`, { error: (err as Error).message });
    }
  };
  await part("zombies", () => stopZombieTasks(env, now));
  await part("endless", () => stopEndlessTasks(env, now));
  await part("abandoned", () => cancelAbandonedJobs(env, now));
  await part("scheduled", () => startDueSchedules(env, now));
  return out;
}
