import { and, asc, count, eq, inArray, max, ne } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { CommentType, comments, reviews, ReviewType, type ReviewRow } from "../db/schema/index.ts";

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
  const latestPerReviewer = tx
    .select({ id: max(reviews.id) })
    .from(reviews)
    .where(
      and(
        inArray(reviews.issueId, issueIds),
        inArray(reviews.type, [ReviewType.Request, ReviewType.Approve, ReviewType.Reject]),
        eq(reviews.dismissed, false),
        eq(reviews.originalAuthorId, 0),
        eq(reviews.reviewerTeamId, 0),
      ),
    )
    .groupBy(reviews.issueId, reviews.reviewerId);
  const latestPerTeam = tx
    .select({ id: max(reviews.id) })
    .from(reviews)
    .where(and(inArray(reviews.issueId, issueIds), eq(reviews.originalAuthorId, 0), ne(reviews.reviewerTeamId, 0)))
    .groupBy(reviews.issueId, reviews.reviewerTeamId);
  const rows = [
    ...tx.select().from(reviews).where(inArray(reviews.id, latestPerReviewer)).orderBy(asc(reviews.updatedUnix), asc(reviews.id)).all(),
    ...tx.select().from(reviews).where(inArray(reviews.id, latestPerTeam)).orderBy(asc(reviews.updatedUnix), asc(reviews.id)).all(),
  ];
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
  const rows = tx
    .select({ issueId: comments.issueId, n: count() })
    .from(comments)
    .where(and(inArray(comments.issueId, issueIds), eq(comments.type, CommentType.Code), eq(comments.invalidated, false)))
    .groupBy(comments.issueId)
    .all();
  return new Map(rows.map((r) => [r.issueId, r.n]));
}
