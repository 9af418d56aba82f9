import { createChannel } from "../events/channel.ts";

/**
 * What happened to runs and jobs, recorded with the change (an outbox), for what follows from it
 * after the commit: commit statuses per job and the `workflow_run` / `workflow_job` webhooks.
 */
export type ActionsEvent =
  | { kind: "run-created"; runId: number }
  /** Jobs of the run changed state; `runStatusBefore` tells whether the run's own state moved. */
  | { kind: "jobs-changed"; runId: number; jobIds: number[]; runStatusBefore: number };

export const actionsEvents = createChannel<ActionsEvent>("actions events");
