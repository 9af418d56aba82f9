import { ActionStatus, type ActionStatusValue } from "../../db/schema/index.ts";

/** Gitea's Status.String(), as the API and pages name a run's, job's, task's or step's state. */
const NAMES: Record<number, string> = {
  [ActionStatus.Unknown]: "unknown",
  [ActionStatus.Success]: "success",
  [ActionStatus.Failure]: "failure",
  [ActionStatus.Cancelled]: "cancelled",
  [ActionStatus.Skipped]: "skipped",
  [ActionStatus.Waiting]: "waiting",
  [ActionStatus.Running]: "running",
  [ActionStatus.Blocked]: "blocked",
};

export const statusName = (s: number): string => NAMES[s] ?? "unknown";

export function statusByName(name: string): ActionStatusValue | undefined {
  const hit = Object.entries(NAMES).find(([, n]) => n === name);
  return hit ? (Number(hit[0]) as ActionStatusValue) : undefined;
}

/** Success, failure, cancelled and skipped are final. */
export const isDone = (s: number): boolean =>
  s === ActionStatus.Success || s === ActionStatus.Failure || s === ActionStatus.Cancelled || s === ActionStatus.Skipped;

/** Gitea's AggregateJobStatus: the run's state from its jobs'. */
export function aggregateStatus(statuses: readonly number[]): ActionStatusValue {
  if (statuses.length === 0) return ActionStatus.Unknown;
  const has = (s: number) => statuses.includes(s);
  if (statuses.every((s) => s === ActionStatus.Skipped)) return ActionStatus.Skipped;
  if (statuses.every((s) => s === ActionStatus.Success || s === ActionStatus.Skipped)) return ActionStatus.Success;
  if (has(ActionStatus.Cancelled)) return ActionStatus.Cancelled;
  if (has(ActionStatus.Running)) return ActionStatus.Running;
  if (has(ActionStatus.Waiting)) return ActionStatus.Waiting;
  if (has(ActionStatus.Failure)) return ActionStatus.Failure;
  if (has(ActionStatus.Blocked)) return ActionStatus.Blocked;
  return ActionStatus.Unknown;
}

/**
 * GitHub's status and conclusion for a Gitea state (Gitea's ToActionsStatus): waiting is
 * `queued`, blocked `waiting`, running `in_progress`, anything final `completed` with its conclusion.
 */
export function githubStatus(s: number): { status: string; conclusion: string } {
  if (isDone(s)) return { status: "completed", conclusion: statusName(s) };
  if (s === ActionStatus.Waiting) return { status: "queued", conclusion: "" };
  if (s === ActionStatus.Blocked) return { status: "waiting", conclusion: "" };
  if (s === ActionStatus.Running) return { status: "in_progress", conclusion: "" };
  return { status: "", conclusion: "" };
}

/** Seconds a run, job or step took, or has taken so far. */
export function duration(startedUnix: number, stoppedUnix: number, now: number): number {
  if (!startedUnix) return 0;
  return Math.max(0, (stoppedUnix || now) - startedUnix);
}

/** Gitea's util.SecToTime as its status descriptions show it ("1m 5s"). */
export function humanDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const parts = [h ? `${h}h` : "", m ? `${m}m` : "", s || (!h && !m) ? `${s}s` : ""].filter(Boolean);
  return parts.join(" ");
}
