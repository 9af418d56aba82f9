import { and, asc, count, desc, eq, inArray, max, min, ne } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { idsParam, inIdsPlaceholder } from "./id-list.ts";
import { CommentType, comments, reviews, ReviewType, type CommentRow, type ReviewRow } from "../db/schema/index.ts";

type NewReviewRow = typeof reviews.$inferInsert;

/** The read side of reviews that the pull request JSON needs. */

/**
 * Gitea's requested reviewers of pull requests (PullRequestList.LoadReviews / GetReviewsByIssueID):
 * per issue and reviewer the latest review among requests, approvals and rejections (not
 * dismissed, not migrated), so a reviewer who answered stays listed; per issue and team the
 * latest team request. Oldest first by update time.
 */
export function reviewRequestsOfIssues(tx: Tx, issueIds: number[]): Map<number, ReviewRow[]> {
  const out = new Map<number, ReviewRow[]>();
  if (issueIds.length === 0) return out;
  // Prepared once: a page of pull requests asks this on every list.
  const [perReviewer, perTeam] = prepared(tx, "review.requestsOf", (t) => {
    const latestPerReviewer = t
      .select({ id: max(reviews.id) })
      .from(reviews)
      .where(
        and(
          inIdsPlaceholder(reviews.issueId),
          inArray(reviews.type, [ReviewType.Request, ReviewType.Approve, ReviewType.Reject]),
          eq(reviews.dismissed, false),
          eq(reviews.originalAuthorId, 0),
          eq(reviews.reviewerTeamId, 0),
        ),
      )
      .groupBy(reviews.issueId, reviews.reviewerId);
    const latestPerTeam = t
      .select({ id: max(reviews.id) })
      .from(reviews)
      .where(and(inIdsPlaceholder(reviews.issueId), eq(reviews.originalAuthorId, 0), ne(reviews.reviewerTeamId, 0)))
      .groupBy(reviews.issueId, reviews.reviewerTeamId);
    return [
      t.select().from(reviews).where(inArray(reviews.id, latestPerReviewer)).orderBy(asc(reviews.updatedUnix), asc(reviews.id)).prepare(),
      t.select().from(reviews).where(inArray(reviews.id, latestPerTeam)).orderBy(asc(reviews.updatedUnix), asc(reviews.id)).prepare(),
    ] as const;
  });
  const rows = [...perReviewer.all(idsParam(issueIds)), ...perTeam.all(idsParam(issueIds))];
  for (const r of rows) {
    const list = out.get(r.issueId) ?? [];
    list.push(r);
    out.set(r.issueId, list);
  }
  return out;
}

/** Gitea's GetReviewCommentsCount: code comments that are not invalidated, by issue. */
export function reviewCommentCounts(tx: Tx, issueIds: number[]): Map<number, number> {
  if (issueIds.length === 0) return new Map();
  const rows = prepared(tx, "review.codeCommentCounts", (t) =>
    t
      .select({ issueId: comments.issueId, n: count() })
      .from(comments)
      .where(and(inIdsPlaceholder(comments.issueId), eq(comments.type, CommentType.Code), eq(comments.invalidated, false)))
      .groupBy(comments.issueId)
      .prepare(),
  ).all(idsParam(issueIds));
  return new Map(rows.map((r) => [r.issueId, r.n]));
}

/** The write and read side of reviews for the review operations. */

export function getReviewById(tx: Tx, id: number): ReviewRow | undefined {
  return tx.select().from(reviews).where(eq(reviews.id, id)).get();
}

/** Gitea's FindReviews for one issue: every type, oldest first. */
export function listReviews(tx: Tx, issueId: number, page?: { offset: number; limit: number }): { rows: ReviewRow[]; total: number } {
  const q = tx.select().from(reviews).where(eq(reviews.issueId, issueId)).orderBy(asc(reviews.createdUnix), asc(reviews.id));
  const rows = (page ? q.limit(page.limit).offset(page.offset) : q).all();
  const total = page ? (tx.select({ n: count() }).from(reviews).where(eq(reviews.issueId, issueId)).get()?.n ?? 0) : rows.length;
  return { rows, total };
}

/** Gitea's GetCurrentReview: the reviewer's pending review of the issue. */
export function pendingReview(tx: Tx, issueId: number, reviewerId: number): ReviewRow | undefined {
  return tx
    .select()
    .from(reviews)
    .where(and(eq(reviews.issueId, issueId), eq(reviews.reviewerId, reviewerId), eq(reviews.type, ReviewType.Pending)))
    .orderBy(asc(reviews.createdUnix), asc(reviews.id))
    .get();
}

export function insertReview(tx: Tx, row: NewReviewRow): ReviewRow {
  return tx.insert(reviews).values(row).returning().get();
}

export function updateReview(tx: Tx, id: number, patch: Partial<NewReviewRow>): ReviewRow | undefined {
  return tx.update(reviews).set(patch).where(eq(reviews.id, id)).returning().get();
}

export function deleteReviewRow(tx: Tx, id: number): void {
  tx.delete(reviews).where(eq(reviews.id, id)).run();
}

/** Gitea's DeleteReview: the review goes with its code comments, its timeline entry and its dismissals. */
export function deleteReviewWithComments(tx: Tx, review: Pick<ReviewRow, "id" | "issueId">): void {
  tx.delete(comments)
    .where(
      and(
        eq(comments.issueId, review.issueId),
        eq(comments.reviewId, review.id),
        inArray(comments.type, [CommentType.Code, CommentType.Review, CommentType.DismissReview]),
      ),
    )
    .run();
  deleteReviewRow(tx, review.id);
}

/** A user's open review requests on the issue (cleared when they review). */
export function deleteUserRequests(tx: Tx, issueId: number, reviewerId: number): void {
  tx.delete(reviews)
    .where(and(eq(reviews.issueId, issueId), eq(reviews.reviewerId, reviewerId), eq(reviews.type, ReviewType.Request)))
    .run();
}

/** Dismisses a reviewer's earlier approvals and rejections, so a later dismissal brings none of them back. */
export function dismissPriorVerdicts(tx: Tx, issueId: number, reviewerId: number): void {
  tx.update(reviews)
    .set({ dismissed: true })
    .where(and(eq(reviews.issueId, issueId), eq(reviews.reviewerId, reviewerId), inArray(reviews.type, [ReviewType.Approve, ReviewType.Reject])))
    .run();
}

/** Only a reviewer's latest verdict counts as official: the earlier ones lose the flag. */
export function clearOfficial(tx: Tx, issueId: number, by: { reviewerId: number } | { teamId: number }): void {
  const who = "reviewerId" in by ? eq(reviews.reviewerId, by.reviewerId) : eq(reviews.reviewerTeamId, by.teamId);
  tx.update(reviews).set({ official: false }).where(and(eq(reviews.issueId, issueId), who)).run();
}

/** Gitea's GetReviewByIssueIDAndUserID: the user's latest request, approval or rejection (not migrated). */
export function latestUserReview(tx: Tx, issueId: number, userId: number): ReviewRow | undefined {
  return tx
    .select()
    .from(reviews)
    .where(
      and(
        eq(reviews.issueId, issueId),
        eq(reviews.reviewerId, userId),
        eq(reviews.originalAuthorId, 0),
        inArray(reviews.type, [ReviewType.Approve, ReviewType.Reject, ReviewType.Request]),
      ),
    )
    .orderBy(desc(reviews.id))
    .get();
}

/** Gitea's GetTeamReviewerByIssueIDAndTeamID: the team's latest review row on the issue. */
export function latestTeamReview(tx: Tx, issueId: number, teamId: number): ReviewRow | undefined {
  return tx
    .select()
    .from(reviews)
    .where(and(eq(reviews.issueId, issueId), eq(reviews.reviewerTeamId, teamId)))
    .orderBy(desc(reviews.id))
    .get();
}

/** Open review requests of teams on the issue. */
export function teamRequests(tx: Tx, issueId: number): ReviewRow[] {
  return tx
    .select()
    .from(reviews)
    .where(and(eq(reviews.issueId, issueId), ne(reviews.reviewerTeamId, 0), eq(reviews.type, ReviewType.Request)))
    .all();
}

/** Gitea's MarkReviewsAsStale: every review of the issue. */
export function markReviewsStale(tx: Tx, issueId: number): void {
  tx.update(reviews).set({ stale: true }).where(eq(reviews.issueId, issueId)).run();
}

/** Gitea's MarkReviewsAsNotStale: the reviews made on `commitId`. */
export function markReviewsNotStale(tx: Tx, issueId: number, commitId: string): void {
  tx.update(reviews)
    .set({ stale: false })
    .where(and(eq(reviews.issueId, issueId), eq(reviews.commitId, commitId)))
    .run();
}

export function undismissedApprovals(tx: Tx, issueId: number): ReviewRow[] {
  return tx
    .select()
    .from(reviews)
    .where(and(eq(reviews.issueId, issueId), eq(reviews.type, ReviewType.Approve), eq(reviews.dismissed, false)))
    .orderBy(asc(reviews.id))
    .all();
}

/** The reviewer's reviews that are not dismissed (Gitea's FindReviews with Dismissed false). */
export function undismissedReviewsOf(tx: Tx, issueId: number, reviewerId: number): ReviewRow[] {
  return tx
    .select()
    .from(reviews)
    .where(and(eq(reviews.issueId, issueId), eq(reviews.reviewerId, reviewerId), eq(reviews.dismissed, false)))
    .all();
}

/** The code comments of a review, oldest first; invalidated ones only when asked. */
export function codeCommentsOfReview(tx: Tx, issueId: number, reviewId: number, withInvalidated = false): CommentRow[] {
  const conds = [eq(comments.issueId, issueId), eq(comments.reviewId, reviewId), eq(comments.type, CommentType.Code)];
  if (!withInvalidated) conds.push(eq(comments.invalidated, false));
  return tx
    .select()
    .from(comments)
    .where(and(...conds))
    .orderBy(asc(comments.createdUnix), asc(comments.id))
    .all();
}

/** Gitea's GetCodeCommentsCount per review (invalidated comments included), by review id. */
export function codeCommentCountsOfReviews(tx: Tx, reviewIds: number[]): Map<number, number> {
  if (reviewIds.length === 0) return new Map();
  const rows = tx
    .select({ reviewId: comments.reviewId, n: count() })
    .from(comments)
    .where(and(inArray(comments.reviewId, reviewIds), eq(comments.type, CommentType.Code)))
    .groupBy(comments.reviewId)
    .all();
  return new Map(rows.map((r) => [r.reviewId, r.n]));
}

/** The timeline entry (type Review) of each review, by review id: the anchor of the review's URL. */
export function timelineCommentIdsOfReviews(tx: Tx, reviewIds: number[]): Map<number, number> {
  if (reviewIds.length === 0) return new Map();
  const rows = tx
    .select({ reviewId: comments.reviewId, id: min(comments.id) })
    .from(comments)
    .where(and(inArray(comments.reviewId, reviewIds), eq(comments.type, CommentType.Review)))
    .groupBy(comments.reviewId)
    .all();
  return new Map(rows.flatMap((r) => (r.id === null ? [] : [[r.reviewId, r.id] as [number, number]])));
}

/** The first code comment of a review on one line of a file (a second comment there shares its commit and hunk). */
export function firstCodeCommentAt(tx: Tx, reviewId: number, treePath: string, line: number): CommentRow | undefined {
  return tx
    .select()
    .from(comments)
    .where(and(eq(comments.reviewId, reviewId), eq(comments.type, CommentType.Code), eq(comments.treePath, treePath), eq(comments.line, line)))
    .orderBy(asc(comments.createdUnix), asc(comments.id))
    .get();
}

/** Code comments of the issue still standing (for invalidation after a push). */
export function standingCodeComments(tx: Tx, issueId: number): CommentRow[] {
  return tx
    .select()
    .from(comments)
    .where(and(eq(comments.issueId, issueId), eq(comments.type, CommentType.Code), eq(comments.invalidated, false)))
    .all();
}

export function invalidateComment(tx: Tx, id: number): void {
  tx.update(comments).set({ invalidated: true }).where(eq(comments.id, id)).run();
}
