import { and, asc, count, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { insertReturning } from "./prepared-insert.ts";
import { containsText } from "./like.ts";
import { idsParam, inIdList, inIdOrder, inIdsPlaceholder } from "./id-list.ts";
import { countMatches, matchingIds, scopedTextMatch, textPhrase, withStagedMatches } from "./issue-text.ts";
import {
  issueAssignees,
  issueDependencies,
  issueIndexes,
  issueLabels,
  issues,
  issueUsers,
  labels,
  milestones,
  pullRequests,
  repositories,
  type IssueRow,
  type LabelRow,
  type MilestoneRow,
  type NewIssueRow,
} from "../db/schema/index.ts";

/** The next number of a repository's issues and pull requests (one sequence for both). */
export function nextIssueIndex(tx: Tx, repoId: number): number {
  // Issue creation's statements are prepared once (db/prepared.ts), as is insertIssue.
  return prepared(tx, "issue.nextIndex", (t) =>
    t
      .insert(issueIndexes)
      .values({ repoId: sql.placeholder("repoId"), maxIndex: 1 })
      .onConflictDoUpdate({ target: issueIndexes.repoId, set: { maxIndex: sql`${issueIndexes.maxIndex} + 1` } })
      .returning({ index: issueIndexes.maxIndex })
      .prepare(),
  ).get({ repoId })!.index;
}

export function insertIssue(tx: Tx, row: NewIssueRow): IssueRow {
  return insertReturning(tx, issues, "issue", row);
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
  return prepared(tx, "issue.byIds", (t) => t.select().from(issues).where(inIdsPlaceholder(issues.id)).prepare()).all(idsParam(ids));
}

export function updateIssue(tx: Tx, id: number, patch: Partial<NewIssueRow>): IssueRow | undefined {
  return tx.update(issues).set(patch).where(eq(issues.id, id)).returning().get();
}

export function deleteIssueRow(tx: Tx, id: number): void {
  tx.delete(issues).where(eq(issues.id, id)).run();
}

/**
 * Moves a repository's issue or pull request counters by a change (one created, deleted, closed or
 * reopened) in the change's own transaction: keeping them in step costs nothing however many issues
 * the repository holds, and the lists read their totals from them.
 */
export function adjustRepoIssueCounters(tx: Tx, repoId: number, isPull: boolean, delta: { all: number; closed: number }): void {
  if (delta.all === 0 && delta.closed === 0) return;
  const all = sql.placeholder("all");
  const closed = sql.placeholder("closed");
  prepared(tx, isPull ? "repo.adjustPullCounters" : "repo.adjustIssueCounters", (t) =>
    t
      .update(repositories)
      .set(
        isPull
          ? { numPulls: sql`${repositories.numPulls} + ${all}`, numClosedPulls: sql`${repositories.numClosedPulls} + ${closed}` }
          : { numIssues: sql`${repositories.numIssues} + ${all}`, numClosedIssues: sql`${repositories.numClosedIssues} + ${closed}` },
      )
      .where(eq(repositories.id, sql.placeholder("repoId")))
      .prepare(),
  ).run({ repoId, all: delta.all, closed: delta.closed });
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

/** Repositories by id, or "everywhere": every repository with the kind's unit (issues, pull requests) enabled. */
export type RepoSet = number[] | "everywhere";

export interface IssueListFilter {
  /** Repositories to look in. */
  repoIds: RepoSet;
  /**
   * When set, pull requests come only from these repositories and issues only from `repoIds` (a
   * search across repositories where the doer reads one unit but not the other).
   */
  pullRepoIds?: RepoSet;
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
  /** Issues with some assignee (true) or with none (false): the web list's "(any)" and "(none)". */
  hasAssignee?: boolean;
  mentionedId?: number;
  sinceUnix?: number;
  beforeUnix?: number;
  /** Pull requests into this branch of this repository. */
  pullBase?: { repoId: number; branch: string };
  /** Only issues with these ids (e.g. a search narrowed by another index). */
  ids?: number[];
  sort?: IssueSort;
  offset: number;
  limit: number;
}


/**
 * Below this many issues in the repositories searched, a search walks each repository's own index;
 * above it, the newest-first index of all issues, keeping those of the wanted repositories (which
 * then make up a large enough share that a page is found after a short walk).
 */
const PER_REPO_WALK_MAX = 20_000;

/**
 * The filters beyond repository, kind and state: with none, the repositories' counters give the
 * total. `textMatch` is the keyword's full-text query when listIssues narrowed it to the list.
 */
function narrowingConditions(f: IssueListFilter, textMatch?: string): SQL[] {
  const conds: SQL[] = [];
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
    const number = issueNumberIn(f.keyword);
    const byNumber = number === undefined ? undefined : eq(issues.index, number);
    conds.push(or(textMatch ? inArray(issues.id, matchingIds(textMatch)) : containingText(f.keyword), byNumber)!);
  }
  if (f.posterId !== undefined) conds.push(eq(issues.posterId, f.posterId));
  if (f.assigneeId !== undefined) {
    conds.push(
      inArray(issues.id, sql`(SELECT ${issueAssignees.issueId} FROM ${issueAssignees} WHERE ${issueAssignees.assigneeId} = ${f.assigneeId})`),
    );
  }
  if (f.hasAssignee !== undefined) {
    const assigned = sql`EXISTS (SELECT 1 FROM ${issueAssignees} WHERE ${issueAssignees.issueId} = ${issues.id})`;
    conds.push(f.hasAssignee ? assigned : sql`NOT ${assigned}`);
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
  if (f.ids) conds.push(f.ids.length ? inIdList(issues.id, f.ids) : sql`0`);
  if (f.pullBase) {
    conds.push(
      inArray(
        issues.id,
        sql`(SELECT ${pullRequests.issueId} FROM ${pullRequests} WHERE ${pullRequests.baseRepoId} = ${f.pullBase.repoId} AND ${pullRequests.baseBranch} = ${f.pullBase.branch})`,
      ),
    );
  }
  return conds;
}

/** The issue number a keyword names (`123`, `#123`), which a search also matches by number. */
const issueNumberIn = (keyword: string): number | undefined => (/^#?\d+$/.test(keyword) ? Number(keyword.replace("#", "")) : undefined);

/**
 * Issues whose title or body contains `keyword`, ignoring case: through the trigram index
 * `issue_fts` (issue-text.ts) where it can look the keyword up, a substring match without reading
 * every issue; else row by row.
 */
function containingText(keyword: string): SQL {
  const phrase = textPhrase(keyword);
  if (phrase === undefined) return or(containsText(issues.title, keyword), containsText(issues.content, keyword))!;
  return inArray(issues.id, matchingIds(phrase));
}

/**
 * A list of one repository's issues and pull requests narrowed by nothing but one of its labels or
 * one of its milestones: the label's or milestone's own counters (kept in step by every change,
 * and counting both kinds) are its total, where a count would look up every issue it holds.
 */
function filterCounter(tx: Tx, f: IssueListFilter): Counts | undefined {
  if (!Array.isArray(f.repoIds) || f.repoIds.length !== 1 || (f.pullRepoIds && f.pullRepoIds !== f.repoIds)) return undefined;
  const repoId = f.repoIds[0]!;
  const others = { ...f, labelIds: undefined, anyLabelIds: undefined, milestoneIds: undefined };
  if (narrowingConditions(others).length) return undefined;
  const oneLabel = (f.labelIds?.length ?? 0) + (f.anyLabelIds?.length ?? 0) === 1 && !f.milestoneIds?.length;
  if (oneLabel) {
    const label = tx.select().from(labels).where(eq(labels.id, (f.labelIds ?? f.anyLabelIds)![0]!)).get();
    return label && label.repoId === repoId ? { all: label.numIssues, closed: label.numClosedIssues } : undefined;
  }
  if (!f.labelIds?.length && !f.anyLabelIds && f.milestoneIds?.length === 1 && f.milestoneIds[0]! > 0) {
    const milestone = tx.select().from(milestones).where(eq(milestones.id, f.milestoneIds[0]!)).get();
    return milestone && milestone.repoId === repoId ? { all: milestone.numIssues, closed: milestone.numClosedIssues } : undefined;
  }
  return undefined;
}

/** One kind (issues or pull requests) in some repositories: a branch of the query. */
interface Arm {
  isPull: boolean;
  repoIds: RepoSet;
}

/**
 * The branches of a list: issues and pull requests may come from different repositories (a search
 * where the doer reads one unit but not the other), so each kind is its own branch.
 */
function armsOf(f: IssueListFilter): Arm[] {
  const kinds = f.isPull === undefined ? [false, true] : [f.isPull];
  return kinds
    .map((isPull) => ({ isPull, repoIds: isPull && f.pullRepoIds ? f.pullRepoIds : f.repoIds }))
    .filter((a) => a.repoIds === "everywhere" || a.repoIds.length > 0);
}

const unitFlag = (isPull: boolean) => (isPull ? repositories.hasPullRequests : repositories.hasIssues);

/** An arm's counters: all of its kind, and the closed ones. */
interface Counts {
  all: number;
  closed: number;
}

/** Open and closed issues (or pull requests) of the repositories, from their counters (kept in step by every change). */
function counted(tx: Tx, repoIds: RepoSet, isPull: boolean): Counts {
  // Only the kind's two counters: for "everywhere" the (unit, counters) index then answers alone.
  const sums = isPull
    ? { all: sql<number>`coalesce(sum(${repositories.numPulls}), 0)`, closed: sql<number>`coalesce(sum(${repositories.numClosedPulls}), 0)` }
    : { all: sql<number>`coalesce(sum(${repositories.numIssues}), 0)`, closed: sql<number>`coalesce(sum(${repositories.numClosedIssues}), 0)` };
  if (repoIds === "everywhere") return tx.select(sums).from(repositories).where(eq(unitFlag(isPull), true)).get()!;
  return prepared(tx, `repo.issueCounters:${Number(isPull)}`, (t) =>
    t.select(sums).from(repositories).where(inIdsPlaceholder(repositories.id)).prepare(),
  ).get(idsParam(repoIds))!;
}

/** How many of `c` a list in that state holds (undefined: either state). */
const inState = (c: Counts, isClosed: boolean | undefined): number => (isClosed === undefined ? c.all : isClosed ? c.closed : c.all - c.closed);

/**
 * One repository, or few issues: each repository's (repo, kind, state, order) index. Many issues
 * across many repositories: the kind's newest-first index, keeping the wanted repositories (`+`
 * stops SQLite from choosing the per-repository index for the membership test).
 */
function inRepos(repoIds: RepoSet, isPull: boolean, issueCount: number): SQL {
  if (repoIds === "everywhere") {
    // Checked per issue walked, through the repository's primary key: a page walks few.
    // (A scalar subquery: for EXISTS SQLite would first build a Bloom filter over every repository.)
    return sql`(SELECT ${unitFlag(isPull)} FROM ${repositories} WHERE ${repositories.id} = ${issues.repoId}) = 1`;
  }
  if (repoIds.length === 1) return eq(issues.repoId, repoIds[0]!);
  return issueCount <= PER_REPO_WALK_MAX ? inIdList(issues.repoId, repoIds) : inIdList(sql`+${issues.repoId}`, repoIds);
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

/**
 * A page of issues: the page's ids first, from an index that holds the order (so skipped rows are
 * never read), then those rows; the total from the repositories' counters when only kind and state
 * narrow the list, else counted through the same indexes.
 */
export function listIssues(tx: Tx, f: IssueListFilter): { rows: IssueRow[]; total: number } {
  const arms = armsOf(f);
  if (arms.length === 0) return { rows: [], total: 0 };
  const phrase = f.keyword ? textPhrase(f.keyword) : undefined;
  const textMatch = phrase && scopedTextMatch(tx, phrase, arms, f.isClosed);
  const narrowing = narrowingConditions(f, textMatch);
  const q: ListQuery = {
    f,
    arms,
    narrowing,
    sizes: arms.map((a) => inState(counted(tx, a.repoIds, a.isPull), f.isClosed)),
    closed: f.isClosed === undefined ? inArray(issues.isClosed, [false, true]) : eq(issues.isClosed, f.isClosed),
  };
  // Text the only filter (the keyword's is then the one condition, and it names no issue number):
  // the index's matches are exactly the list.
  const onlyText = textMatch !== undefined && narrowing.length === 1 && issueNumberIn(f.keyword!) === undefined;
  const page = onlyText ? textPage(tx, q, textMatch) : { ids: pageIds(tx, q), total: undefined };
  return { rows: inIdOrder(page.ids, getIssuesByIds(tx, page.ids)), total: page.total ?? totalOf(tx, q) };
}

/**
 * Below this many matches a text search's page is sorted from the matches themselves; above it,
 * found by walking an index that holds the order (which then reaches a page after a short walk).
 */
const FEW_MATCHES = 2_000;

/** The page and total of a list that is one full-text query's matches. */
function textPage(tx: Tx, q: ListQuery, match: string): { ids: number[]; total: number } {
  const { f } = q;
  const few = countMatches(tx, match, FEW_MATCHES + 1);
  if (few <= FEW_MATCHES) {
    // CROSS JOIN keeps the matches as the outer loop: each is looked up by its id, then sorted.
    const ids = tx.all<{ id: number }>(
      sql`SELECT ${issues.id} AS id FROM ${matchingIds(match)} AS m CROSS JOIN ${issues} ON ${issues.id} = m.id
          ORDER BY ${sql.join(ORDER[f.sort ?? "latest"], sql`, `)} LIMIT ${f.limit} OFFSET ${f.offset}`,
    );
    return { ids: ids.map((r) => r.id), total: few };
  }
  // Many: the matches are written once to a temporary table keyed by id, which counts them and
  // which the walk tests each issue against by rowid. (`+` keeps SQLite from looking the matches
  // up by id instead of walking in order.)
  return withStagedMatches(tx, match, ({ matched, membership }) => ({
    ids: pageIds(tx, { ...q, narrowing: [sql`+${issues.id} IN ${membership}`] }),
    total: matched,
  }));
}

/** A list as listIssues plans it: its branches, their sizes from the counters, and its filters. */
interface ListQuery {
  f: IssueListFilter;
  arms: Arm[];
  narrowing: SQL[];
  sizes: number[];
  closed: SQL;
}

const armWhere = (q: ListQuery, i: number) =>
  and(inRepos(q.arms[i]!.repoIds, q.arms[i]!.isPull, q.sizes[i]!), eq(issues.isPull, q.arms[i]!.isPull), q.closed, ...q.narrowing)!;

/** The ids of the page, in order, read from an index that holds the order. */
function pageIds(tx: Tx, q: ListQuery): number[] {
  const { f, arms, narrowing, closed } = q;
  if (arms.length === 2 && !(Array.isArray(arms[0]!.repoIds) && arms[0]!.repoIds === arms[1]!.repoIds)) {
    // Different repositories per kind: SQLite merges the two ordered branches (the search is newest first).
    const branch = (i: number) => sql`SELECT ${issues.id} AS id, ${issues.createdUnix} AS created FROM ${issues} WHERE ${armWhere(q, i)}`;
    return tx
      .all<{ id: number }>(sql`${branch(0)} UNION ALL ${branch(1)} ORDER BY created DESC, id DESC LIMIT ${f.limit} OFFSET ${f.offset}`)
      .map((r) => r.id);
  }
  const repoIds = arms[0]!.repoIds;
  const order = ORDER[f.sort ?? "latest"];
  // By creation, "either kind" and "either state" are no condition at all: the (repository[, state],
  // created) indexes then hold the order. Other orders lead with kind and state, so there they are
  // spelled out as IN lists SQLite walks value by value. (Not with a poster or milestone filter: their
  // own indexes lead with kind and state too. Label, assignee, mention and text filters are membership
  // tests applied along the walk.)
  const byCreation = ((f.sort ?? "latest") === "latest" || f.sort === "oldest") && f.posterId === undefined && !f.milestoneIds?.length;
  const kind = arms.length === 1 ? eq(issues.isPull, arms[0]!.isPull) : byCreation ? undefined : inArray(issues.isPull, [false, true]);
  const state = byCreation && f.isClosed === undefined && arms.length > 1 ? undefined : closed;
  if (narrowing.length === 0 && Array.isArray(repoIds) && repoIds.length === 1) {
    // One repository's plain list, the most asked page of all: a statement prepared per kind, state and order.
    const shape = `${arms.length === 1 ? Number(arms[0]!.isPull) : "*"}:${f.isClosed ?? "*"}:${f.sort ?? "latest"}`;
    return prepared(tx, `issue.page:${shape}`, (t) =>
      t
        .select({ id: issues.id })
        .from(issues)
        .where(and(eq(issues.repoId, sql.placeholder("repoId")), kind, state))
        .orderBy(...order)
        .limit(sql.placeholder("limit"))
        .offset(sql.placeholder("offset"))
        .prepare(),
    )
      .all({ repoId: repoIds[0]!, limit: f.limit, offset: f.offset })
      .map((r) => r.id);
  }
  return tx
    .select({ id: issues.id })
    .from(issues)
    .where(and(inRepos(repoIds, arms[0]!.isPull, q.sizes.reduce((a, b) => a + b, 0)), kind, state, ...narrowing))
    .orderBy(...order)
    .limit(f.limit)
    .offset(f.offset)
    .all()
    .map((r) => r.id);
}

/** X-Total-Count: from counters when they answer it (kind and state only, or one label or milestone), else counted. */
function totalOf(tx: Tx, q: ListQuery): number {
  const { f, arms } = q;
  if (q.narrowing.length === 0) return q.sizes.reduce((a, b) => a + b, 0);
  const counter = arms.length === 2 && arms[0]!.repoIds === arms[1]!.repoIds ? filterCounter(tx, f) : undefined;
  if (counter) return inState(counter, f.isClosed);
  let total = 0;
  for (const i of arms.keys()) total += tx.select({ n: count() }).from(issues).where(armWhere(q, i)).get()!.n;
  return total;
}

// Relations loaded for the Issue JSON, many issues at once.

export function labelsOfIssues(tx: Tx, issueIds: number[]): Map<number, LabelRow[]> {
  const out = new Map<number, LabelRow[]>();
  if (issueIds.length === 0) return out;
  const rows = prepared(tx, "issue.labelsOf", (t) =>
    t
      .select({ issueId: issueLabels.issueId, label: labels })
      .from(issueLabels)
      .innerJoin(labels, eq(labels.id, issueLabels.labelId))
      .where(inIdsPlaceholder(issueLabels.issueId))
      .orderBy(asc(labels.name))
      .prepare(),
  ).all(idsParam(issueIds));
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
  const rows = prepared(tx, "issue.assigneesOf", (t) =>
    t.select().from(issueAssignees).where(inIdsPlaceholder(issueAssignees.issueId)).orderBy(asc(issueAssignees.id)).prepare(),
  ).all(idsParam(issueIds));
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
  const rows = prepared(tx, "milestone.byIds", (t) => t.select().from(milestones).where(inIdsPlaceholder(milestones.id)).prepare()).all(idsParam(wanted));
  return new Map(rows.map((m) => [m.id, m]));
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
