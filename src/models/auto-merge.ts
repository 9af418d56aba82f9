import { and, eq } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { issues, pullAutoMerges, pullRequests, type PullRequestRow } from "../db/schema/index.ts";

export type AutoMergeRow = typeof pullAutoMerges.$inferSelect;

export function getAutoMerge(tx: Tx, pullId: number): AutoMergeRow | undefined {
  return tx.select().from(pullAutoMerges).where(eq(pullAutoMerges.pullId, pullId)).get();
}

export function insertAutoMerge(tx: Tx, row: typeof pullAutoMerges.$inferInsert): AutoMergeRow {
  return tx.insert(pullAutoMerges).values(row).returning().get();
}

export function deleteAutoMerge(tx: Tx, pullId: number): void {
  tx.delete(pullAutoMerges).where(eq(pullAutoMerges.pullId, pullId)).run();
}

/** Open, unmerged pull requests into a repository that wait for an automerge. */
export function scheduledPullsOfRepo(tx: Tx, baseRepoId: number): PullRequestRow[] {
  return tx
    .select({ pull: pullRequests })
    .from(pullAutoMerges)
    .innerJoin(pullRequests, eq(pullRequests.id, pullAutoMerges.pullId))
    .innerJoin(issues, eq(issues.id, pullRequests.issueId))
    .where(and(eq(pullRequests.baseRepoId, baseRepoId), eq(pullRequests.hasMerged, false), eq(issues.isClosed, false)))
    .all()
    .map((r) => r.pull);
}
