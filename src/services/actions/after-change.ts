import type { Env } from "../env.ts";
import type { ActionsEvent } from "./events.ts";
import { reportJobStatuses } from "./commit-status.ts";

/** What follows a change of runs and jobs, after its commit: the jobs' commit statuses. */
export async function afterActionsChange(env: Env, e: ActionsEvent): Promise<void> {
  switch (e.kind) {
    case "run-created":
      reportJobStatuses(env, e.runId);
      return;
    case "jobs-changed":
      if (e.jobIds.length) reportJobStatuses(env, e.runId, e.jobIds);
      return;
  }
}
