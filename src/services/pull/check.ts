import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { PullStatus, type PullRequestRow } from "../../db/schema/index.ts";
import * as pulls from "../../models/pull.ts";
import * as issueModel from "../../models/issue.ts";
import { readBranchHead } from "../../git/refs.ts";
import { mergeBase } from "../../git/log.ts";
import { divergingCommits, treeOf } from "../../git/merge-check.ts";
import { mergeTrees } from "../../git/merge.ts";
import { sideOf } from "./lookup.ts";
import { pullHeadCommit } from "./head-ref.ts";
import { pullCheckEvents } from "../events/pull-events.ts";

/** What a mergeability check found, as stored on the pull request row. */
export interface PullCheck {
  status: number;
  conflictedFiles: string[];
  mergeBase: string;
  commitsAhead: number;
  commitsBehind: number;
}

/**
 * Gitea's testPullRequestTmpRepoBranchMergeable, without a temporary repository: the merge base
 * of the base branch and `refs/pull/{index}/head`; AncestorFF when the head is already contained
 * in the base; otherwise an in-memory merge (`git merge-tree`): Conflict with the conflicted files,
 * Empty when merging changes nothing, else Mergeable. A base branch or head that cannot be read
 * is Error. Commits ahead/behind are counted against the base branch (Gitea's GetDivergingCommits).
 */
export async function computePullCheck(env: Env, pull: PullRequestRow): Promise<PullCheck> {
  const error: PullCheck = { status: PullStatus.Error, conflictedFiles: [], mergeBase: pull.mergeBase, commitsAhead: 0, commitsBehind: 0 };
  const base = sideOf(env, undefined, pull.baseRepoId);
  if (!base) return error;
  const [baseHead, headSha] = await Promise.all([readBranchHead(base.gitDir, pull.baseBranch), pullHeadCommit(base.gitDir, pull)]);
  if (!baseHead || !headSha) return error;
  const baseSha = baseHead.commitId;
  // Unrelated histories have no merge base: Gitea then takes the base commit.
  const mb = (await mergeBase(base.gitDir, baseSha, headSha)) ?? baseSha;
  const { ahead, behind } = await divergingCommits(base.gitDir, baseSha, headSha);
  const result: PullCheck = { status: PullStatus.Mergeable, conflictedFiles: [], mergeBase: mb, commitsAhead: ahead, commitsBehind: behind };
  if (headSha === mb) return { ...result, status: PullStatus.AncestorFF };
  const merged = await mergeTrees(base.gitDir, baseSha, headSha, { allowUnrelated: true });
  if (merged.conflicted.length) return { ...result, status: PullStatus.Conflict, conflictedFiles: merged.conflicted };
  if (merged.tree === (await treeOf(base.gitDir, baseSha))) return { ...result, status: PullStatus.Empty };
  return result;
}

/**
 * Checks a pull request again and stores the result, unless it was merged or closed meanwhile
 * (Gitea checks open requests only). Errors are logged and stored as status Error, never thrown:
 * checks run after the response, nobody waits for them.
 */
export async function recheckPull(env: Env, pullId: number): Promise<void> {
  const pull = pulls.getPullById(env.db, pullId);
  if (!pull || pull.hasMerged) return;
  const issue = issueModel.getIssueById(env.db, pull.issueId);
  if (!issue || issue.isClosed) return;
  let check: PullCheck;
  try {
    check = await computePullCheck(env, pull);
  } catch (err) {
    env.log.error("pull request check failed", { pull: pull.id, error: String(err) });
    check = { status: PullStatus.Error, conflictedFiles: [], mergeBase: pull.mergeBase, commitsAhead: 0, commitsBehind: 0 };
  }
  const mergeable = check.status === PullStatus.Mergeable || check.status === PullStatus.AncestorFF || check.status === PullStatus.Empty;
  writeTx(env.db, (tx) => {
    pulls.updatePullIfUnmerged(tx, pull.id, storedCheck(check));
    // A scheduled merge may have been waiting for this request to become mergeable again (automerge listens).
    if (mergeable) pullCheckEvents.emit(tx, env, { pullId: pull.id, status: check.status });
  });
}

export function storedCheck(check: PullCheck): Partial<PullRequestRow> {
  return {
    status: check.status,
    conflictedFiles: JSON.stringify(check.conflictedFiles),
    mergeBase: check.mergeBase,
    commitsAhead: check.commitsAhead,
    commitsBehind: check.commitsBehind,
  };
}

/** Gitea's PullRequest.Mergeable: not while checking, conflicting or failed, and never for a draft. */
export function isMergeable(status: number, draft: boolean): boolean {
  return status !== PullStatus.Checking && status !== PullStatus.Conflict && status !== PullStatus.Error && !draft;
}
