import { and, count, eq } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { reviews, ReviewType } from "../db/schema/index.ts";

/** The review facts branch protection gates a merge on (Gitea's HasEnoughApprovals and MergeBlockedBy*). */

/** Official approvals still standing; stale ones left out when the rule ignores them. */
export function grantedApprovals(tx: Tx, issueId: number, ignoreStale: boolean): number {
  const conds = [eq(reviews.issueId, issueId), eq(reviews.type, ReviewType.Approve), eq(reviews.official, true), eq(reviews.dismissed, false)];
  if (ignoreStale) conds.push(eq(reviews.stale, false));
  return tx.select({ n: count() }).from(reviews).where(and(...conds)).get()?.n ?? 0;
}

export function hasOfficialRejection(tx: Tx, issueId: number): boolean {
  const conds = [eq(reviews.issueId, issueId), eq(reviews.type, ReviewType.Reject), eq(reviews.official, true), eq(reviews.dismissed, false)];
  return (tx.select({ n: count() }).from(reviews).where(and(...conds)).get()?.n ?? 0) > 0;
}

export function hasOfficialReviewRequest(tx: Tx, issueId: number): boolean {
  const conds = [eq(reviews.issueId, issueId), eq(reviews.type, ReviewType.Request), eq(reviews.official, true)];
  return (tx.select({ n: count() }).from(reviews).where(and(...conds)).get()?.n ?? 0) > 0;
}
