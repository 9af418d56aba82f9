import { and, asc, count, eq, inArray } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { comments, CommentType, issueWatches, users, type UserRow } from "../db/schema/index.ts";

/** `issue_watch`: a user's explicit subscription (is_watching) or unsubscription to one issue. */

/** The explicit choice of a user about an issue, if they made one. */
export function getIssueWatch(tx: Tx, userId: number, issueId: number): boolean | undefined {
  return tx
    .select({ watching: issueWatches.isWatching })
    .from(issueWatches)
    .where(and(eq(issueWatches.userId, userId), eq(issueWatches.issueId, issueId)))
    .get()?.watching;
}

export function putIssueWatch(tx: Tx, userId: number, issueId: number, watching: boolean, unix: number): void {
  tx.insert(issueWatches)
    .values({ userId, issueId, isWatching: watching, createdUnix: unix, updatedUnix: unix })
    .onConflictDoUpdate({ target: [issueWatches.userId, issueWatches.issueId], set: { isWatching: watching, updatedUnix: unix } })
    .run();
}

/** Gitea lists only subscribers who can still sign in: active accounts not prohibited from logging in. */
const activeSubscribers = (issueId: number) =>
  and(eq(issueWatches.issueId, issueId), eq(issueWatches.isWatching, true), eq(users.isActive, true), eq(users.prohibitLogin, false));

export function listSubscribers(tx: Tx, issueId: number, page?: { offset: number; limit: number }): UserRow[] {
  const q = tx
    .select({ user: users })
    .from(issueWatches)
    .innerJoin(users, eq(users.id, issueWatches.userId))
    .where(activeSubscribers(issueId))
    .orderBy(asc(issueWatches.id));
  return (page ? q.limit(page.limit).offset(page.offset) : q).all().map((r) => r.user);
}

export function countSubscribers(tx: Tx, issueId: number): number {
  return tx
    .select({ n: count() })
    .from(issueWatches)
    .innerJoin(users, eq(users.id, issueWatches.userId))
    .where(activeSubscribers(issueId))
    .get()!.n;
}

/** Whether the user commented (or reviewed) on the issue: with the poster, Gitea's participants. */
export function hasCommented(tx: Tx, userId: number, issueId: number): boolean {
  return (
    tx
      .select({ id: comments.id })
      .from(comments)
      .where(
        and(
          eq(comments.issueId, issueId),
          eq(comments.posterId, userId),
          inArray(comments.type, [CommentType.Comment, CommentType.Code, CommentType.Review]),
        ),
      )
      .limit(1)
      .get() !== undefined
  );
}
