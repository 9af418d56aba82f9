import { and, asc, count, eq, inArray, sql, type SQL } from "drizzle-orm";
import { prepared } from "../db/prepared.ts";
import { idsParam, inIdOrder, inIdsPlaceholder } from "./id-list.ts";
import { insertReturning } from "./prepared-insert.ts";
import type { Tx } from "../db/client.ts";
import { comments, CommentType, issues, repositories, type CommentRow, type IssueRow, type NewCommentRow } from "../db/schema/index.ts";

export function insertComment(tx: Tx, row: NewCommentRow): CommentRow {
  // Prepared once per set of columns (prepared-insert.ts); the repository is its issue's.
  const { repoId: _ignored, ...rest } = row;
  return insertReturning(tx, comments, "comment", rest, {
    repoId: sql`(SELECT ${issues.repoId} FROM ${issues} WHERE ${issues.id} = ${sql.placeholder("issueId")})`,
  });
}

/** The repository a new comment records: its issue's. */
export function repoOfIssue(issueId: number): SQL {
  return sql`(SELECT ${issues.repoId} FROM ${issues} WHERE ${issues.id} = ${issueId})`;
}

/**
 * `num_comments` counts plain comments only, as in Gitea; the repository's total moves by the same
 * difference in the same transaction (its comment list reads the total from there).
 */
export function recountIssueComments(tx: Tx, issueId: number): void {
  const before = tx.select({ n: issues.numComments, repoId: issues.repoId }).from(issues).where(eq(issues.id, issueId)).get();
  if (!before) return;
  const after = tx
    .update(issues)
    .set({
      numComments: sql`(SELECT count(*) FROM ${comments} WHERE ${comments.issueId} = ${issueId} AND ${comments.type} = ${CommentType.Comment})`,
    })
    .where(eq(issues.id, issueId))
    .returning({ n: issues.numComments })
    .get()!;
  if (after.n !== before.n) {
    tx.update(repositories)
      .set({ numComments: sql`${repositories.numComments} + ${after.n - before.n}` })
      .where(eq(repositories.id, before.repoId))
      .run();
  }
}

/** A deleted issue's comments leave the repository's total. */
export function removeRepoComments(tx: Tx, repoId: number, n: number): void {
  if (n) tx.update(repositories).set({ numComments: sql`${repositories.numComments} - ${n}` }).where(eq(repositories.id, repoId)).run();
}

/** A repository's plain comments, from its counter. */
export function repoCommentCount(tx: Tx, repoId: number): number {
  return (
    prepared(tx, "repo.commentCount", (t) =>
      t.select({ n: repositories.numComments }).from(repositories).where(eq(repositories.id, sql.placeholder("repoId"))).prepare(),
    ).get({ repoId })?.n ?? 0
  );
}

/**
 * A plain comment was added: the issue's count moves by one and its update time to `updatedUnix`
 * (Gitea's CreateComment increments too), and the repository's total with it. Recounting instead
 * reads every comment of the issue, which made each comment cost more than the one before.
 */
export function commentAdded(tx: Tx, issueId: number, updatedUnix: number): IssueRow | undefined {
  // Run for every new comment: prepared once (db/prepared.ts).
  const issue = prepared(tx, "comment.added.issue", (t) =>
    t
      .update(issues)
      .set({ numComments: sql`${issues.numComments} + 1`, updatedUnix: sql`${sql.placeholder("updatedUnix")}` })
      .where(eq(issues.id, sql.placeholder("issueId")))
      .returning()
      .prepare(),
  ).get({ issueId, updatedUnix });
  if (issue) {
    prepared(tx, "comment.added.repo", (t) =>
      t
        .update(repositories)
        .set({ numComments: sql`${repositories.numComments} + 1` })
        .where(eq(repositories.id, sql.placeholder("repoId")))
        .prepare(),
    ).run({ repoId: issue.repoId });
  }
  return issue;
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
  if (f.repoId !== undefined) conds.push(eq(comments.repoId, f.repoId));
  if (f.isPull !== undefined) {
    conds.push(inArray(comments.issueId, sql`(SELECT ${issues.id} FROM ${issues} WHERE ${issues.repoId} = ${f.repoId ?? 0} AND ${issues.isPull} = ${f.isPull})`));
  }
  if (f.type !== undefined) conds.push(eq(comments.type, f.type));
  if (f.sinceUnix !== undefined) conds.push(sql`${comments.updatedUnix} >= ${f.sinceUnix}`);
  if (f.beforeUnix !== undefined) conds.push(sql`${comments.updatedUnix} <= ${f.beforeUnix}`);
  return and(...conds);
}

/**
 * Comments in Gitea's order (created, then id); `page` absent means all of them. A page's ids come
 * first, from the (issue or repository, type, created) index, so rows skipped by an offset are never read.
 */
export function findComments(tx: Tx, f: CommentFilter, page?: { offset: number; limit: number }): { rows: CommentRow[]; total: number } {
  const where = whereFor(f);
  if (!page) {
    const rows = tx.select().from(comments).where(where).orderBy(asc(comments.createdUnix), asc(comments.id)).all();
    return { rows, total: rows.length };
  }
  // The whole repository's plain comments, the list clients page through: the same statement every time.
  const plain = f.repoId !== undefined && f.issueId === undefined && f.isPull === undefined && f.type === CommentType.Comment;
  const wholeRepo = plain && f.sinceUnix === undefined && f.beforeUnix === undefined;
  const ids = (
    wholeRepo
      ? prepared(tx, "comment.repoPage", (t) =>
          t
            .select({ id: comments.id })
            .from(comments)
            .where(and(eq(comments.repoId, sql.placeholder("repoId")), eq(comments.type, CommentType.Comment)))
            .orderBy(asc(comments.createdUnix), asc(comments.id))
            .limit(sql.placeholder("limit"))
            .offset(sql.placeholder("offset"))
            .prepare(),
        ).all({ repoId: f.repoId!, limit: page.limit, offset: page.offset })
      : tx.select({ id: comments.id }).from(comments).where(where).orderBy(asc(comments.createdUnix), asc(comments.id)).limit(page.limit).offset(page.offset).all()
  ).map((r) => r.id);
  const rows = inIdOrder(
    ids,
    ids.length ? prepared(tx, "comment.byIds", (t) => t.select().from(comments).where(inIdsPlaceholder(comments.id)).prepare()).all(idsParam(ids)) : [],
  );
  // The whole repository's: its counter, not a count of the rows.
  const total = wholeRepo ? repoCommentCount(tx, f.repoId!) : tx.select({ n: count() }).from(comments).where(where).get()!.n;
  return { rows, total };
}

/**
 * Who took part in an issue beside its poster (Gitea's participants: whoever commented or
 * reviewed), read from the (issue, type, poster) index alone; at most `limit` of them.
 */
export function participantIds(tx: Tx, issueId: number, limit: number): number[] {
  return tx
    .selectDistinct({ id: comments.posterId })
    .from(comments)
    .where(and(eq(comments.issueId, issueId), inArray(comments.type, [CommentType.Comment, CommentType.Code, CommentType.Review])))
    .limit(limit)
    .all()
    .map((r) => r.id);
}

/** Every comment row of an issue as its id, type and review, in timeline order (created, then id): where each one falls when paged. */
export function commentOrder(tx: Tx, issueId: number): { id: number; type: number; reviewId: number }[] {
  return tx
    .select({ id: comments.id, type: comments.type, reviewId: comments.reviewId })
    .from(comments)
    .where(eq(comments.issueId, issueId))
    .orderBy(asc(comments.createdUnix), asc(comments.id))
    .all();
}
