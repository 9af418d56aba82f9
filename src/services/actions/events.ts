import { createChannel } from "../events/channel.ts";

/**
 * What happened to runs and jobs, recorded with the change (an outbox), for what follows from it
 * after the commit: commit statuses per job and the `workflow_run` / `workflow_job` webhooks.
 */
export type ActionsEvent =
  | { kind: "run-created"; runId: number }
  /**
   * Jobs of the run changed state: each job's state and the run's as this change left them (the
   * event is handled after later changes may have moved them again), the run's before, and whether
   * a re-run made the change.
   */
  | {
      kind: "jobs-changed";
      runId: number;
      jobIds: number[];
      jobStatuses: Record<string, number>;
      runStatusBefore: number;
      runStatus: number;
      /** This change started the run (its first job began; again after a re-run). */
      runStarted?: boolean;
      rerun?: boolean;
    };

export const actionsEvents = createChannel<ActionsEvent>("actions events");
