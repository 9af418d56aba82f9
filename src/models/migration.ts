import { repoOfIssue } from "./comment.ts";
import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import {
  comments,
  CommentType,
  issueAssignees,
  issueIndexes,
  issueLabels,
  issues,
  labels,
  milestones,
  pullRequests,
  reactions,
  releases,
  repositories,
  reviews,
  ReviewType,
  users,
  UserType,
  type CommentRow,
  type IssueRow,
  type LabelRow,
  type MilestoneRow,
  type NewCommentRow,
  type NewIssueRow,
  type NewPullRequestRow,
  type PullRequestRow,
  type ReactionRow,
  type ReleaseRow,
  type ReviewRow,
  type UserRow,
} from "../db/schema/index.ts";

/**
 * The issue-tracker rows of one repository, read whole for `dump-repo` and written whole for
 * `restore-repo` (pull requests and reviews included). Kept apart from the per-endpoint models: a dump reads everything in one snapshot
 * and a restore inserts rows with their recorded times and numbers, which no endpoint does.
 */

// ---- reading a repository for a dump ----

export function repoMilestones(tx: Tx, repoId: number): MilestoneRow[] {
  return tx.select().from(milestones).where(eq(milestones.repoId, repoId)).orderBy(asc(milestones.id)).all();
}

export function repoLabels(tx: Tx, repoId: number): LabelRow[] {
  return tx.select().from(labels).where(eq(labels.repoId, repoId)).orderBy(asc(labels.id)).all();
}

/** The issues of a repository, pull requests left out, by number. */
export function repoIssues(tx: Tx, repoId: number): IssueRow[] {
  return tx
    .select()
    .from(issues)
    .where(and(eq(issues.repoId, repoId), eq(issues.isPull, false)))
    .orderBy(asc(issues.index))
    .all();
}

/** The pull requests of a repository (as base), each with its issue, by number. */
export function repoPulls(tx: Tx, repoId: number): { issue: IssueRow; pull: PullRequestRow }[] {
  return tx
    .select({ issue: issues, pull: pullRequests })
    .from(issues)
    .innerJoin(pullRequests, eq(pullRequests.issueId, issues.id))
    .where(and(eq(issues.repoId, repoId), eq(issues.isPull, true)))
    .orderBy(asc(issues.index))
    .all();
}

/**
 * The reviews of these pull requests that Gitea's API shows others, oldest first: pending reviews
 * (drafts only their author sees) and team review requests (Gitea's migration has no team) left out.
 */
export function reviewsOfIssues(tx: Tx, issueIds: number[]): ReviewRow[] {
  if (issueIds.length === 0) return [];
  return tx
    .select()
    .from(reviews)
    .where(and(inArray(reviews.issueId, issueIds), sql`${reviews.type} <> ${ReviewType.Pending}`, eq(reviews.reviewerTeamId, 0)))
    .orderBy(asc(reviews.createdUnix), asc(reviews.id))
    .all();
}

/** The code comments of these reviews, in order. */
export function codeCommentsOfReviews(tx: Tx, reviewIds: number[]): CommentRow[] {
  if (reviewIds.length === 0) return [];
  return tx
    .select()
    .from(comments)
    .where(and(inArray(comments.reviewId, reviewIds), eq(comments.type, CommentType.Code)))
    .orderBy(asc(comments.createdUnix), asc(comments.id))
    .all();
}

function groupBy<T>(rows: T[], key: (r: T) => number): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

/** Each issue's labels (its repository's and its organization's), by name. */
export function labelsByIssue(tx: Tx, issueIds: number[]): Map<number, LabelRow[]> {
  if (issueIds.length === 0) return new Map();
  const rows = tx
    .select({ issueId: issueLabels.issueId, label: labels })
    .from(issueLabels)
    .innerJoin(labels, eq(labels.id, issueLabels.labelId))
    .where(inArray(issueLabels.issueId, issueIds))
    .orderBy(asc(labels.name), asc(labels.id))
    .all();
  return new Map([...groupBy(rows, (r) => r.issueId)].map(([k, v]) => [k, v.map((r) => r.label)]));
}

/** Each issue's assignees' names, alphabetically. */
export function assigneeNamesByIssue(tx: Tx, issueIds: number[]): Map<number, string[]> {
  if (issueIds.length === 0) return new Map();
  const rows = tx
    .select({ issueId: issueAssignees.issueId, name: users.name })
    .from(issueAssignees)
    .innerJoin(users, eq(users.id, issueAssignees.assigneeId))
    .where(inArray(issueAssignees.issueId, issueIds))
    .orderBy(asc(users.lowerName))
    .all();
  return new Map([...groupBy(rows, (r) => r.issueId)].map(([k, v]) => [k, v.map((r) => r.name)]));
}

/** Reactions on these issues and on their comments, oldest first. */
export function reactionsOfIssues(tx: Tx, issueIds: number[]): ReactionRow[] {
  if (issueIds.length === 0) return [];
  return tx.select().from(reactions).where(inArray(reactions.issueId, issueIds)).orderBy(asc(reactions.id)).all();
}

/** The plain comments (not timeline events) of these issues, in timeline order. */
export function plainCommentsOfIssues(tx: Tx, issueIds: number[]): CommentRow[] {
  if (issueIds.length === 0) return [];
  return tx
    .select()
    .from(comments)
    .where(and(inArray(comments.issueId, issueIds), eq(comments.type, CommentType.Comment)))
    .orderBy(asc(comments.createdUnix), asc(comments.id))
    .all();
}

/** The releases of a repository (bare tag rows left out, drafts in), newest first as Gitea's API lists them. */
export function repoReleases(tx: Tx, repoId: number): ReleaseRow[] {
  return tx
    .select()
    .from(releases)
    .where(and(eq(releases.repoId, repoId), eq(releases.isTag, false)))
    .orderBy(desc(releases.createdUnix), desc(releases.id))
    .all();
}

export function usersByIds(tx: Tx, ids: number[]): Map<number, UserRow> {
  const wanted = [...new Set(ids.filter((id) => id > 0))];
  if (wanted.length === 0) return new Map();
  return new Map(tx.select().from(users).where(inArray(users.id, wanted)).all().map((u) => [u.id, u]));
}

/** Individual accounts by lower-cased name. */
export function individualsByNames(tx: Tx, names: string[]): Map<string, UserRow> {
  const wanted = [...new Set(names.map((n) => n.toLowerCase()))];
  if (wanted.length === 0) return new Map();
  return new Map(
    tx
      .select()
      .from(users)
      .where(and(inArray(users.lowerName, wanted), eq(users.type, UserType.Individual)))
      .all()
      .map((u) => [u.lowerName, u]),
  );
}

// ---- checks before a restore ----

/** The first site administrator: the doer of a restore, as Gitea's GetAdminUser. */
export function firstAdmin(tx: Tx): UserRow | undefined {
  return tx
    .select()
    .from(users)
    .where(and(eq(users.isAdmin, true), eq(users.type, UserType.Individual)))
    .orderBy(asc(users.id))
    .get();
}

/** Whether a repository has no issues or pull requests, labels, milestones or releases, so a restore may fill it. */
export function trackerIsEmpty(tx: Tx, repoId: number): boolean {
  const n = (q: { n: number } | undefined) => q?.n ?? 0;
  return (
    n(tx.select({ n: count() }).from(issues).where(eq(issues.repoId, repoId)).get()) === 0 &&
    n(tx.select({ n: count() }).from(labels).where(eq(labels.repoId, repoId)).get()) === 0 &&
    n(tx.select({ n: count() }).from(milestones).where(eq(milestones.repoId, repoId)).get()) === 0 &&
    n(tx.select({ n: count() }).from(releases).where(eq(releases.repoId, repoId)).get()) === 0
  );
}

/** An organization's labels, by name. */
export function orgLabelsByName(tx: Tx, orgId: number): Map<string, LabelRow> {
  const rows = tx
    .select()
    .from(labels)
    .where(and(eq(labels.orgId, orgId), eq(labels.repoId, 0)))
    .orderBy(asc(labels.id))
    .all();
  const out = new Map<string, LabelRow>();
  for (const l of rows) if (!out.has(l.name)) out.set(l.name, l);
  return out;
}

// ---- writing a restore (the caller holds one transaction around all of it) ----

export function insertMilestoneRow(tx: Tx, row: typeof milestones.$inferInsert): MilestoneRow {
  return tx.insert(milestones).values(row).returning().get();
}

export function insertLabelRow(tx: Tx, row: typeof labels.$inferInsert): LabelRow {
  return tx.insert(labels).values(row).returning().get();
}

export function insertIssueRow(tx: Tx, row: NewIssueRow): IssueRow {
  return tx.insert(issues).values(row).returning().get();
}

export function insertPullRow(tx: Tx, row: NewPullRequestRow): PullRequestRow {
  return tx.insert(pullRequests).values(row).returning().get();
}

export function insertReviewRow(tx: Tx, row: typeof reviews.$inferInsert): ReviewRow {
  return tx.insert(reviews).values(row).returning().get();
}

export function linkIssueLabels(tx: Tx, issueId: number, labelIds: number[]): void {
  const ids = [...new Set(labelIds)];
  if (ids.length) tx.insert(issueLabels).values(ids.map((labelId) => ({ issueId, labelId }))).run();
}

export function linkAssignees(tx: Tx, issueId: number, userIds: number[]): void {
  const ids = [...new Set(userIds)];
  if (ids.length) tx.insert(issueAssignees).values(ids.map((assigneeId) => ({ issueId, assigneeId }))).run();
}

export function insertReactionRow(tx: Tx, row: typeof reactions.$inferInsert): void {
  tx.insert(reactions).values(row).run();
}

export function insertCommentRow(tx: Tx, row: NewCommentRow): CommentRow {
  return tx.insert(comments).values({ ...row, repoId: repoOfIssue(row.issueId) }).returning().get();
}

/** The repository's issue number sequence continues after the highest number restored. */
export function raiseIssueIndex(tx: Tx, repoId: number, atLeast: number): void {
  tx.insert(issueIndexes)
    .values({ repoId, maxIndex: atLeast })
    .onConflictDoUpdate({ target: issueIndexes.repoId, set: { maxIndex: sql`max(${issueIndexes.maxIndex}, ${atLeast})` } })
    .run();
}

/**
 * Every counter a restore affects, recomputed from the rows: each issue's comments, each milestone's
 * and label's issues, the repository's issues, pull requests and milestones. Organization labels count issues of
 * every repository, so those that gained issues here are recounted too.
 */
export function recountAfterRestore(tx: Tx, repoId: number, orgLabelIds: number[]): void {
  tx.update(issues)
    .set({
      numComments: sql`(SELECT count(*) FROM ${comments} WHERE ${comments.issueId} = ${issues.id} AND ${comments.type} = ${CommentType.Comment})`,
    })
    .where(eq(issues.repoId, repoId))
    .run();
  tx.update(milestones)
    .set({
      numIssues: sql`(SELECT count(*) FROM ${issues} WHERE ${issues.milestoneId} = ${milestones.id})`,
      numClosedIssues: sql`(SELECT count(*) FROM ${issues} WHERE ${issues.milestoneId} = ${milestones.id} AND ${issues.isClosed} = 1)`,
    })
    .where(eq(milestones.repoId, repoId))
    .run();
  const labelCounts = {
    numIssues: sql`(SELECT count(*) FROM ${issueLabels} WHERE ${issueLabels.labelId} = ${labels.id})`,
    numClosedIssues: sql`(SELECT count(*) FROM ${issueLabels} INNER JOIN ${issues} ON ${issues.id} = ${issueLabels.issueId} WHERE ${issueLabels.labelId} = ${labels.id} AND ${issues.isClosed} = 1)`,
  };
  tx.update(labels).set(labelCounts).where(eq(labels.repoId, repoId)).run();
  if (orgLabelIds.length) tx.update(labels).set(labelCounts).where(inArray(labels.id, [...new Set(orgLabelIds)])).run();
  const countIssues = (closed: boolean | undefined, isPull = false) =>
    sql`(SELECT count(*) FROM ${issues} WHERE ${issues.repoId} = ${repoId} AND ${issues.isPull} = ${isPull ? 1 : 0}${closed === undefined ? sql`` : sql` AND ${issues.isClosed} = ${closed ? 1 : 0}`})`;
  tx.update(repositories)
    .set({
      numIssues: countIssues(undefined),
      numClosedIssues: countIssues(true),
      numPulls: countIssues(undefined, true),
      numClosedPulls: countIssues(true, true),
      numMilestones: sql`(SELECT count(*) FROM ${milestones} WHERE ${milestones.repoId} = ${repoId})`,
      numClosedMilestones: sql`(SELECT count(*) FROM ${milestones} WHERE ${milestones.repoId} = ${repoId} AND ${milestones.isClosed} = 1)`,
      numComments: sql`(SELECT coalesce(sum(${issues.numComments}), 0) FROM ${issues} WHERE ${issues.repoId} = ${repoId})`,
    })
    .where(eq(repositories.id, repoId))
    .run();
}
