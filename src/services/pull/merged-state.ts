/**
 * What the database records when a pull request is merged: the request (merged, by whom, which
 * commit), its issue closed with Gitea's "merged" timeline entry, and the issues its text closes
 * or reopens (Gitea's handleCloseCrossReferences, same repository only).
 */
import type { Tx } from "../../db/client.ts";
import { CommentType, PullStatus, type IssueRow, type PullRequestRow, type UserRow } from "../../db/schema/index.ts";
import * as issues from "../../models/issue.ts";
import * as pulls from "../../models/pull.ts";
import { findIssueRefs, type IssueRef } from "../../lib/issue-refs.ts";
import { changeIssueState } from "../issue/state.ts";

export interface MergeRecord {
  mergedCommitId: string;
  mergerId: number;
  mergedUnix: number;
  /** Set for a request marked as merged by hand (Gitea's ManuallyMerged status). */
  manually?: boolean;
}

/**
 * Marks the request merged, unless something merged it first (then undefined: the caller lost the
 * race and must not report success twice). Closes its issue as "merged".
 */
export function recordMerged(tx: Tx, pull: PullRequestRow, issue: IssueRow, doer: UserRow, m: MergeRecord): PullRequestRow | undefined {
  const patch: Partial<PullRequestRow> = { hasMerged: true, mergedCommitId: m.mergedCommitId, mergerId: m.mergerId, mergedUnix: m.mergedUnix };
  if (m.manually) patch.status = PullStatus.ManuallyMerged;
  const merged = pulls.updatePullIfUnmerged(tx, pull.id, patch);
  if (!merged) return undefined;
  changeIssueState(tx, issue, doer, true, { type: CommentType.MergePull });
  return merged;
}

/** The issues of its own repository a request's title and description close or reopen (itself left out). */
export function stateReferences(pullIssue: Pick<IssueRow, "title" | "content" | "index">, repo: { ownerName: string; name: string }): IssueRef[] {
  const sameRepo = (r: IssueRef) => !r.owner || (r.owner.toLowerCase() === repo.ownerName.toLowerCase() && r.repo!.toLowerCase() === repo.name.toLowerCase());
  return findIssueRefs(`${pullIssue.title}\n${pullIssue.content}`).filter((r) => r.action !== "none" && r.index !== pullIssue.index && sameRepo(r));
}

/**
 * The issues of the same repository the request's title and description close (`fixes #3`) or
 * reopen, changed by the merger; an issue with open dependencies stays open, as Gitea allows.
 * Returns the issues that changed.
 */
export function applyClosingReferences(tx: Tx, pullIssue: IssueRow, repo: { id: number; ownerName: string; name: string }, doer: UserRow, commitSha: string): IssueRow[] {
  const changed: IssueRow[] = [];
  for (const ref of stateReferences(pullIssue, repo)) {
    const target = issues.getIssueByIndex(tx, repo.id, ref.index);
    if (!target) continue;
    const close = ref.action === "closes";
    if (target.isClosed === close) continue;
    if (close && issues.countOpenDependencies(tx, target.id) > 0) continue;
    changed.push(changeIssueState(tx, target, doer, close, { commitSha }));
  }
  return changed;
}
