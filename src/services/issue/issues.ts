import { removeRepoComments } from "../../models/comment.ts";
import { deleteIssueNotifications } from "../../models/notification.ts";
import type { Env } from "../env.ts";
import { writeTx, type Tx } from "../../db/client.ts";
import { CommentType, type IssueRow, type UserRow } from "../../db/schema/index.ts";
import * as issues from "../../models/issue.ts";
import * as users from "../../models/user.ts";
import { getMilestone, recountMilestone } from "../../models/milestone.ts";
import { labelIdsOfIssue, recountLabels } from "../../models/label.ts";
import { HearthError, Invalid, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { repoPermission } from "../access/permission.ts";
import type { RepoContext } from "../repo/lookup.ts";
import { applyIssueLabels } from "./labels.ts";
import { attachmentsUnderIssue, deleteAttachmentRows } from "../../models/attachment.ts";
import { removeAttachmentFiles } from "./attachments.ts";
import { gitDirOf } from "../repo/lookup.ts";
import { deleteRefsUnder } from "../../git/refs-write.ts";
import { repoDirExists } from "../../git/fork.ts";
import { recordEvent } from "./events.ts";
import { setClosed } from "./state.ts";
import { canWriteIssue, unitOf, type IssueContext } from "./lookup.ts";
import { issueChanged } from "./hooks.ts";
import { getPullByIssueId } from "../../models/pull.ts";
import type { SignedIn } from "../access/repo-access.ts";
import type { Doer } from "../access/permission.ts";
import type { Administers } from "../access/repo-access.ts";

export interface CreateIssueInput {
  title: string;
  body?: string;
  ref?: string;
  assignee?: string;
  assignees?: string[];
  milestone?: number;
  labels?: number[];
  closed?: boolean;
  deadlineUnix?: number;
}

/** Who may be assigned: someone who can write the unit (Gitea's CanBeAssigned), by login. */
function resolveAssignees(env: Env, rc: RepoContext, names: string[], isPull: boolean): number[] {
  const ids: number[] = [];
  for (const name of [...new Set(names.filter(Boolean))]) {
    const user = users.getUserByName(env.db, name);
    if (!user) throw new Invalid(`user does not exist [uid: 0, name: ${name}]`);
    if (!repoPermission(env, user, rc.repo, rc.owner).canWrite(isPull ? "pulls" : "issues")) {
      throw new Invalid(`user ${user.name} does not have access to repository ${rc.owner.name}/${rc.repo.name}`);
    }
    ids.push(user.id);
  }
  return ids;
}

function requireMilestone(env: Env, rc: RepoContext, id: number): void {
  if (id > 0 && !getMilestone(env.db, rc.repo.id, id)) {
    throw new NotFound(`milestone does not exist [id: ${id}, repo_id: ${rc.repo.id}]`);
  }
}

/**
 * Gitea's CreateIssue: anyone who reads the tracker opens an issue; labels, assignees, milestone and
 * deadline are set only by writers (silently dropped for others). With `closed` it is closed at once.
 */
export function createIssue(env: Env, doer: Doer, rc: SignedIn<RepoContext>, input: CreateIssueInput): IssueRow {
  const writer = rc.perm.canWrite("issues");
  const assigneeIds = writer ? resolveAssignees(env, rc, [input.assignee ?? "", ...(input.assignees ?? [])], false) : [];
  const milestoneId = writer ? (input.milestone ?? 0) : 0;
  requireMilestone(env, rc, milestoneId);
  return writeTx(env.db, (tx) => {
    let issue = insertIssueTx(tx, doer, rc, {
      title: input.title,
      content: input.body ?? "",
      ref: input.ref ?? "",
      milestoneId,
      deadlineUnix: writer ? (input.deadlineUnix ?? 0) : 0,
      labelIds: writer ? (input.labels ?? []) : [],
      assigneeIds,
      isPull: false,
    });
    if (input.closed) {
      issue = setClosed(tx, issue, doer, true);
      recountMilestone(tx, milestoneId);
      recountLabels(tx, labelIdsOfIssue(tx, issue.id));
    }
    issueChanged(tx, env, { kind: "created", issue, repo: rc.repo, doer });
    return issue;
  });
}

/** An issue or pull request row as the caller decided it (permissions and references already checked). */
export interface NewIssueFields {
  title: string;
  content: string;
  ref: string;
  milestoneId: number;
  deadlineUnix: number;
  labelIds: number[];
  assigneeIds: number[];
  isPull: boolean;
}

/**
 * Inserts an issue (or the issue row of a pull request) inside the caller's transaction: the next
 * index of the shared sequence, labels, assignees, and the repository's and milestone's counters.
 * The caller reports the creation (issueChanged) in its transaction.
 */
export function insertIssueTx(tx: Tx, doer: UserRow, rc: RepoContext, f: NewIssueFields): IssueRow {
  const now = nowUnix();
  const issue = issues.insertIssue(tx, {
    repoId: rc.repo.id,
    index: issues.nextIssueIndex(tx, rc.repo.id),
    posterId: doer.id,
    title: f.title,
    content: f.content,
    ref: f.ref,
    milestoneId: f.milestoneId,
    deadlineUnix: f.deadlineUnix,
    isPull: f.isPull,
    createdUnix: now,
    updatedUnix: now,
  });
  if (f.labelIds.length) applyIssueLabels(tx, issue, rc.repo, doer, f.labelIds, false);
  if (f.assigneeIds.length) issues.setAssignees(tx, issue.id, f.assigneeIds);
  issues.adjustRepoIssueCounters(tx, rc.repo.id, f.isPull, { all: 1, closed: 0 });
  recountMilestone(tx, f.milestoneId);
  return issue;
}

export interface EditIssueInput {
  title?: string;
  body?: string;
  ref?: string;
  assignee?: string;
  assignees?: string[];
  milestone?: number;
  state?: "open" | "closed";
  deadlineUnix?: number;
  unsetDueDate?: boolean;
}

/**
 * Gitea's EditIssue: the poster or a writer of the unit may edit; only writers change assignees,
 * milestone and deadline. A closing blocked by open dependencies is refused (412), as is changing
 * the state of a merged pull request.
 */
export function editIssue(env: Env, doer: Doer, ic: SignedIn<IssueContext>, input: EditIssueInput): IssueRow {
  const writer = canWriteIssue(ic);
  if (ic.issue.posterId !== doer.id && !writer) throw new HearthError(403, "");
  const assigneeNames =
    writer && (input.assignees !== undefined || input.assignee !== undefined)
      ? [input.assignee ?? "", ...(input.assignees ?? [])]
      : undefined;
  const assigneeIds = assigneeNames ? resolveAssignees(env, ic, assigneeNames, ic.issue.isPull) : undefined;
  if (writer && input.milestone !== undefined) requireMilestone(env, ic, input.milestone);
  if (input.state !== undefined && ic.issue.isPull && getPullByIssueId(env.db, ic.issue.id)?.hasMerged) {
    throw new HearthError(412, "cannot change state of this pull request, it was already merged");
  }
  if (input.state === "closed" && !ic.issue.isClosed && openDependencyCount(env, ic.issue) > 0) {
    throw new HearthError(412, "cannot close this issue or pull request because it still has open dependencies");
  }
  const now = nowUnix();
  const before = ic.issue;
  return writeTx(env.db, (tx) => {
    let issue = before;
    let assigned: number[] = [];
    let unassigned: number[] = [];
    const patch: Partial<IssueRow> = {};
    if (input.title && input.title !== issue.title) {
      recordEvent(tx, issue, doer, CommentType.ChangeTitle, { oldTitle: issue.title, newTitle: input.title });
      patch.title = input.title;
    }
    if (input.body !== undefined && input.body !== issue.content) {
      patch.content = input.body;
      patch.contentVersion = issue.contentVersion + 1;
    }
    if (input.ref !== undefined && input.ref !== issue.ref) {
      recordEvent(tx, issue, doer, CommentType.ChangeIssueRef, { oldRef: issue.ref, newRef: input.ref });
      patch.ref = input.ref;
    }
    if (writer && (input.deadlineUnix !== undefined || input.unsetDueDate)) {
      const deadline = input.unsetDueDate ? 0 : (input.deadlineUnix ?? 0);
      if (deadline !== issue.deadlineUnix) {
        const type = deadline === 0 ? CommentType.RemovedDeadline : issue.deadlineUnix === 0 ? CommentType.AddedDeadline : CommentType.ModifiedDeadline;
        recordEvent(tx, issue, doer, type, { content: deadlineContent(deadline, issue.deadlineUnix) });
        patch.deadlineUnix = deadline;
      }
    }
    if (writer && input.milestone !== undefined && input.milestone !== issue.milestoneId) {
      recordEvent(tx, issue, doer, CommentType.Milestone, { oldMilestoneId: issue.milestoneId, milestoneId: input.milestone });
      patch.milestoneId = input.milestone;
    }
    if (Object.keys(patch).length) issue = issues.updateIssue(tx, issue.id, { ...patch, updatedUnix: now })!;
    if (assigneeIds) {
      const { added, removed } = issues.setAssignees(tx, issue.id, assigneeIds);
      assigned = added;
      unassigned = removed;
      for (const id of added) recordEvent(tx, issue, doer, CommentType.Assignees, { assigneeId: id });
      for (const id of removed) recordEvent(tx, issue, doer, CommentType.Assignees, { assigneeId: id, removedAssignee: true });
    }
    if (input.state) issue = setClosed(tx, issue, doer, input.state === "closed");
    recountMilestone(tx, before.milestoneId);
    recountMilestone(tx, issue.milestoneId);
    if (before.isClosed !== issue.isClosed) recountLabels(tx, labelIdsOfIssue(tx, issue.id));
    issueChanged(tx, env, { kind: "edited", issue, before, repo: ic.repo, doer, assigned, unassigned });
    return issue;
  });
}

/** Gitea stores the deadline change as "new|old" dates in the event's content. */
function deadlineContent(deadline: number, old: number): string {
  const day = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 10);
  if (deadline === 0) return day(old);
  return old === 0 ? day(deadline) : `${day(deadline)}|${day(old)}`;
}

/** How many of the issues this one depends on are still open. */
export function openDependencyCount(env: Env, issue: IssueRow): number {
  return issues.countOpenDependencies(env.db, issue.id);
}

/**
 * Deletes an issue with everything hanging off it. For a pull request the repository's git data is
 * located first (Gitea loads it before deleting) and the request's refs (`refs/pull/{index}/…`) go
 * once the rows are gone.
 * (comments, labels, assignees, reactions, watches:
 * foreign-key cascades), recounting the repository, milestone and labels.
 */
export async function deleteIssue(env: Env, ic: Administers<IssueContext>): Promise<void> {
  const { issue } = ic;
  const labelIds = labelIdsOfIssue(env.db, issue.id);
  const files = attachmentsUnderIssue(env.db, issue.id);
  const gitDir = issue.isPull ? gitDirOf(env, ic.owner, ic.repo) : undefined;
  writeTx(env.db, (tx) => {
    // Attachments have no foreign key to the issue (release assets share the table): delete them explicitly.
    deleteAttachmentRows(tx, files.map((a) => a.id));
    const current = issues.getIssueById(tx, issue.id) ?? issue;
    issues.deleteIssueRow(tx, issue.id);
    // Its threads go in the same transaction, so a list never shows a thread without its issue.
    deleteIssueNotifications(tx, issue.id);
    issues.adjustRepoIssueCounters(tx, issue.repoId, issue.isPull, { all: -1, closed: current.isClosed ? -1 : 0 });
    removeRepoComments(tx, issue.repoId, current.numComments);
    recountMilestone(tx, issue.milestoneId);
    recountLabels(tx, labelIds);
    issueChanged(tx, env, { kind: "deleted", issue, repo: ic.repo });
  });
  removeAttachmentFiles(env, files);
  if (gitDir && repoDirExists(gitDir)) await deleteRefsUnder(gitDir, `refs/pull/${issue.index}/`);
}

/** Which units' issues a listing may include for this doer. */
export function readableKinds(rc: RepoContext): { issues: boolean; pulls: boolean } {
  return { issues: rc.perm.canRead("issues"), pulls: rc.perm.canRead("pulls") };
}

export { unitOf };
