import type { Env } from "../env.ts";
import type { ActionRunRow, UserRow } from "../../db/schema/index.ts";
import * as runs from "../../models/actions-run.ts";
import { gitDirOf } from "../repo/lookup.ts";
import type { Writes } from "../access/repo-access.ts";
import { readWorkflowFiles } from "../../git/workflows.ts";
import { resolveRevision } from "../../git/objects.ts";
import { parseWorkflow, type Workflow } from "../../lib/actions/workflow.ts";
import { BadRequest, Forbidden, NotFound } from "../../lib/errors.ts";
import { startDirectRun } from "./trigger.ts";

export interface DispatchInput {
  /** The workflow's file name (`ci.yml`). */
  workflowId: string;
  /** A branch name, `refs/heads/…` or `refs/tags/…`. */
  ref: string;
  /** The caller's input values by name; inputs the workflow does not declare are left out. */
  inputs: Record<string, string>;
  /** The event payload's `repository` and `sender`, as the API renders them for no one in particular. */
  repository: Record<string, unknown>;
  sender: Record<string, unknown>;
}

/** The full ref a dispatch names (Gitea: a tag or branch ref as given, anything else a branch name). */
function fullRef(ref: string): string {
  return ref.startsWith("refs/tags/") || ref.startsWith("refs/heads/") ? ref : `refs/heads/${ref}`;
}

/**
 * Gitea's API form of `workflow_dispatch` inputs: each input the workflow declares gets the value
 * given for it, else its default. Gitea 1.25's API checks neither `required` nor a choice's
 * options (its web form asks for them in the browser), and neither does this.
 */
function dispatchInputs(workflow: Workflow, given: Record<string, string>): Record<string, string> {
  const dispatch = workflow.on.find((e) => e.name === "workflow_dispatch");
  const out: Record<string, string> = {};
  for (const input of dispatch?.inputs ?? []) out[input.name] = Object.hasOwn(given, input.name) ? given[input.name]! : input.default;
  return out;
}

/**
 * Gitea's DispatchActionWorkflow: a run of one workflow file at the ref's commit, for the doer,
 * with the event payload Gitea builds (WorkflowDispatchPayload: workflow, ref, inputs, repository,
 * sender). Refused in Gitea's order and words: a disabled workflow (403), a ref that does not
 * exist (404), a workflow file not at that commit (404).
 */
export async function dispatchWorkflow(env: Env, rc: Writes<"actions">, doer: UserRow, d: DispatchInput): Promise<ActionRunRow | undefined> {
  if (!d.workflowId) throw new NotFound("workflowID is empty");
  if (!d.ref) throw new NotFound("ref is empty");
  if (runs.disabledWorkflows(env.db, rc.repo.id).has(d.workflowId)) throw new Forbidden("workflow is disabled");
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const ref = fullRef(d.ref);
  const sha = await resolveRevision(gitDir, ref, "commit");
  if (!sha) throw new NotFound(`ref "${d.ref}" doesn't exist`);
  const file = (await readWorkflowFiles(gitDir, sha)).find((f) => f.name === d.workflowId);
  if (!file) throw new NotFound(`workflow "${d.workflowId}" doesn't exist`);
  let workflow: Workflow;
  try {
    workflow = parseWorkflow(file.content);
  } catch (err) {
    // Gitea answers a workflow its parser refuses with a 500; the caller's request is what cannot be served.
    throw new BadRequest(`workflow "${d.workflowId}" is invalid: ${(err as Error).message}`);
  }
  const inputs = dispatchInputs(workflow, d.inputs);
  // Gitea's WorkflowDispatchPayload, field for field: the runner's `github.event`.
  const payload = { workflow: d.workflowId, ref: d.ref, inputs, repository: d.repository, sender: d.sender };
  return startDirectRun(env, { repo: rc.repo, owner: rc.owner, doer, hookEvent: "workflow_dispatch", payload, ref, sha, workflow: file, inputs });
}
