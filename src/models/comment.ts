import { and, asc, count, eq, sql, type SQL } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { comments, CommentType, issues, type CommentRow, type IssueRow, type NewCommentRow } from "../db/schema/index.ts";

export function insertComment(tx: Tx, row: NewCommentRow): CommentRow {
  return tx.insert(comments).values(row).returning().get();
}

/** `num_comments` counts plain comments only, as in Gitea. */
export function recountIssueComments(tx: Tx, issueId: number): void {
  tx.update(issues)
    .set({
      numComments: sql`(SELECT count(*) FROM ${comments} WHERE ${comments.issueId} = ${issueId} AND ${comments.type} = ${CommentType.Comment})`,
    })
    .where(eq(issues.id, issueId))
    .run();
}

/**
 * A plain comment was added: the issue's count moves by one and its update time to `updatedUnix`
 * (Gitea's CreateComment increments too). Recounting instead reads every comment of the issue,
 * which made each comment cost more than the one before.
 */
export function commentAdded(tx: Tx, issueId: number, updatedUnix: number): IssueRow | undefined {
  return tx
    .update(issues)
    .set({ numComments: sql`${issues.numComments} + 1`, updatedUnix })
    .where(eq(issues.id, issueId))
    .returning()
    .get();
}

export function getCommentById(tx: Tx, id: number): CommentRow | undefined {
  return tx.select().from(comments).where(eq(comments.id, id)).get();
}

export function updateComment(tx: Tx, id: number, patch: Partial<NewCommentRow>): CommentRow | undefined {
  return tx.update(comments).set(patch).where(eq(comments.id, id)).returning().get();
}

export function deleteCommentRow(tx: Tx, id: number): void {
  tx.delete(comments).where(eq(comments.id, id)).run();
}

/** Gitea's FindCommentsOptions: one issue or a whole repository, one type, a window on `updated_unix`. */
export interface CommentFilter {
  issueId?: number;
  repoId?: number;
  /** With `repoId`: only comments of pull requests (true) or of issues (false). */
  isPull?: boolean;
  type?: number;
  sinceUnix?: number;
  beforeUnix?: number;
}

function whereFor(f: CommentFilter): SQL | undefined {
  const conds: (SQL | undefined)[] = [];
  if (f.issueId !== undefined) conds.push(eq(comments.issueId, f.issueId));
  if (f.repoId !== undefined) conds.push(eq(issues.repoId, f.repoId));
  if (f.isPull !== undefined) conds.push(eq(issues.isPull, f.isPull));
  if (f.type !== undefined) conds.push(eq(comments.type, f.type));
  if (f.sinceUnix !== undefined) conds.push(sql`${comments.updatedUnix} >= ${f.sinceUnix}`);
  if (f.beforeUnix !== undefined) conds.push(sql`${comments.updatedUnix} <= ${f.beforeUnix}`);
  return and(...conds);
}

/** Comments in Gitea's order (created, then id); `page` absent means all of them. */
export function findComments(tx: Tx, f: CommentFilter, page?: { offset: number; limit: number }): { rows: CommentRow[]; total: number } {
  const where = whereFor(f);
  const base = tx.select({ comment: comments }).from(comments).innerJoin(issues, eq(issues.id, comments.issueId)).where(where);
  const ordered = base.orderBy(asc(comments.createdUnix), asc(comments.id));
  const rows = (page ? ordered.limit(page.limit).offset(page.offset) : ordered).all().map((r) => r.comment);
  const total = page
    ? tx.select({ n: count() }).from(comments).innerJoin(issues, eq(issues.id, comments.issueId)).where(where).get()!.n
    : rows.length;
  return { rows, total };
}
