import type { Env } from "../env.ts";
import { writeTx, type Tx } from "../../db/client.ts";
import { CommentType, ReviewType, UserType, type CommentRow, type ReviewRow, type UserRow } from "../../db/schema/index.ts";
import * as reviewModel from "../../models/review.ts";
import { isTeamMember } from "../../models/team.ts";
import { Forbidden, HearthError, Invalid, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { mergeBase } from "../../git/log.ts";
import { readBranchHead } from "../../git/refs.ts";
import { pullContentChanged } from "../../git/file-diff.ts";
import { recordActivity } from "../issue/touch.ts";
import { issueChanged } from "../issue/hooks.ts";
import { pullEvents } from "../events/pull-events.ts";
import { gitDirOf, type RepoContext } from "../repo/lookup.ts";
import { pullFromPath, type PullContext } from "./lookup.ts";
import { pullHeadCommit } from "./head-ref.ts";
import { isOfficialReviewerOf } from "./review-official.ts";
import { insertCodeComment, prepareCodeComment, type CodeCommentInput } from "./review-comment.ts";
import type { Checked } from "../access/repo-access.ts";
import type { Doer } from "../access/permission.ts";

/** The review events of the API (Gitea's ReviewStateType); anything else keeps a review pending. */
export type ReviewEvent = "APPROVED" | "REQUEST_CHANGES" | "COMMENT" | "PENDING" | string;

const isVerdict = (type: number) => type === ReviewType.Approve || type === ReviewType.Reject;

/**
 * Gitea's preparePullReviewType: the review type of an event, refusing (422) what Gitea refuses:
 * approving or rejecting one's own request, rejecting without a body, commenting with neither a
 * body nor code comments, and any other event (pending) without a body.
 */
export function reviewTypeOf(pc: PullContext, doer: UserRow, event: ReviewEvent, body: string, hasComments: boolean): number {
  const hasBody = body.trim().length > 0;
  const own = pc.issue.posterId === doer.id;
  let type: number;
  let needsBody = true;
  switch (event) {
    case "APPROVED":
      if (own) throw new Invalid("approve your own pull is not allowed");
      type = ReviewType.Approve;
      needsBody = false;
      break;
    case "REQUEST_CHANGES":
      if (own) throw new Invalid("reject your own pull is not allowed");
      type = ReviewType.Reject;
      break;
    case "COMMENT":
      type = ReviewType.Comment;
      needsBody = false;
      if (!hasBody && !hasComments) throw new Invalid(`review event ${event} requires a body or a comment`);
      break;
    default:
      type = ReviewType.Pending;
  }
  if (needsBody && !hasBody) throw new Invalid(`review event ${event} requires a body`);
  return type;
}

/** The head of the request as its base repository holds it (`refs/pull/{index}/head`). */
async function headOf(env: Env, pc: PullContext): Promise<{ gitDir: string; head: string }> {
  const gitDir = gitDirOf(env, pc.owner, pc.repo);
  const head = await pullHeadCommit(gitDir, pc.pull);
  // Gitea answers 500 when the ref is missing; nothing the caller can do about it either way.
  if (!head) throw new HearthError(500, "pull request head is missing");
  return { gitDir, head };
}

/**
 * Gitea's check of a verdict made on an older commit: stale when the push since changed what the
 * request proposes. A commit git does not know is taken as changed.
 */
async function isStale(pc: PullContext, gitDir: string, head: string, commitId: string): Promise<boolean> {
  if (commitId === head) return false;
  const baseHead = (await readBranchHead(gitDir, pc.pull.baseBranch))?.commitId;
  const base = (baseHead && (await mergeBase(gitDir, baseHead, head))) || pc.pull.mergeBase;
  return pullContentChanged(gitDir, head, commitId, base).catch(() => true);
}

/** The review operations refuse verdicts on closed or merged requests (Gitea's ErrSubmitReviewOnClosedPR). */
function requireOpenForVerdict(pc: PullContext, type: number): void {
  if (isVerdict(type) && (pc.issue.isClosed || pc.pull.hasMerged)) throw new Invalid("can't submit review for a closed or merged PR");
}

/**
 * Gitea's issues_model.SubmitReview, in one transaction: the doer's pending review becomes the
 * review (or a new one is made), a verdict takes the official flag from the reviewer's earlier
 * reviews and is official if the reviewer's approvals count, earlier verdicts are dismissed and
 * open requests to the reviewer (and to teams the reviewer belongs to, on organization
 * repositories) are answered. Submitted reviews get their timeline entry; a review kept pending
 * gets none (Gitea writes one that the API timeline then shows before the review is submitted).
 */
function submitInTx(
  tx: Tx,
  env: Env,
  pc: PullContext,
  doer: UserRow,
  s: { type: number; content: string; commitId: string; stale: boolean },
): { review: ReviewRow; comment: CommentRow | undefined } {
  const now = nowUnix();
  const pending = reviewModel.pendingReview(tx, pc.issue.id, doer.id);
  const hasCode = pending ? reviewModel.codeCommentsOfReview(tx, pc.issue.id, pending.id, true).length > 0 : false;
  if (s.type !== ReviewType.Approve && !hasCode && s.content.trim() === "") throw new Invalid("Review content is empty");
  let official = false;
  if (isVerdict(s.type)) {
    reviewModel.clearOfficial(tx, pc.issue.id, { reviewerId: doer.id });
    official = isOfficialReviewerOf(env, pc, doer);
  }
  if (s.type !== ReviewType.Pending) reviewModel.deleteUserRequests(tx, pc.issue.id, doer.id);
  if (isVerdict(s.type)) reviewModel.dismissPriorVerdicts(tx, pc.issue.id, doer.id);
  const fields = { type: s.type, content: s.content, official, commitId: s.commitId, stale: s.stale, updatedUnix: now };
  const review = pending
    ? reviewModel.updateReview(tx, pending.id, fields)!
    : reviewModel.insertReview(tx, { ...fields, issueId: pc.issue.id, reviewerId: doer.id, createdUnix: now });
  if (s.type === ReviewType.Pending) return { review, comment: undefined };
  const comment = recordActivity(tx, pc.issue, doer, CommentType.Review, { content: s.content, reviewId: review.id });
  if (pc.owner.type === UserType.Organization && isVerdict(s.type)) {
    for (const request of reviewModel.teamRequests(tx, pc.issue.id)) {
      if (isTeamMember(tx, request.reviewerTeamId, doer.id)) reviewModel.deleteReviewRow(tx, request.id);
    }
  }
  return { review, comment };
}

/** Submits in one transaction with its announcement: watchers and mentioned users hear of it. */
function submit(env: Env, pc: PullContext, doer: UserRow, s: Parameters<typeof submitInTx>[4]): ReviewRow {
  const { review } = writeTx(env.db, (tx) => {
    const done = submitInTx(tx, env, pc, doer, s);
    if (done.comment) {
      issueChanged(tx, env, { kind: "commented", issue: pc.issue, comment: done.comment, repo: pc.repo, doer });
      pullEvents.emit(tx, env, { kind: "reviewed", pull: pc.pull, issue: pc.issue, repo: pc.repo, review: done.review, reviewer: doer });
    }
    return done;
  });
  // An approval may complete a scheduled merge: automerge hears of it from the "reviewed" event.
  return review;
}

export interface CreateReviewInput {
  event: ReviewEvent;
  body: string;
  commitId: string;
  comments: CodeCommentInput[];
}

/**
 * Gitea's CreatePullReview: the code comments join the doer's pending review (made on `commitId`,
 * by default the head, when there is none), then the review is submitted with the event's type.
 */
export async function createReview(env: Env, doer: Doer, pc: PullContext & Checked<{ doer: true; notArchived: true }>, input: CreateReviewInput): Promise<ReviewRow> {
  const type = reviewTypeOf(pc, doer, input.event, input.body, input.comments.length > 0);
  requireOpenForVerdict(pc, type);
  const { gitDir, head } = await headOf(env, pc);
  const commitId = input.commitId || head;
  if (input.comments.length > 0) {
    const pending = writeTx(env.db, (tx) => {
      const now = nowUnix();
      return (
        reviewModel.pendingReview(tx, pc.issue.id, doer.id) ??
        reviewModel.insertReview(tx, { type: ReviewType.Pending, issueId: pc.issue.id, reviewerId: doer.id, commitId, createdUnix: now, updatedUnix: now })
      );
    });
    // One at a time: a second comment on a line takes its commit and hunk from the first.
    for (const c of input.comments) {
      const prepared = await prepareCodeComment(env, gitDir, pc.pull, head, pending, c);
      writeTx(env.db, (tx) => insertCodeComment(tx, pc.issue, doer.id, pending.id, prepared));
    }
  }
  const stale = isVerdict(type) ? await isStale(pc, gitDir, head, commitId) : false;
  return submit(env, pc, doer, { type, content: input.body, commitId, stale });
}

/** Gitea's SubmitPullReview: a pending review gets its event, made on the current head. */
export async function submitPendingReview(env: Env, doer: Doer, pc: PullContext & Checked<{ doer: true; notArchived: true }>, review: ReviewRow, event: ReviewEvent, body: string): Promise<ReviewRow> {
  if (review.type !== ReviewType.Pending) throw new Invalid("only a pending review can be submitted");
  // Gitea looks at the review's unloaded comment list here, so a bare COMMENT is refused even
  // with code comments; those comments are counted here, as its model's own check does.
  const hasComments = reviewModel.codeCommentsOfReview(env.db, pc.issue.id, review.id, true).length > 0;
  const type = reviewTypeOf(pc, doer, event, body, hasComments);
  if (type === ReviewType.Pending) throw new Invalid("review stay pending");
  requireOpenForVerdict(pc, type);
  const { head } = await headOf(env, pc);
  // Made on the head, so never stale.
  return submit(env, pc, doer, { type, content: body, commitId: head, stale: false });
}

/** A review of the path's request, as Gitea's prepareSingleReview finds it: others' pending reviews are not there. */
export function reviewFromPath(env: Env, pc: PullContext, id: string, doer: UserRow | undefined): ReviewRow {
  const review = /^\d{1,15}$/.test(id) ? reviewModel.getReviewById(env.db, Number(id)) : undefined;
  if (!review || review.issueId !== pc.issue.id) throw new NotFound();
  if (review.type === ReviewType.Pending && (!doer || (doer.id !== review.reviewerId && !doer.isAdmin))) throw new NotFound();
  return review;
}

/** The request and one of its reviews from the path. */
export function pullReviewFromPath(env: Env, rc: RepoContext, index: string, id: string, doer: UserRow | undefined): { pc: PullContext; review: ReviewRow } {
  const pc = pullFromPath(env, rc, index);
  return { pc, review: reviewFromPath(env, pc, id, doer) };
}

/**
 * Gitea's DeletePullReview: the reviewer or a site admin deletes a review with its comments; when
 * it was official, the reviewer's latest remaining verdict or request becomes official again.
 */
export function deleteReview(env: Env, doer: UserRow, pc: PullContext, review: ReviewRow): void {
  if (!doer.isAdmin && doer.id !== review.reviewerId) throw new Forbidden("user should be the review's author or a site admin");
  // Gitea answers 500 here; a request is withdrawn through requested_reviewers.
  if (review.type === ReviewType.Request) throw new Invalid("review request can not be deleted using this method");
  writeTx(env.db, (tx) => {
    reviewModel.deleteReviewWithComments(tx, review);
    if (review.official) {
      const latest = reviewModel.latestUserReview(tx, pc.issue.id, review.reviewerId);
      if (latest) reviewModel.updateReview(tx, latest.id, { official: true });
    }
  });
}

/**
 * Who may dismiss a review or restore it: a repository administrator (Gitea's dismissReview asks
 * this before it looks for the request or the review, so a missing one is a 403 too).
 */
export function requireReviewDismisser(rc: RepoContext): void {
  if (!rc.perm.isAdmin()) throw new Forbidden("Must be repo admin");
}

/**
 * Gitea's DismissReview (repository admins only: requireReviewDismisser, first): approvals and rejections
 * of open requests are dismissed, with a timeline entry carrying the message, or restored; with
 * `priors` the reviewer's other standing verdicts are dismissed too.
 */
export function dismissReview(env: Env, doer: UserRow, pc: PullContext, review: ReviewRow, d: { dismiss: boolean; message: string; priors: boolean }): ReviewRow {
  if (!isVerdict(review.type)) throw new Forbidden("not need to dismiss this review because it's type is not Approve or change request");
  if (pc.issue.isClosed || pc.pull.hasMerged) throw new Forbidden("can't dismiss a review associated to a closed or merged PR");
  return writeTx(env.db, (tx) => {
    if (review.dismissed !== d.dismiss) reviewModel.updateReview(tx, review.id, { dismissed: d.dismiss, updatedUnix: nowUnix() });
    if (d.priors) {
      for (const prior of reviewModel.undismissedReviewsOf(tx, pc.issue.id, review.reviewerId)) {
        if (isVerdict(prior.type)) reviewModel.updateReview(tx, prior.id, { dismissed: true, updatedUnix: nowUnix() });
      }
    }
    if (d.dismiss) recordActivity(tx, pc.issue, doer, CommentType.DismissReview, { content: d.message, reviewId: review.id });
    return reviewModel.getReviewById(tx, review.id)!;
  });
}
