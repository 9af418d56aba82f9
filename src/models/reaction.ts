import { and, asc, count, eq, inArray } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { reactions, type ReactionRow } from "../db/schema/index.ts";

/** Reactions on an issue itself (`commentId` 0) or on one of its comments. */
export interface ReactionTarget {
  issueId: number;
  commentId: number;
}

const on = (t: ReactionTarget) => and(eq(reactions.issueId, t.issueId), eq(reactions.commentId, t.commentId));

/**
 * Gitea's FindReactions: only reactions of the types allowed now are listed (one removed from
 * `[ui] REACTIONS` disappears), in the order they were made.
 */
export function findReactions(
  tx: Tx,
  target: ReactionTarget,
  types: string[],
  page?: { offset: number; limit: number },
): { rows: ReactionRow[]; total: number } {
  if (types.length === 0) return { rows: [], total: 0 };
  const where = and(on(target), inArray(reactions.type, types));
  const q = tx.select().from(reactions).where(where).orderBy(asc(reactions.createdUnix), asc(reactions.id));
  const rows = (page ? q.limit(page.limit).offset(page.offset) : q).all();
  const total = page ? tx.select({ n: count() }).from(reactions).where(where).get()!.n : rows.length;
  return { rows, total };
}

/** The doer's own reaction of a type (never a migrated one, which has no local user). */
export function findUserReaction(tx: Tx, target: ReactionTarget, userId: number, type: string): ReactionRow | undefined {
  return tx
    .select()
    .from(reactions)
    .where(and(on(target), eq(reactions.userId, userId), eq(reactions.type, type), eq(reactions.originalAuthorId, 0)))
    .get();
}

/** Adds a reaction unless the same one exists (the unique index decides); returns the row and whether it is new. */
export function addReaction(
  tx: Tx,
  target: ReactionTarget,
  userId: number,
  type: string,
  unix: number,
): { row: ReactionRow; created: boolean } {
  const inserted = tx
    .insert(reactions)
    .values({ ...target, userId, type, createdUnix: unix })
    .onConflictDoNothing()
    .returning()
    .get();
  if (inserted) return { row: inserted, created: true };
  return { row: findUserReaction(tx, target, userId, type)!, created: false };
}

export function deleteUserReaction(tx: Tx, target: ReactionTarget, userId: number, type: string): void {
  tx.delete(reactions)
    .where(and(on(target), eq(reactions.userId, userId), eq(reactions.type, type), eq(reactions.originalAuthorId, 0)))
    .run();
}

/** A deleted comment's reactions go with it (comment ids are not a foreign key here). */
export function deleteCommentReactions(tx: Tx, commentId: number): void {
  tx.delete(reactions).where(eq(reactions.commentId, commentId)).run();
}

/**
 * The reactions of the allowed types on some comments at once (a conversation page's), oldest
 * first, through the comment index: one statement for the page instead of one per comment.
 */
export function reactionsOfComments(tx: Tx, commentIds: number[], types: string[]): ReactionRow[] {
  if (commentIds.length === 0 || types.length === 0) return [];
  return tx
    .select()
    .from(reactions)
    .where(and(inArray(reactions.commentId, commentIds), inArray(reactions.type, types)))
    .orderBy(asc(reactions.createdUnix), asc(reactions.id))
    .all();
}
