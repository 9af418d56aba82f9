import type { Env } from "../env.ts";
import type { CommitStatusRow } from "../../db/schema/index.ts";
import * as statusModel from "../../models/commit-status.ts";
import { compileGlob } from "../../lib/glob.ts";

/** Gitea's combined states (modules/commitstatus CombinedStatus). */
export type CombinedState = "pending" | "success" | "failure";

/** The newest status of each context of a commit, newest first (Gitea's GetLatestCommitStatus). */
export function latestStatuses(env: Env, repoId: number, sha: string): CommitStatusRow[] {
  return statusModel.latestCommitStatuses(env.db, repoId, sha);
}

/**
 * Gitea's CommitStatusStates.Combine, GitHub's rule: failure when any is error or failure,
 * success when every one is success, warning or skipped, pending otherwise (also for none).
 */
export function combineStates(states: string[]): CombinedState {
  let successes = 0;
  for (const s of states) {
    if (s === "error" || s === "failure") return "failure";
    if (s === "success" || s === "warning" || s === "skipped") successes++;
  }
  return successes > 0 && successes === states.length ? "success" : "pending";
}

/**
 * Gitea's CalcCommitStatus over the latest statuses: undefined without any status (Gitea then
 * reports no state), the combined state otherwise.
 */
export function combinedState(rows: Pick<CommitStatusRow, "state">[]): CombinedState | undefined {
  return rows.length === 0 ? undefined : combineStates(rows.map((r) => r.state));
}

/**
 * Gitea's MergeRequiredContextsCommitStatus: `rows` are the latest statuses (newest first),
 * `contexts` the branch rule's required contexts, each a glob over the whole context. A required
 * context without a status counts as pending; without required contexts every status counts.
 */
export function requiredContextsPass(rows: Pick<CommitStatusRow, "state" | "context">[], contexts: string[]): CombinedState {
  if (rows.length === 0) return "pending";
  if (contexts.length === 0) return combineStates(rows.map((r) => r.state));
  const states: string[] = [];
  for (const pattern of new Set(contexts)) {
    let re: RegExp;
    try {
      re = compileGlob(pattern);
    } catch {
      continue; // Gitea logs and skips a context pattern that does not compile
    }
    states.push(rows.find((r) => re.test(r.context))?.state ?? "pending");
  }
  return combineStates(states);
}
