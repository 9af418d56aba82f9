/**
 * Merging a pull request (Gitea's services/pull/merge*.go). The new commits are computed from the
 * objects alone (src/git/merge.ts) and the base branch moves by one compare-and-swap, so a failed,
 * conflicting or raced merge leaves the repository exactly as it was. The database follows once
 * the ref has moved; the same post-push work as a `git push` then runs (branch table, other pull
 * requests, releases).
 */
import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import type { IssueRow, PullRequestRow, RepoRow, UserRow } from "../../db/schema/index.ts";
import * as users from "../../models/user.ts";
import { Conflict, HearthError } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { readBranchHead } from "../../git/refs.ts";
import { updateRefs, RefUpdateError } from "../../git/refs-write.ts";
import { isAncestor } from "../../git/reflist.ts";
import { readCommit } from "../../git/objects.ts";
import {
  amendMessage,
  commitTree,
  cleanMergeTree,
  rebaseCommits,
  MergeConflictError,
  UnrelatedHistoriesError,
  type GitIdentity,
} from "../../git/merge.ts";
import { gitIdentityOf } from "../user/git-identity.ts";
import { processPush } from "../repo/push.ts";
import { issueChanged } from "../issue/hooks.ts";
import { pullEvents } from "../events/pull-events.ts";
import { pullHeadCommit } from "./head-ref.ts";
import { applyClosingReferences, recordMerged } from "./merged-state.ts";
import type { MergeStyle } from "./merge-styles.ts";
import { isMergeStyleAllowed } from "./merge-styles.ts";
import { withBranchLock } from "./branch-lock.ts";

/** The merge has conflicts, or the histories cannot be merged: Gitea answers 409. */
function conflict(err: MergeConflictError | UnrelatedHistoriesError, style: MergeStyle): HearthError {
  if (err instanceof UnrelatedHistoriesError) return new Conflict(`Merge UnrelatedHistories Error: ${style}: refusing to merge unrelated histories`);
  if (err.commit) return new Conflict(`Rebase Error: Conflict Applying Patch: ${err.commit}: ${err.files.join(", ")}`);
  return new Conflict(`Merge Conflict Error: ${style}: CONFLICT (content): Merge conflict in ${err.files.join(", ")}`);
}

export const invalidMergeStyle = (style: string) => new HearthError(405, `${style} is not allowed an allowed merge style for this repository`);

/** Gitea's AddCommitMessageTailer: a trailer line appended to the message's trailer block (started if absent). */
export function addTrailer(message: string, key: string, value: string): string {
  const line = `${key}: ${value}`;
  let text = message.replace(/\r\n?/g, "\n");
  if (text.includes(`\n${line}\n`) || text.endsWith(`\n${line}`)) return text;
  if (!text.endsWith("\n")) text += "\n";
  const lastLine = text.slice(text.lastIndexOf("\n", text.length - 2) + 1, -1);
  if (!/^[A-Za-z0-9-]+: /.test(lastLine)) text += "\n";
  return text + line;
}

export interface MergeJob {
  base: { repo: RepoRow; owner: UserRow; gitDir: string };
  pull: PullRequestRow;
  issue: IssueRow;
  doer: UserRow;
  style: Exclude<MergeStyle, "manually-merged">;
  /** The commit message (title, blank line, description); empty for a rebase without a template. */
  message: string;
  /** The head the caller saw; the merge is refused if the head moved since. */
  expectedHead?: string;
  /** Carried out by automerge, once the checks succeeded: announced as such (its scheduler is mailed too). */
  automerge?: boolean;
}

/** The commit the base branch is to point at after merging `head` into `baseSha` in `style`. */
async function mergedTip(job: MergeJob, baseSha: string, head: string, now: number, env: Env): Promise<string> {
  const { gitDir } = job.base;
  const doer: GitIdentity = { ...gitIdentityOf(env, job.doer), unix: now };
  switch (job.style) {
    case "merge": {
      const tree = await cleanMergeTree(gitDir, baseSha, head);
      return commitTree(gitDir, { tree, parents: [baseSha, head], message: job.message, author: doer, committer: doer });
    }
    case "squash": {
      const tree = await cleanMergeTree(gitDir, baseSha, head);
      // The squashed commit is the poster's work, committed by the merger (Gitea's squash).
      const poster = users.getUserById(env.db, job.issue.posterId);
      const author: GitIdentity = poster ? { ...gitIdentityOf(env, poster), unix: now } : doer;
      let message = job.message;
      if (author.email !== doer.email || author.name !== doer.name) {
        const sig = `${author.name} <${author.email}>`;
        message = addTrailer(addTrailer(message, "Co-authored-by", sig), "Co-committed-by", sig);
      }
      return commitTree(gitDir, { tree, parents: [baseSha], message, author, committer: doer });
    }
    case "rebase": {
      const tip = await rebaseCommits(gitDir, baseSha, head, doer);
      return job.message.trim() ? amendMessage(gitDir, tip, job.message, doer) : tip;
    }
    case "rebase-merge": {
      const tip = await rebaseCommits(gitDir, baseSha, head, doer);
      const tree = (await readCommit(gitDir, tip))!.tree;
      return commitTree(gitDir, { tree, parents: [baseSha, tip], message: job.message, author: doer, committer: doer });
    }
    case "fast-forward-only": {
      if (!(await isAncestor(gitDir, baseSha, head))) throw new Conflict("Merge DivergingFastForwardOnly Error: Not possible to fast-forward, aborting");
      return head;
    }
  }
}

/**
 * Performs the merge: refuses a style the repository does not allow (405), a head that moved
 * since the caller looked (409 "head out of date"), conflicts (409); moves the base branch;
 * records the merge; closes the issues the request closes. Returns the merged request.
 */
export async function performMerge(env: Env, job: MergeJob): Promise<PullRequestRow> {
  if (!isMergeStyleAllowed(job.base.repo, job.style)) throw invalidMergeStyle(job.style);
  const { gitDir } = job.base;
  return withBranchLock(`${job.base.repo.id}:${job.pull.baseBranch}`, async () => {
    const head = await pullHeadCommit(gitDir, job.pull);
    const baseHead = await readBranchHead(gitDir, job.pull.baseBranch);
    if (!head || !baseHead) throw new Conflict("the head or base branch of the pull request no longer exists");
    if (job.expectedHead && job.expectedHead !== head) throw new Conflict("head out of date");
    const now = nowUnix();
    let tip: string;
    try {
      tip = await mergedTip(job, baseHead.commitId, head, now, env);
    } catch (err) {
      if (err instanceof MergeConflictError || err instanceof UnrelatedHistoriesError) throw conflict(err, job.style);
      throw err;
    }
    const ref = `refs/heads/${job.pull.baseBranch}`;
    if (tip !== baseHead.commitId) {
      try {
        await updateRefs(gitDir, [{ op: "update", ref, sha: tip, old: baseHead.commitId }]);
      } catch (err) {
        if (err instanceof RefUpdateError && err.kind === "moved") throw new Conflict("merge push out of date");
        throw err;
      }
    }
    const result = finishMerge(env, job, { mergedCommitId: tip, mergerId: job.doer.id, mergedUnix: now });
    if (tip !== baseHead.commitId) await processPush(env, job.base.repo.id, job.doer.id, [{ old: baseHead.commitId, new: tip, ref }]);
    return result;
  });
}

function finishMerge(env: Env, job: MergeJob | ManualMergeJob, record: Parameters<typeof recordMerged>[4]): PullRequestRow {
  const before = job.issue;
  const merged = writeTx(env.db, (tx) => {
    const merged = recordMerged(tx, job.pull, job.issue, job.doer, record);
    if (!merged) return undefined;
    const closedByMerge: IssueRow[] = applyClosingReferences(tx, job.issue, job.base.repo, job.doer, record.mergedCommitId);
    issueChanged(tx, env, { kind: "edited", issue: { ...before, isClosed: true }, before, repo: job.base.repo, doer: job.doer });
    pullEvents.emit(tx, env, {
      kind: "merged",
      pull: merged,
      issue: { ...before, isClosed: true },
      repo: job.base.repo,
      owner: job.base.owner,
      doer: job.doer,
      manually: record.manually ?? false,
      automerge: "automerge" in job && job.automerge === true,
    });
    for (const target of closedByMerge) {
      const was = { ...target, isClosed: !target.isClosed };
      issueChanged(tx, env, { kind: "edited", issue: target, before: was, repo: job.base.repo, doer: job.doer, commitId: record.mergedCommitId });
    }
    return merged;
  });
  if (!merged) throw new HearthError(405, "The PR is already merged");
  return merged;
}

export interface ManualMergeJob {
  base: { repo: RepoRow; owner: UserRow; gitDir: string };
  pull: PullRequestRow;
  issue: IssueRow;
  doer: UserRow;
  mergeCommitId: string;
}

/**
 * Gitea's MergedManually: the request was merged outside hearth by `mergeCommitId`, which must be
 * a full commit id contained in the base branch (409 "Wrong commit ID" otherwise).
 */
export async function markMergedManually(env: Env, job: ManualMergeJob): Promise<PullRequestRow> {
  if (!isMergeStyleAllowed(job.base.repo, "manually-merged")) throw invalidMergeStyle("manually-merged");
  const { gitDir } = job.base;
  const wrong = () => new Conflict("Wrong commit ID");
  if (!/^[0-9a-f]{40}$|^[0-9a-f]{64}$/.test(job.mergeCommitId)) throw wrong();
  const commit = await readCommit(gitDir, job.mergeCommitId);
  const baseHead = await readBranchHead(gitDir, job.pull.baseBranch);
  if (!commit || !baseHead || !(await isAncestor(gitDir, commit.oid, baseHead.commitId))) throw wrong();
  return finishMerge(env, job, { mergedCommitId: commit.oid, mergerId: job.doer.id, mergedUnix: commit.author.unix, manually: true });
}
