/**
 * The run page's buttons (Gitea's actions.Cancel, RerunAll and RerunOne): checked for write on
 * the Actions unit by the caller's declaration, with Gitea's rule that a disabled workflow is not
 * re-run.
 */
import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { disabledWorkflows, setWorkflowDisabled } from "../../models/actions-run.ts";
import { Invalid } from "../../lib/errors.ts";
import type { Administers, Writes } from "../access/repo-access.ts";
import { cancelRun, rerun } from "./cancel.ts";
import { isDone } from "./status.ts";
import { jobOfRun, runForWeb } from "./web-views.ts";

/** Cancels every unfinished job of run `index`; false when the run had already finished. */
export function cancelRunByIndex(env: Env, rc: Writes<"actions">, index: number): boolean {
  const { run } = runForWeb(env, rc, index);
  if (isDone(run.status)) return false;
  cancelRun(env, run);
  return true;
}

/** Re-runs a finished run, or (with `jobIndex`) one finished job and the jobs that need it. */
export function rerunByIndex(env: Env, rc: Writes<"actions">, index: number, jobIndex?: number): void {
  const view = runForWeb(env, rc, index);
  const job = jobIndex === undefined ? undefined : jobOfRun(view, jobIndex);
  if (disabledWorkflows(env.db, rc.repo.id).has(view.run.workflowId)) throw new Invalid("This workflow is disabled.");
  rerun(env, view.run, job);
}

/**
 * Gitea's DisableWorkflowFile and EnableWorkflowFile: a repository administrator switches a
 * workflow file off (no event starts it, its runs are not re-run) or on again, by file name.
 */
export function setWorkflowEnabled(env: Env, rc: Administers, workflowId: string, enabled: boolean): void {
  if (!workflowId || workflowId.length > 255 || workflowId.includes("/") || !/\.ya?ml$/i.test(workflowId)) throw new Invalid("No workflow was named.");
  writeTx(env.db, (tx) => setWorkflowDisabled(tx, rc.repo.id, workflowId, !enabled));
}
