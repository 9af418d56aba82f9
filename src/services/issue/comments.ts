import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { CommentType, type AttachmentRow, type CommentRow, type IssueRow, type RepoRow, type UserRow } from "../../db/schema/index.ts";
import * as comments from "../../models/comment.ts";
import * as issues from "../../models/issue.ts";
import * as users from "../../models/user.ts";
import { attachmentsOfComments, deleteAttachmentRows } from "../../models/attachment.ts";
import { deleteCommentReactions } from "../../models/reaction.ts";
import { Forbidden, HearthError, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { ghostUser } from "../user/profile.ts";
import type { RepoContext } from "../repo/lookup.ts";
import type { CheckOf, SignedIn } from "../access/repo-access.ts";
import { unitOf, type IssueContext } from "./lookup.ts";
import { issueChanged } from "./hooks.ts";
import { removeAttachmentFiles } from "./attachments.ts";
import type { Doer } from "../access/permission.ts";

/** A comment of an issue of the repository, as the doer may see it. */
export interface CommentContext extends IssueContext {
  comment: CommentRow;
}

/** A comment with everything its JSON shows. */
export interface CommentView {
  comment: CommentRow;
  issue: IssueRow;
  repo: RepoRow;
  owner: UserRow;
  poster: UserRow;
  attachments: AttachmentRow[];
}

/**
 * `{id}` of a comment route: a comment on an issue of this repository whose unit (issues or pulls)
 * the doer reads; anything else is 404, so ids of other repositories and hidden trackers tell nothing.
 */
export function commentFromPath<R extends RepoContext>(env: Env, rc: R, id: string): CommentContext & CheckOf<R> {
  const cc = commentOfRepo(env, rc, id);
  if (!rc.perm.canRead(unitOf(cc.issue))) throw new NotFound();
  // The comment's context extends the repository's, so it carries the repository's check.
  return cc as CommentContext & CheckOf<R>;
}

/** A comment on an issue of this repository, whether or not the doer reads its unit; else 404. */
export function commentOfRepo(env: Env, rc: RepoContext, id: string): CommentContext {
  if (!/^\d{1,15}$/.test(id)) throw new NotFound();
  const comment = comments.getCommentById(env.db, Number(id));
  const issue = comment && issues.getIssueById(env.db, comment.issueId);
  if (!comment || !issue || issue.repoId !== rc.repo.id) throw new NotFound();
  return { ...rc, issue, comment };
}

/** Loads posters and attachments for comments of the repository's issues. */
export function commentViews(env: Env, rc: Pick<RepoContext, "repo" | "owner">, rows: CommentRow[], known: IssueRow[] = []): CommentView[] {
  const byId = new Map(known.map((i) => [i.id, i]));
  const missing = [...new Set(rows.map((c) => c.issueId))].filter((id) => !byId.has(id));
  for (const i of issues.getIssuesByIds(env.db, missing)) byId.set(i.id, i);
  const people = new Map(users.getUsersByIds(env.db, [...new Set(rows.map((c) => c.posterId))]).map((u) => [u.id, u]));
  const files = attachmentsOfComments(env.db, rows.map((c) => c.id));
  return rows.map((comment) => ({
    comment,
    issue: byId.get(comment.issueId)!,
    repo: rc.repo,
    owner: rc.owner,
    poster: people.get(comment.posterId) ?? ghostUser(),
    attachments: files.get(comment.id) ?? [],
  }));
}

function commentView(env: Env, cc: CommentContext): CommentView {
  return commentViews(env, cc, [cc.comment], [cc.issue])[0]!;
}

/** Gitea's GetIssueComment: a plain comment; a timeline event (also a comment row) gives undefined (204). */
export function getComment(env: Env, cc: CommentContext): CommentView | undefined {
  return cc.comment.type === CommentType.Comment ? commentView(env, cc) : undefined;
}

export interface CommentWindow {
  /** Only comments updated at or after this time (Unix seconds). */
  sinceUnix?: number;
  /** Only comments updated at or before this time. */
  beforeUnix?: number;
}

/** Gitea counts a zero or negative bound as no bound. */
const bound = (unix: number | undefined) => (unix !== undefined && unix > 0 ? unix : undefined);

/** Gitea's ListIssueComments: the plain comments of one issue, all of them, oldest first. */
export function listIssueComments(env: Env, ic: IssueContext, w: CommentWindow): CommentView[] {
  const { rows } = comments.findComments(env.db, {
    issueId: ic.issue.id,
    type: CommentType.Comment,
    sinceUnix: bound(w.sinceUnix),
    beforeUnix: bound(w.beforeUnix),
  });
  return commentViews(env, ic, rows, [ic.issue]);
}

/**
 * Gitea's ListRepoIssueComments: the plain comments of every issue of the repository whose unit
 * the doer reads (issues, pull requests or both; neither is 404), a page at a time.
 */
export function listRepoComments(
  env: Env,
  rc: RepoContext,
  w: CommentWindow & { offset: number; limit: number },
): { views: CommentView[]; total: number } {
  const readIssues = rc.perm.canRead("issues");
  const readPulls = rc.perm.canRead("pulls");
  if (!readIssues && !readPulls) throw new NotFound();
  const { rows, total } = comments.findComments(
    env.db,
    {
      repoId: rc.repo.id,
      isPull: readIssues && readPulls ? undefined : readPulls,
      type: CommentType.Comment,
      sinceUnix: bound(w.sinceUnix),
      beforeUnix: bound(w.beforeUnix),
    },
    { offset: w.offset, limit: w.limit },
  );
  return { views: commentViews(env, rc, rows), total };
}

/**
 * Gitea's CreateIssueComment: anyone who reads the issue comments on it, but only writers (and site
 * admins) on a locked one. The issue's comment count and update time move; watchers and the users
 * the comment mentions are notified once it is stored.
 */
export function createComment(env: Env, doer: Doer, ic: SignedIn<IssueContext>, body: string): CommentView {
  if (ic.issue.isLocked && !ic.perm.canWrite(unitOf(ic.issue)) && !doer.isAdmin) {
    throw new Forbidden("You cannot comment on a locked issue.");
  }
  const now = nowUnix();
  const { comment, issue } = writeTx(env.db, (tx) => {
    const comment = comments.insertComment(tx, {
      type: CommentType.Comment,
      issueId: ic.issue.id,
      posterId: doer.id,
      content: body,
      createdUnix: now,
      updatedUnix: now,
    });
    const issue = comments.commentAdded(tx, ic.issue.id, now)!;
    issueChanged(tx, env, { kind: "commented", issue, comment, repo: ic.repo, doer });
    return { comment, issue };
  });
  // Everything the reply shows is at hand: the doer posted it, and a new comment has no files yet.
  return { comment, issue, repo: ic.repo, owner: ic.owner, poster: doer, attachments: [] };
}

/** The comment types whose text can be edited (Gitea's HasContentSupport). */
const WITH_CONTENT = new Set<number>([CommentType.Comment, CommentType.Code, CommentType.Review, CommentType.DismissReview]);

/** Gitea lets the poster and the unit's writers change or delete a comment; others get a bare 403. */
function requireCommentAuthor(doer: UserRow, cc: CommentContext): void {
  if (doer.id !== cc.comment.posterId && !cc.perm.canWrite(unitOf(cc.issue))) throw new HearthError(403, "");
}

/**
 * Gitea's editIssueComment: a new body (the update time moves only when it changed). Timeline
 * events carry no text: for them nothing happens and undefined is returned (Gitea's 204).
 */
export function editComment(env: Env, doer: Doer, cc: SignedIn<CommentContext>, body: string): CommentView | undefined {
  requireCommentAuthor(doer, cc);
  if (!WITH_CONTENT.has(cc.comment.type)) return undefined;
  // Gitea announces the edit even when the text stayed the same.
  const comment = writeTx(env.db, (tx) => {
    const old = cc.comment;
    const updated =
      body !== old.content ? comments.updateComment(tx, old.id, { content: body, contentVersion: old.contentVersion + 1, updatedUnix: nowUnix() })! : old;
    issueChanged(tx, env, { kind: "comment-edited", issue: cc.issue, comment: updated, oldContent: old.content, repo: cc.repo, doer });
    return updated;
  });
  return commentView(env, { ...cc, comment });
}

/**
 * Gitea's deleteIssueComment: the comment goes with its reactions and attachments (files too),
 * and the issue's comment count is recounted. A code review comment is left alone (Gitea answers
 * 204 without deleting it: reviews own those).
 */
export function deleteComment(env: Env, doer: Doer, cc: SignedIn<CommentContext>): void {
  requireCommentAuthor(doer, cc);
  if (cc.comment.type === CommentType.Code) return;
  const files = attachmentsOfComments(env.db, [cc.comment.id]).get(cc.comment.id) ?? [];
  writeTx(env.db, (tx) => {
    deleteAttachmentRows(tx, files.map((a) => a.id));
    deleteCommentReactions(tx, cc.comment.id);
    comments.deleteCommentRow(tx, cc.comment.id);
    comments.recountIssueComments(tx, cc.issue.id);
    issueChanged(tx, env, { kind: "comment-deleted", issue: cc.issue, comment: cc.comment, repo: cc.repo, doer });
  });
  removeAttachmentFiles(env, files);
}
