/**
 * POST /repos/{owner}/{repo}/pulls/{index}/merge (Gitea's MergePullRequest): check, build the
 * message, then merge now, schedule the merge for when the checks pass, or mark it merged by hand.
 */
import type { Env } from "../env.ts";
import * as users from "../../models/user.ts";
import { Conflict } from "../../lib/errors.ts";
import { readBranchHead } from "../../git/refs.ts";
import { gitDirOf } from "../repo/lookup.ts";
import { pullHeadCommit } from "./head-ref.ts";
import { sideOf, type PullContext } from "./lookup.ts";
import { checkPullMergeable, type MergeCheckType } from "./merge-checks.ts";
import { defaultMergeMessage, readMergeTemplate, type MergeMessage } from "./merge-message.ts";
import { markMergedManually, performMerge } from "./merge.ts";
import { stateReferences } from "./merged-state.ts";
import { scheduleAutoMerge } from "./automerge.ts";
import { deleteHeadAfterMerge } from "./delete-head.ts";
import type { MergeStyle } from "./merge-styles.ts";
import type { Checked } from "../access/repo-access.ts";
import type { Doer } from "../access/permission.ts";

export interface MergeRequestInput {
  style: MergeStyle;
  title?: string;
  message?: string;
  mergeCommitId?: string;
  headCommitId?: string;
  forceMerge?: boolean;
  /** Absent: the repository's default_delete_branch_after_merge decides (Gitea's ShouldDeleteBranchAfterMerge). */
  deleteBranchAfterMerge?: boolean;
  mergeWhenChecksSucceed?: boolean;
}

/** The default message of a style for this request: its template on the default branch, or Gitea's sentence. */
export async function defaultMessageFor(env: Env, pc: PullContext, style: MergeStyle): Promise<MergeMessage> {
  const gitDir = gitDirOf(env, pc.owner, pc.repo);
  const { pull, issue, repo } = pc;
  const head = pull.headRepoId === pull.baseRepoId ? undefined : sideOf(env, undefined, pull.headRepoId);
  const poster = users.getUserById(env.db, issue.posterId);
  const closing = stateReferences(issue, repo)
    .filter((r) => r.action === "closes")
    .map((r) => r.index);
  const defaultHead = await readBranchHead(gitDir, repo.defaultBranch);
  const template = await readMergeTemplate(gitDir, defaultHead?.commitId, style);
  return defaultMergeMessage(
    {
      baseOwner: pc.owner.name,
      baseRepo: repo.name,
      baseBranch: pull.baseBranch,
      headOwner: pull.headRepoId === pull.baseRepoId ? pc.owner.name : head?.owner.name,
      headRepo: pull.headRepoId === pull.baseRepoId ? repo.name : head?.repo.name,
      headBranch: pull.headBranch,
      sameRepo: pull.headRepoId === pull.baseRepoId,
      index: issue.index,
      title: issue.title,
      description: issue.content,
      posterName: poster?.name ?? "",
      reference: "#",
      closingIndexes: closing,
    },
    style,
    template,
  );
}

/**
 * The commit message: the title given, or the default one; then the description given, or — when
 * the title was the default — the template's description. (Gitea's API keeps only the template's
 * first line; its web form offers the description too, which is what a caller of the template
 * expects to get.)
 */
async function commitMessage(env: Env, pc: PullContext, input: MergeRequestInput): Promise<string> {
  const title = input.title?.trim() ?? "";
  const description = input.message?.trim() ?? "";
  const fallback = title ? undefined : await defaultMessageFor(env, pc, input.style);
  let message = title || fallback!.title;
  const body = description || fallback?.body || "";
  if (body) message += `\n\n${body}`;
  return message;
}

export type MergeOutcome = "merged" | "scheduled";

export async function mergePullRequest(env: Env, doer: Doer, pc: PullContext & Checked<{ notArchived: true }>, input: MergeRequestInput): Promise<MergeOutcome> {
  const gitDir = gitDirOf(env, pc.owner, pc.repo);
  const base = { repo: pc.repo, owner: pc.owner, gitDir };
  const head = (await pullHeadCommit(gitDir, pc.pull)) ?? "";
  const type: MergeCheckType = input.style === "manually-merged" ? "manually" : input.mergeWhenChecksSucceed ? "auto" : "general";
  const pull = await checkPullMergeable(env, doer, { pull: pc.pull, issue: pc.issue, perm: pc.perm, gitDir, head }, type, input.forceMerge ?? false);

  if (input.style === "manually-merged") {
    await markMergedManually(env, { base, pull, issue: pc.issue, doer, mergeCommitId: input.mergeCommitId ?? "" });
    return "merged";
  }
  const message = await commitMessage(env, pc, input);
  const deleteBranch = input.deleteBranchAfterMerge ?? pc.repo.defaultDeleteBranchAfterMerge;
  if (input.mergeWhenChecksSucceed) {
    scheduleAutoMerge(env, doer, { ...pc, pull }, { style: input.style, message, deleteBranchAfterMerge: deleteBranch });
    return "scheduled";
  }
  if (!head) throw new Conflict("the head of the pull request no longer exists");
  // The participants hear of it by mail from the merge's event (services/mail/subscriber.ts).
  const merged = await performMerge(env, { base, pull, issue: pc.issue, doer, style: input.style, message, expectedHead: input.headCommitId || undefined });
  if (deleteBranch) await deleteHeadAfterMerge(env, doer, merged, pc.issue);
  return "merged";
}
