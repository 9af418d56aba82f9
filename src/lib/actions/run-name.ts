/**
 * A run's title as Gitea 1.25 sets it (services/actions/notifier_helper.go handleWorkflows, workflow
 * dispatch and schedules alike): the workflow's `run-name` interpolated with the `github`, `vars` and
 * `inputs` contexts when it yields text, else the first line of the triggering commit's message — for pull
 * request events that is the head commit, not the pull request's title. The caller supplies the commit
 * message (of the commit the run is for), the `github` context Gitea builds for the run, the repository's
 * variables and, for workflow_dispatch, the inputs with their defaults; it stores the title cut to 255
 * display characters with an ellipsis (Gitea's EllipsisDisplayString), which is the database's business.
 */

import { ExpressionError, interpolate, type ExpressionContext } from "./expression.ts";

export interface RunTitleInput {
  /** The workflow's raw `run-name` (Workflow.runName), if any. */
  runName?: string;
  commitMessage: string;
  github: Record<string, unknown>;
  vars?: Record<string, string>;
  inputs?: Record<string, unknown>;
}

/** The first line of a commit message (Gitea's strings.SplitN(message, "\n", 2)[0]). */
export function commitTitle(message: string): string {
  const nl = message.indexOf("\n");
  return nl < 0 ? message : message.slice(0, nl);
}

/** `run-name` interpolated as jobparser does; an expression that fails gives "" (then the commit title wins). */
export function interpolateRunName(runName: string, ctx: Pick<ExpressionContext, "github" | "vars" | "inputs">): string {
  try {
    return interpolate(runName, { github: ctx.github, vars: ctx.vars ?? {}, inputs: ctx.inputs ?? {} });
  } catch (err) {
    if (err instanceof ExpressionError) return "";
    throw err;
  }
}

export function runTitle(input: RunTitleInput): string {
  if (input.runName) {
    const title = interpolateRunName(input.runName, input);
    if (title !== "") return title;
  }
  return commitTitle(input.commitMessage);
}
