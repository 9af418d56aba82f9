import { ActionStatus } from "../../db/schema/index.ts";
import type { ActionTaskRow, ActionTaskStepRow } from "../../db/schema/index.ts";
import { isDone } from "./status.ts";

/** A step as a job's page shows it: its name, state, times and the rows of the task's log that are its own. */
export interface ShownStep {
  name: string;
  status: number;
  startedUnix: number;
  stoppedUnix: number;
  /** The step's first row in the task's log, and how many rows it has. */
  logIndex: number;
  logLength: number;
}

/** Gitea's step names for the rows a runner logs before the first step and after the last. */
export const SET_UP_JOB = "Set up job";
export const COMPLETE_JOB = "Complete job";

/** Gitea's Status.HasRun: the step ran to an end of its own (skipped and cancelled did not). */
const hasRun = (s: number) => s === ActionStatus.Success || s === ActionStatus.Failure;

type Task = Pick<ActionTaskRow, "status" | "startedUnix" | "stoppedUnix" | "logLength">;
type Step = Pick<ActionTaskStepRow, "name" | "status" | "startedUnix" | "stoppedUnix" | "logIndex" | "logLength">;

/**
 * Gitea's FullSteps (modules/actions/task_state.go): the task's steps between a "Set up job" step
 * holding the rows logged before the first step that ran, and a "Complete job" step holding the
 * rows after the last one, so every row of the log belongs to exactly one shown step.
 */
export function fullSteps(task: Task, steps: readonly Step[]): ShownStep[] {
  if (steps.length === 0) return stepsOfEmptyTask(task);
  // The first step that ran or runs, and the last one that ran (skipped and waiting steps log nothing).
  let first: Step | undefined;
  let lastRun: Step | undefined;
  let logIndex = 0;
  for (const s of steps) {
    if (!first && (hasRun(s.status) || s.status === ActionStatus.Running)) first = s;
    if (hasRun(s.status)) lastRun = s;
    logIndex += s.logLength;
  }
  const pre: ShownStep = {
    name: SET_UP_JOB,
    status: first ? ActionStatus.Success : task.status,
    startedUnix: task.startedUnix,
    stoppedUnix: first ? first.startedUnix : task.stoppedUnix,
    logIndex: 0,
    logLength: first ? first.logIndex : task.logLength,
  };
  logIndex += pre.logLength;
  const last = lastRun ?? pre;
  const post: ShownStep = { name: COMPLETE_JOB, status: ActionStatus.Waiting, startedUnix: 0, stoppedUnix: 0, logIndex: 0, logLength: 0 };
  // The clean-up has begun once the last step ran, or a step failed.
  if (last.status === ActionStatus.Failure || last === steps[steps.length - 1]) {
    post.logIndex = logIndex;
    post.logLength = Math.max(0, task.logLength - logIndex);
    post.startedUnix = last.stoppedUnix;
    post.status = ActionStatus.Running;
  }
  if (isDone(task.status)) {
    post.status = task.status;
    post.stoppedUnix = task.stoppedUnix;
  }
  return [pre, ...steps.map(pick), post];
}

function pick(s: Step): ShownStep {
  return { name: s.name, status: s.status, startedUnix: s.startedUnix, stoppedUnix: s.stoppedUnix, logIndex: s.logIndex, logLength: s.logLength };
}

/** Gitea's fullStepsOfEmptySteps: a task without steps (it failed before any) is all set-up. */
function stepsOfEmptyTask(task: Task): ShownStep[] {
  const done = isDone(task.status);
  return [
    {
      name: SET_UP_JOB,
      status: done ? task.status : ActionStatus.Running,
      startedUnix: task.startedUnix,
      stoppedUnix: task.stoppedUnix,
      logIndex: 0,
      logLength: task.logLength,
    },
    {
      name: COMPLETE_JOB,
      status: !done ? ActionStatus.Waiting : task.status === ActionStatus.Success ? ActionStatus.Success : ActionStatus.Cancelled,
      startedUnix: task.stoppedUnix,
      stoppedUnix: task.stoppedUnix,
      logIndex: task.logLength,
      logLength: 0,
    },
  ];
}
