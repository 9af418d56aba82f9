import { and, asc, eq, gt, lte } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import {
  actionScheduleSpecs,
  actionSchedules,
  type ActionScheduleRow,
  type ActionScheduleSpecRow,
} from "../db/schema/index.ts";

/**
 * Scheduled workflows as Gitea's models/actions/schedule*.go keep them: one `action_schedule`
 * row per workflow file with `on: schedule` on the default branch, one `action_schedule_spec`
 * row per cron line, each with the next time it fires.
 */

export type NewSchedule = typeof actionSchedules.$inferInsert;

export function schedulesOfRepo(tx: Tx, repoId: number): ActionScheduleRow[] {
  return tx.select().from(actionSchedules).where(eq(actionSchedules.repoId, repoId)).orderBy(asc(actionSchedules.id)).all();
}

export function specsOfRepo(tx: Tx, repoId: number): ActionScheduleSpecRow[] {
  return tx.select().from(actionScheduleSpecs).where(eq(actionScheduleSpecs.repoId, repoId)).orderBy(asc(actionScheduleSpecs.id)).all();
}

export function insertSchedule(tx: Tx, row: NewSchedule): ActionScheduleRow {
  return tx.insert(actionSchedules).values(row).returning().get();
}

export function insertSpec(tx: Tx, row: typeof actionScheduleSpecs.$inferInsert): void {
  tx.insert(actionScheduleSpecs).values(row).run();
}

/** Gitea's DeleteScheduleTaskByRepo: the repository's schedules and their specs. */
export function deleteSchedulesOfRepo(tx: Tx, repoId: number): number {
  tx.delete(actionScheduleSpecs).where(eq(actionScheduleSpecs.repoId, repoId)).run();
  return tx.delete(actionSchedules).where(eq(actionSchedules.repoId, repoId)).returning({ id: actionSchedules.id }).all().length;
}

/** A spec that is due, with its schedule (a spec whose schedule is gone is not one). */
export interface DueSpec {
  spec: ActionScheduleSpecRow;
  schedule: ActionScheduleRow;
}

/** Gitea's FindSpecs({Next: now}): specs whose next time has come, a page at a time in id order. */
export function dueSpecs(tx: Tx, now: number, afterId: number, limit: number): DueSpec[] {
  return tx
    .select({ spec: actionScheduleSpecs, schedule: actionSchedules })
    .from(actionScheduleSpecs)
    .innerJoin(actionSchedules, eq(actionSchedules.id, actionScheduleSpecs.scheduleId))
    // Walked by id, so a page never shows a spec again that the previous one moved.
    .where(and(lte(actionScheduleSpecs.nextUnix, now), gt(actionScheduleSpecs.id, afterId)))
    .orderBy(asc(actionScheduleSpecs.id))
    .limit(limit)
    .all();
}

/** Moves a spec on: the time it fired becomes `prev`, the next one `next`. */
export function moveSpec(tx: Tx, id: number, prevUnix: number, nextUnix: number): void {
  tx.update(actionScheduleSpecs).set({ prevUnix, nextUnix }).where(eq(actionScheduleSpecs.id, id)).run();
}

export function deleteSpec(tx: Tx, id: number): void {
  tx.delete(actionScheduleSpecs).where(eq(actionScheduleSpecs.id, id)).run();
}
