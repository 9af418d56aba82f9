import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { CommentType, type IssueRow, type PullRequestRow, type UserRow } from "../../db/schema/index.ts";
import * as pulls from "../../models/pull.ts";
import * as issues from "../../models/issue.ts";
import * as branchModel from "../../models/branch.ts";
import { Forbidden, HearthError, Invalid, NotFound } from "../../lib/errors.ts";
import { readBranchHead } from "../../git/refs.ts";
import { editIssue } from "../issue/issues.ts";
import { canWriteIssue } from "../issue/lookup.ts";
import { changeIssueLabels, labelsOfRequest } from "../issue/labels.ts";
import { recordEvent } from "../issue/events.ts";
import { alreadyExists } from "./create.ts";
import { computePullCheck, storedCheck } from "./check.ts";
import { syncPullHead } from "./head-ref.ts";
import { sideOf, type PullContext } from "./lookup.ts";
import { pullEvents } from "../events/pull-events.ts";
import type { Checked } from "../access/repo-access.ts";
import type { Doer } from "../access/permission.ts";

export interface EditPullInput {
  title?: string;
  body?: string;
  assignee?: string;
  assignees?: string[];
  milestone?: number;
  labels?: number[];
  state?: string;
  base?: string;
  deadlineUnix?: number;
  unsetDueDate?: boolean;
  allowMaintainerEdit?: boolean;
}

/** Why a closed request cannot be reopened: another open one for its branches, or its head branch is gone. */
async function checkReopen(env: Env, pull: PullRequestRow): Promise<void> {
  const other = pulls.findOpenPull(env.db, { ...pull, exceptId: pull.id });
  if (other) throw alreadyExists(other);
  const head = sideOf(env, undefined, pull.headRepoId);
  if (!head || !(await readBranchHead(head.gitDir, pull.headBranch))) {
    throw new Invalid("This pull request cannot be reopened, because the head branch doesn't exist anymore.");
  }
}

/**
 * Gitea's ChangeTargetBranch: refused for a closed (422) or merged (409) request, for a branch
 * whose head is the request's head (Gitea's ErrBranchesEqual, a 500 there, a 422 here) and when an
 * open request already goes from the head into that branch (409); then the request is checked
 * against the new base and a ChangeTargetBranch event is recorded.
 */
async function changeTargetBranch(env: Env, doer: UserRow, pc: PullContext, pull: PullRequestRow, closed: boolean, target: string): Promise<PullRequestRow> {
  if (closed) {
    throw new Invalid(`issue is closed [id: ${pc.issue.id}, repo_id: ${pc.issue.repoId}, index: ${pc.issue.index}, is_pull: true]`);
  }
  if (pull.hasMerged) throw new HearthError(409, `pull request has merged [id: ${pull.id}]`);
  const targetHead = branchModel.getBranch(env.db, pull.baseRepoId, target);
  const headSha = await syncPullHead(env, pull);
  if (targetHead && headSha === targetHead.commitId) throw new Invalid(`branches are equal [head: ${pull.headBranch}, base: ${target}]`);
  const existing = pulls.findOpenPull(env.db, { ...pull, baseBranch: target, exceptId: pull.id });
  if (existing) throw alreadyExists(existing);
  const moved = { ...pull, baseBranch: target };
  const check = await computePullCheck(env, moved);
  const updated = writeTx(env.db, (tx) => {
    const updated = pulls.updatePull(tx, pull.id, { baseBranch: target, ...storedCheck(check) })!;
    recordEvent(tx, pc.issue, doer, CommentType.ChangeTargetBranch, { oldRef: pull.baseBranch, newRef: target });
    pullEvents.emit(tx, env, { kind: "retargeted", pull: updated, issue: pc.issue, repo: pc.repo, doer, oldBranch: pull.baseBranch });
    return updated;
  });
  return updated;
}

/**
 * Gitea's EditPullRequest: the poster or a writer of pull requests edits title, body and deadline;
 * writers also assignees, milestone and labels; the state cannot change once merged (412) and a
 * reopen is refused while another open request has the same branches or the head branch is gone;
 * `base` retargets the request; only the poster sets allow_maintainer_edit (403). Returns the request
 * and its issue as stored afterwards.
 */
export async function editPull(
  env: Env,
  doer: Doer,
  pc: PullContext & Checked<{ doer: true; notArchived: true }>,
  input: EditPullInput,
): Promise<{ pull: PullRequestRow; issue: IssueRow }> {
  const writer = canWriteIssue(pc);
  if (pc.issue.posterId !== doer.id && !writer) throw new HearthError(403, "");
  let pull = pc.pull;
  let state: "open" | "closed" | undefined;
  if (input.state !== undefined) {
    if (pull.hasMerged) throw new HearthError(412, "cannot change state of this pull request, it was already merged");
    if (input.state !== "open" && input.state !== "closed") throw new HearthError(412, `unknown state: ${input.state}`);
    state = input.state;
    if (state === "open" && pc.issue.isClosed) await checkReopen(env, pull);
  }
  const changeBase = !pull.hasMerged && input.base !== undefined && input.base !== "" && input.base !== pull.baseBranch;
  if (changeBase && !branchModel.getBranch(env.db, pull.baseRepoId, input.base!)) throw new NotFound(`new base '${input.base}' not exist`);
  if (input.allowMaintainerEdit !== undefined && pc.issue.posterId !== doer.id) {
    throw new Forbidden("SetAllowEdits: user not allowed to do this action");
  }

  const issue = editIssue(env, doer, pc, {
    title: input.title || undefined,
    body: input.body,
    assignee: input.assignee,
    assignees: input.assignees,
    milestone: input.milestone ? input.milestone : undefined,
    state,
    deadlineUnix: input.deadlineUnix,
    unsetDueDate: input.unsetDueDate,
  });
  if (writer && input.labels !== undefined) {
    changeIssueLabels(env, { ...pc, issue }, doer, "replace", labelsOfRequest(env, { ...pc, issue }, { ids: input.labels }));
  }
  if (state === "open" && pc.issue.isClosed) {
    // Pushes to a closed request's branch were not followed: catch up now.
    await syncPullHead(env, pull);
    pull = pulls.updatePullIfUnmerged(env.db, pull.id, storedCheck(await computePullCheck(env, pull))) ?? pull;
  }
  if (changeBase) pull = await changeTargetBranch(env, doer, { ...pc, issue }, pull, issue.isClosed, input.base!);
  if (input.allowMaintainerEdit !== undefined && input.allowMaintainerEdit !== pull.allowMaintainerEdit) {
    pull = pulls.updatePull(env.db, pull.id, { allowMaintainerEdit: input.allowMaintainerEdit }) ?? pull;
  }
  return { pull: pulls.getPullById(env.db, pull.id) ?? pull, issue: issues.getIssueById(env.db, pc.issue.id) ?? issue };
}
