import { and, asc, count, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { issues, trackedTimes, type TrackedTimeRow } from "../db/schema/index.ts";

/** Time spent on issues, in seconds; a deleted entry keeps its row with `deleted` set, as in Gitea. */

export function insertTrackedTime(tx: Tx, row: { issueId: number; userId: number; time: number; createdUnix: number }): TrackedTimeRow {
  return tx.insert(trackedTimes).values(row).returning().get();
}

export function getTrackedTime(tx: Tx, id: number): TrackedTimeRow | undefined {
  return tx.select().from(trackedTimes).where(eq(trackedTimes.id, id)).get();
}

export function getTrackedTimesByIds(tx: Tx, ids: number[]): TrackedTimeRow[] {
  if (ids.length === 0) return [];
  return tx.select().from(trackedTimes).where(inArray(trackedTimes.id, ids)).all();
}

/** Gitea's FindTrackedTimesOptions; deleted entries are never found. */
export interface TrackedTimeFilter {
  issueId?: number;
  userId?: number;
  /**
   * The repositories whose entries may be listed, per unit: entries of issues only from
   * `issueRepoIds`, entries of pull requests only from `pullRepoIds`.
   */
  repos?: { issueRepoIds: number[]; pullRepoIds: number[] };
  createdAfterUnix?: number;
  createdBeforeUnix?: number;
}

function whereFor(f: TrackedTimeFilter): SQL | undefined {
  const conds: (SQL | undefined)[] = [eq(trackedTimes.deleted, false)];
  if (f.issueId !== undefined) conds.push(eq(trackedTimes.issueId, f.issueId));
  if (f.userId !== undefined) conds.push(eq(trackedTimes.userId, f.userId));
  if (f.repos) {
    const { issueRepoIds, pullRepoIds } = f.repos;
    const part = (ids: number[], isPull: boolean) =>
      ids.length ? and(eq(issues.isPull, isPull), inArray(issues.repoId, ids)) : undefined;
    conds.push(or(part(issueRepoIds, false), part(pullRepoIds, true)) ?? sql`0`);
  }
  if (f.createdAfterUnix) conds.push(sql`${trackedTimes.createdUnix} >= ${f.createdAfterUnix}`);
  if (f.createdBeforeUnix) conds.push(sql`${trackedTimes.createdUnix} <= ${f.createdBeforeUnix}`);
  return and(...conds);
}

export function findTrackedTimes(tx: Tx, f: TrackedTimeFilter, page?: { offset: number; limit: number }): { rows: TrackedTimeRow[]; total: number } {
  const where = whereFor(f);
  const q = tx
    .select({ t: trackedTimes })
    .from(trackedTimes)
    .innerJoin(issues, eq(issues.id, trackedTimes.issueId))
    .where(where)
    .orderBy(asc(trackedTimes.id));
  const rows = (page ? q.limit(page.limit).offset(page.offset) : q).all().map((r) => r.t);
  const total = tx.select({ n: count() }).from(trackedTimes).innerJoin(issues, eq(issues.id, trackedTimes.issueId)).where(where).get()!.n;
  return { rows, total };
}

/** The repositories in which a user has tracked time (to decide, per repository, what they may still see). */
export function repoIdsWithTimesOf(tx: Tx, userId: number): number[] {
  return tx
    .selectDistinct({ repoId: issues.repoId })
    .from(trackedTimes)
    .innerJoin(issues, eq(issues.id, trackedTimes.issueId))
    .where(and(eq(trackedTimes.userId, userId), eq(trackedTimes.deleted, false)))
    .all()
    .map((r) => r.repoId);
}

/** Marks one user's entries on an issue deleted; returns the seconds they added up to. */
export function deleteUserTimesOnIssue(tx: Tx, issueId: number, userId: number): number {
  const mine = and(eq(trackedTimes.issueId, issueId), eq(trackedTimes.userId, userId), eq(trackedTimes.deleted, false));
  const sum = tx.select({ s: sql<number>`coalesce(sum(${trackedTimes.time}), 0)` }).from(trackedTimes).where(mine).get()!.s;
  if (sum !== 0) tx.update(trackedTimes).set({ deleted: true }).where(mine).run();
  return sum;
}

export function markTrackedTimeDeleted(tx: Tx, id: number): void {
  tx.update(trackedTimes).set({ deleted: true }).where(eq(trackedTimes.id, id)).run();
}

/** The time spent on an issue, in seconds, over its entries that were not deleted. */
export function totalTrackedTime(tx: Tx, issueId: number): number {
  return (
    tx
      .select({ n: sql<number>`coalesce(sum(${trackedTimes.time}), 0)` })
      .from(trackedTimes)
      .where(and(eq(trackedTimes.issueId, issueId), eq(trackedTimes.deleted, false)))
      .get()?.n ?? 0
  );
}
