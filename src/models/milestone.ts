import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { issues, milestones, type MilestoneRow } from "../db/schema/index.ts";

export function getMilestone(tx: Tx, repoId: number, id: number): MilestoneRow | undefined {
  return tx
    .select()
    .from(milestones)
    .where(and(eq(milestones.repoId, repoId), eq(milestones.id, id)))
    .get();
}

/** Recounts a milestone's issues from the rows (after an issue joins, leaves, closes or reopens). */
export function recountMilestone(tx: Tx, id: number): void {
  if (id <= 0) return;
  tx.update(milestones)
    .set({
      numIssues: sql`(SELECT count(*) FROM ${issues} WHERE ${issues.milestoneId} = ${id})`,
      numClosedIssues: sql`(SELECT count(*) FROM ${issues} WHERE ${issues.milestoneId} = ${id} AND ${issues.isClosed} = 1)`,
    })
    .where(eq(milestones.id, id))
    .run();
}
