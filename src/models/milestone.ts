import { and, asc, count, eq, sql, type SQL } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { issues, milestones, repositories, type MilestoneRow } from "../db/schema/index.ts";
import { nowUnix } from "../lib/time.ts";

/** A milestone of this repository by id; another repository's is not found. */
export function getMilestone(tx: Tx, repoId: number, id: number): MilestoneRow | undefined {
  return tx
    .select()
    .from(milestones)
    .where(and(eq(milestones.repoId, repoId), eq(milestones.id, id)))
    .get();
}

/** A milestone of this repository by exact name, as Gitea's GetMilestoneByRepoIDANDName. */
export function getMilestoneByName(tx: Tx, repoId: number, name: string): MilestoneRow | undefined {
  return tx
    .select()
    .from(milestones)
    .where(and(eq(milestones.repoId, repoId), eq(milestones.name, name)))
    .orderBy(asc(milestones.id))
    .get();
}

export interface MilestoneFilter {
  /** Open or closed only; undefined for both. */
  isClosed?: boolean;
  /** Case-insensitive substring of the name. */
  name?: string;
}

/**
 * Gitea keeps "no due date" as 9999-12-31 so that its default order (deadline, then name) puts those
 * milestones last; we store 0 for it, so the order maps 0 to the end explicitly.
 */
const deadlineOrder = sql`CASE WHEN ${milestones.deadlineUnix} <= 0 THEN 253402300799 ELSE ${milestones.deadlineUnix} END`;

export function listMilestones(
  tx: Tx,
  repoId: number,
  filter: MilestoneFilter,
  page: { limit: number; offset: number },
): { rows: MilestoneRow[]; total: number } {
  const conds: SQL[] = [eq(milestones.repoId, repoId)];
  if (filter.isClosed !== undefined) conds.push(eq(milestones.isClosed, filter.isClosed));
  if (filter.name) conds.push(sql`instr(upper(${milestones.name}), upper(${filter.name})) > 0`);
  const where = and(...conds);
  const rows = tx
    .select()
    .from(milestones)
    .where(where)
    .orderBy(asc(deadlineOrder), asc(milestones.name), asc(milestones.id))
    .limit(page.limit)
    .offset(page.offset)
    .all();
  const total = tx.select({ n: count() }).from(milestones).where(where).get()?.n ?? 0;
  return { rows, total };
}

export function insertMilestone(tx: Tx, row: typeof milestones.$inferInsert): MilestoneRow {
  return tx.insert(milestones).values(row).returning().get();
}

export function updateMilestone(tx: Tx, id: number, patch: Partial<typeof milestones.$inferInsert>): MilestoneRow {
  return tx.update(milestones).set(patch).where(eq(milestones.id, id)).returning().get()!;
}

/** Deletes a milestone; its issues keep existing without one, as Gitea's DeleteMilestoneByRepoID. */
export function deleteMilestoneRow(tx: Tx, id: number): void {
  tx.update(issues).set({ milestoneId: 0 }).where(eq(issues.milestoneId, id)).run();
  tx.delete(milestones).where(eq(milestones.id, id)).run();
}

/** Recounts a repository's milestone counters (num_milestones, num_closed_milestones) from the rows. */
export function recountRepoMilestones(tx: Tx, repoId: number): void {
  tx.update(repositories)
    .set({
      numMilestones: sql`(SELECT count(*) FROM ${milestones} WHERE ${milestones.repoId} = ${repoId})`,
      numClosedMilestones: sql`(SELECT count(*) FROM ${milestones} WHERE ${milestones.repoId} = ${repoId} AND ${milestones.isClosed} = 1)`,
    })
    .where(eq(repositories.id, repoId))
    .run();
}

/**
 * Recounts a milestone's issues from the rows (after an issue joins, leaves, closes or reopens). As
 * Gitea's UpdateMilestoneCounters (an xorm update of a row with an `updated` column), it also moves
 * the milestone's updated time.
 */
export function recountMilestone(tx: Tx, id: number): void {
  if (id <= 0) return;
  tx.update(milestones)
    .set({
      numIssues: sql`(SELECT count(*) FROM ${issues} WHERE ${issues.milestoneId} = ${id})`,
      numClosedIssues: sql`(SELECT count(*) FROM ${issues} WHERE ${issues.milestoneId} = ${id} AND ${issues.isClosed} = 1)`,
      updatedUnix: nowUnix(),
    })
    .where(eq(milestones.id, id))
    .run();
}
