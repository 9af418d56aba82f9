import { and, asc, count, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { containsText } from "./like.ts";
import {
  issueAssignees,
  issueDependencies,
  issueIndexes,
  issueLabels,
  issues,
  issueUsers,
  labels,
  milestones,
  repositories,
  type IssueRow,
  type LabelRow,
  type MilestoneRow,
  type NewIssueRow,
} from "../db/schema/index.ts";

/** The next number of a repository's issues and pull requests (one sequence for both). */
export function nextIssueIndex(tx: Tx, repoId: number): number {
  return tx
    .insert(issueIndexes)
    .values({ repoId, maxIndex: 1 })
    .onConflictDoUpdate({ target: issueIndexes.repoId, set: { maxIndex: sql`${issueIndexes.maxIndex} + 1` } })
    .returning({ index: issueIndexes.maxIndex })
    .get()!.index;
}

export function insertIssue(tx: Tx, row: NewIssueRow): IssueRow {
  return tx.insert(issues).values(row).returning().get();
}

export function getIssueByIndex(tx: Tx, repoId: number, index: number): IssueRow | undefined {
  // Every request on an issue's path resolves it: prepared once (db/prepared.ts).
  return prepared(tx, "issue.byIndex", (t) =>
    t
      .select()
      .from(issues)
      .where(and(eq(issues.repoId, sql.placeholder("repoId")), eq(issues.index, sql.placeholder("index"))))
      .prepare(),
  ).get({ repoId, index });
}

export function getIssueById(tx: Tx, id: number): IssueRow | undefined {
  return tx.select().from(issues).where(eq(issues.id, id)).get();
}

export function getIssuesByIds(tx: Tx, ids: number[]): IssueRow[] {
  if (ids.length === 0) return [];
  return tx.select().from(issues).where(inArray(issues.id, ids)).all();
}

export function updateIssue(tx: Tx, id: number, patch: Partial<NewIssueRow>): IssueRow | undefined {
  return tx.update(issues).set(patch).where(eq(issues.id, id)).returning().get();
}

export function deleteIssueRow(tx: Tx, id: number): void {
  tx.delete(issues).where(eq(issues.id, id)).run();
}

/** Recounts a repository's open/closed issue or pull counters from the rows. */
export function recountRepoIssues(tx: Tx, repoId: number): void {
  const counts = (isPull: boolean, closed?: boolean) =>
    sql`(SELECT count(*) FROM ${issues} WHERE ${issues.repoId} = ${repoId} AND ${issues.isPull} = ${isPull ? 1 : 0}${
      closed === undefined ? sql`` : sql` AND ${issues.isClosed} = ${closed ? 1 : 0}`
    })`;
  tx.update(repositories)
    .set({
      numIssues: counts(false),
      numClosedIssues: counts(false, true),
      numPulls: counts(true),
      numClosedPulls: counts(true, true),
    })
    .where(eq(repositories.id, repoId))
    .run();
}

/**
 * A new open issue or pull request: its repository's counter moves by one, where a recount would
 * read every issue of the repository, more with each one created. The closed counters stay (an
 * issue is inserted open; closing it recounts).
 */
export function issueAdded(tx: Tx, repoId: number, isPull: boolean): void {
  tx.update(repositories)
    .set(isPull ? { numPulls: sql`${repositories.numPulls} + 1` } : { numIssues: sql`${repositories.numIssues} + 1` })
    .where(eq(repositories.id, repoId))
    .run();
}

export type IssueSort =
  | "latest"
  | "oldest"
  | "recentupdate"
  | "leastupdate"
  | "mostcomment"
  | "leastcomment"
  | "nearduedate"
  | "farduedate"
  | "priority";

export interface IssueListFilter {
  /** Repositories to look in. */
  repoIds: number[];
  /**
   * When set, pull requests come only from these repositories and issues only from `repoIds` (a
   * search across repositories where the doer reads one unit but not the other).
   */
  pullRepoIds?: number[];
  isPull?: boolean;
  isClosed?: boolean;
  /** Every one of these labels (ids). */
  labelIds?: number[];
  /** Any of these labels (ids). */
  anyLabelIds?: number[];
  /** Any of these milestones (0 = no milestone). */
  milestoneIds?: number[];
  keyword?: string;
  posterId?: number;
  assigneeId?: number;
  mentionedId?: number;
  sinceUnix?: number;
  beforeUnix?: number;
  /** Only issues with these ids (e.g. a search narrowed by another index). */
  ids?: number[];
  sort?: IssueSort;
  offset: number;
  limit: number;
}


function repoCondition(f: IssueListFilter): SQL | undefined {
  if (!f.pullRepoIds) return f.repoIds.length ? inArray(issues.repoId, f.repoIds) : undefined;
  const part = (ids: number[], isPull: boolean) => (ids.length ? and(eq(issues.isPull, isPull), inArray(issues.repoId, ids)) : undefined);
  return or(part(f.repoIds, false), part(f.pullRepoIds, true));
}

function whereFor(f: IssueListFilter): SQL | undefined {
  const inRepos = repoCondition(f);
  if (!inRepos) return sql`0`;
  const conds: (SQL | undefined)[] = [inRepos];
  if (f.isPull !== undefined) conds.push(eq(issues.isPull, f.isPull));
  if (f.isClosed !== undefined) conds.push(eq(issues.isClosed, f.isClosed));
  for (const labelId of f.labelIds ?? []) {
    conds.push(inArray(issues.id, sql`(SELECT ${issueLabels.issueId} FROM ${issueLabels} WHERE ${issueLabels.labelId} = ${labelId})`));
  }
  if (f.anyLabelIds) {
    conds.push(
      f.anyLabelIds.length
        ? inArray(issues.id, sql`(SELECT ${issueLabels.issueId} FROM ${issueLabels} WHERE ${inArray(issueLabels.labelId, f.anyLabelIds)})`)
        : sql`0`,
    );
  }
  if (f.milestoneIds && f.milestoneIds.length) conds.push(inArray(issues.milestoneId, f.milestoneIds));
  if (f.keyword) {
    const byNumber = /^#?\d+$/.test(f.keyword) ? eq(issues.index, Number(f.keyword.replace("#", ""))) : undefined;
    conds.push(
      or(
        containsText(issues.title, f.keyword),
        containsText(issues.content, f.keyword),
        byNumber,
      ),
    );
  }
  if (f.posterId !== undefined) conds.push(eq(issues.posterId, f.posterId));
  if (f.assigneeId !== undefined) {
    conds.push(
      inArray(issues.id, sql`(SELECT ${issueAssignees.issueId} FROM ${issueAssignees} WHERE ${issueAssignees.assigneeId} = ${f.assigneeId})`),
    );
  }
  if (f.mentionedId !== undefined) {
    conds.push(
      inArray(
        issues.id,
        sql`(SELECT ${issueUsers.issueId} FROM ${issueUsers} WHERE ${issueUsers.uid} = ${f.mentionedId} AND ${issueUsers.isMentioned} = 1)`,
      ),
    );
  }
  if (f.sinceUnix !== undefined) conds.push(sql`${issues.updatedUnix} >= ${f.sinceUnix}`);
  if (f.beforeUnix !== undefined) conds.push(sql`${issues.updatedUnix} <= ${f.beforeUnix}`);
  if (f.ids) conds.push(f.ids.length ? inArray(issues.id, f.ids) : sql`0`);
  return and(...conds);
}

const ORDER: Record<IssueSort, SQL[]> = {
  latest: [sql`${issues.createdUnix} DESC`, sql`${issues.id} DESC`],
  oldest: [sql`${issues.createdUnix} ASC`, sql`${issues.id} ASC`],
  recentupdate: [sql`${issues.updatedUnix} DESC`, sql`${issues.createdUnix} DESC`, sql`${issues.id} DESC`],
  leastupdate: [sql`${issues.updatedUnix} ASC`, sql`${issues.createdUnix} ASC`, sql`${issues.id} ASC`],
  mostcomment: [sql`${issues.numComments} DESC`, sql`${issues.createdUnix} DESC`, sql`${issues.id} DESC`],
  leastcomment: [sql`${issues.numComments} ASC`, sql`${issues.createdUnix} DESC`, sql`${issues.id} DESC`],
  nearduedate: [sql`${issues.deadlineUnix} = 0`, sql`${issues.deadlineUnix} ASC`, sql`${issues.id} DESC`],
  farduedate: [sql`${issues.deadlineUnix} DESC`, sql`${issues.id} DESC`],
  priority: [sql`${issues.priority} DESC`, sql`${issues.createdUnix} DESC`, sql`${issues.id} DESC`],
};

export function listIssues(tx: Tx, f: IssueListFilter): { rows: IssueRow[]; total: number } {
  const where = whereFor(f);
  const rows = tx
    .select()
    .from(issues)
    .where(where)
    .orderBy(...ORDER[f.sort ?? "latest"])
    .limit(f.limit)
    .offset(f.offset)
    .all();
  const total = tx.select({ n: count() }).from(issues).where(where).get()!.n;
  return { rows, total };
}

// Relations loaded for the Issue JSON, many issues at once.

export function labelsOfIssues(tx: Tx, issueIds: number[]): Map<number, LabelRow[]> {
  const out = new Map<number, LabelRow[]>();
  if (issueIds.length === 0) return out;
  const rows = tx
    .select({ issueId: issueLabels.issueId, label: labels })
    .from(issueLabels)
    .innerJoin(labels, eq(labels.id, issueLabels.labelId))
    .where(inArray(issueLabels.issueId, issueIds))
    .orderBy(asc(labels.name))
    .all();
  for (const r of rows) {
    const list = out.get(r.issueId) ?? [];
    list.push(r.label);
    out.set(r.issueId, list);
  }
  return out;
}

export function assigneeIdsOfIssues(tx: Tx, issueIds: number[]): Map<number, number[]> {
  const out = new Map<number, number[]>();
  if (issueIds.length === 0) return out;
  const rows = tx
    .select()
    .from(issueAssignees)
    .where(inArray(issueAssignees.issueId, issueIds))
    .orderBy(asc(issueAssignees.id))
    .all();
  for (const r of rows) {
    const list = out.get(r.issueId) ?? [];
    list.push(r.assigneeId);
    out.set(r.issueId, list);
  }
  return out;
}

export function milestonesByIds(tx: Tx, ids: number[]): Map<number, MilestoneRow> {
  const wanted = ids.filter((id) => id > 0);
  if (wanted.length === 0) return new Map();
  return new Map(tx.select().from(milestones).where(inArray(milestones.id, wanted)).all().map((m) => [m.id, m]));
}

/** Replaces an issue's assignees; returns who was added and who removed. */
export function setAssignees(tx: Tx, issueId: number, userIds: number[]): { added: number[]; removed: number[] } {
  const current = tx
    .select({ id: issueAssignees.assigneeId })
    .from(issueAssignees)
    .where(eq(issueAssignees.issueId, issueId))
    .all()
    .map((r) => r.id);
  const want = [...new Set(userIds)];
  const added = want.filter((id) => !current.includes(id));
  const removed = current.filter((id) => !want.includes(id));
  if (removed.length) {
    tx.delete(issueAssignees)
      .where(and(eq(issueAssignees.issueId, issueId), inArray(issueAssignees.assigneeId, removed)))
      .run();
  }
  if (added.length) tx.insert(issueAssignees).values(added.map((assigneeId) => ({ issueId, assigneeId }))).run();
  return { added, removed };
}

/** Records that users were mentioned in an issue (for the `mentioned_by` filter and notifications). */
export function markMentioned(tx: Tx, issueId: number, userIds: number[]): void {
  for (const uid of new Set(userIds)) {
    tx.insert(issueUsers)
      .values({ issueId, uid, isMentioned: true })
      .onConflictDoUpdate({ target: [issueUsers.issueId, issueUsers.uid], set: { isMentioned: true } })
      .run();
  }
}

/** Open issues this one depends on (they block closing it). */
export function countOpenDependencies(tx: Tx, issueId: number): number {
  return tx
    .select({ n: count() })
    .from(issueDependencies)
    .innerJoin(issues, eq(issues.id, issueDependencies.dependencyId))
    .where(and(eq(issueDependencies.issueId, issueId), eq(issues.isClosed, false)))
    .get()!.n;
}
