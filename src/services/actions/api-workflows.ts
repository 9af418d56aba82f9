import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import * as runs from "../../models/actions-run.ts";
import { gitDirOf, type RepoContext } from "../repo/lookup.ts";
import type { Writes } from "../access/repo-access.ts";
import { readWorkflowFiles, type WorkflowFile } from "../../git/workflows.ts";
import { readCommit, resolveRevision, type Signature } from "../../git/objects.ts";
import { parseWorkflow } from "../../lib/actions/workflow.ts";
import { NotFound } from "../../lib/errors.ts";

/**
 * The workflow files of a repository as Gitea's workflow API lists them (convert.ListActionWorkflows
 * and getActionWorkflowEntry): the files of the default branch's head, each named by its `name:`
 * when it has one, active or switched off by hand, dated by that head commit (Gitea does not walk
 * each file's history).
 */
export interface WorkflowInfo {
  file: WorkflowFile;
  /** The workflow's `name:`, else its file name. */
  name: string;
  disabled: boolean;
  /** The default branch head's author, whose time is the workflow's created and updated time. */
  author: Signature;
}

/** The default branch's workflows; a 404 when the branch does not exist (an empty repository; Gitea answers 500). */
export async function listWorkflows(env: Env, rc: Pick<RepoContext, "repo" | "owner">): Promise<WorkflowInfo[]> {
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const sha = await resolveRevision(gitDir, `refs/heads/${rc.repo.defaultBranch}`, "commit");
  const commit = sha ? await readCommit(gitDir, sha) : undefined;
  if (!commit) throw new NotFound(`branch "${rc.repo.defaultBranch}" does not exist`);
  const disabled = runs.disabledWorkflows(env.db, rc.repo.id);
  return (await readWorkflowFiles(gitDir, commit.oid)).map((file) => ({
    file,
    name: workflowName(file),
    disabled: disabled.has(file.name),
    author: commit.author,
  }));
}

function workflowName(file: WorkflowFile): string {
  try {
    return parseWorkflow(file.content).name || file.name;
  } catch {
    return file.name; // Gitea logs the parse error and shows the file name
  }
}

/** Gitea's GetActionWorkflow: one workflow of the default branch by its file name. */
export async function getWorkflow(env: Env, rc: Pick<RepoContext, "repo" | "owner">, workflowId: string): Promise<WorkflowInfo> {
  const found = (await listWorkflows(env, rc)).find((w) => w.file.name === workflowId);
  if (!found) throw new NotFound(`workflow "${workflowId}" not found`);
  return found;
}

/**
 * Gitea's EnableOrDisableWorkflow: a workflow of the default branch is switched off (no event
 * starts it, nor a dispatch) or on again.
 */
export async function setWorkflowEnabled(env: Env, rc: Writes<"actions">, workflowId: string, enabled: boolean): Promise<void> {
  const workflow = await getWorkflow(env, rc, workflowId);
  writeTx(env.db, (tx) => runs.setWorkflowDisabled(tx, rc.repo.id, workflow.file.name, !enabled));
}
