import type { Env } from "../env.ts";
import type { Tx } from "../../db/client.ts";
import * as runs from "../../models/actions-run.ts";
import { deleteRunnersOf } from "../../models/actions-runner.ts";
import { deleteSchedulesOfRepo } from "../../models/actions-schedule.ts";
import { logFilesOf } from "../../models/actions-task.ts";
import { artifactFilesOf } from "../../models/actions-artifact.ts";
import { actionLogs } from "./tasks.ts";
import { artifactStore } from "./artifacts.ts";

/** Files Actions kept for rows that are going: removed once the deleting transaction committed. */
export interface ActionFiles {
  logs: string[];
  artifacts: string[];
}

/** A run's rows (jobs, tasks, steps, outputs, artifacts by cascade), inside the caller's transaction. */
export function removeRunInTx(tx: Tx, runId: number): ActionFiles {
  const files = { logs: logFilesOf(tx, { runId }), artifacts: artifactFilesOf(tx, { runId }) };
  runs.deleteRun(tx, runId);
  return files;
}

/**
 * Everything Actions keeps of a repository, when the repository is deleted: its runs with their
 * jobs, tasks and artifacts, its schedules, its disabled workflows, its runners and registration
 * tokens.
 */
export function removeRepoActionsInTx(tx: Tx, repoId: number): ActionFiles {
  const files = { logs: logFilesOf(tx, { repoId }), artifacts: artifactFilesOf(tx, { repoId }) };
  runs.deleteRepoRuns(tx, repoId);
  deleteSchedulesOfRepo(tx, repoId);
  deleteRunnersOf(tx, { repoId });
  return files;
}

/** An account's or organization's runners and registration tokens, when it is deleted. */
export function removeOwnerRunnersInTx(tx: Tx, ownerId: number): void {
  deleteRunnersOf(tx, { ownerId });
}

/** The files of removed rows, after the commit (a crash in between leaves files, never rows without files). */
export function removeActionFiles(env: Env, files: ActionFiles): void {
  const logs = actionLogs(env);
  for (const name of files.logs) logs.remove(name);
  const artifacts = artifactStore(env);
  for (const path of files.artifacts) artifacts.remove(path);
}
