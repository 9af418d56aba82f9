import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { issueLabels, issues, labels, type LabelRow } from "../db/schema/index.ts";

/** Labels by id that an issue of this repository may carry: the repository's own and its organization's. */
export function getLabelsForRepo(tx: Tx, repoId: number, ownerId: number, ids: number[]): LabelRow[] {
  if (ids.length === 0) return [];
  return tx
    .select()
    .from(labels)
    .where(and(inArray(labels.id, ids), or(eq(labels.repoId, repoId), and(eq(labels.repoId, 0), eq(labels.orgId, ownerId)))))
    .all();
}

export function labelIdsOfIssue(tx: Tx, issueId: number): number[] {
  return tx
    .select({ id: issueLabels.labelId })
    .from(issueLabels)
    .where(eq(issueLabels.issueId, issueId))
    .all()
    .map((r) => r.id);
}

export function addIssueLabel(tx: Tx, issueId: number, labelId: number): boolean {
  return tx.insert(issueLabels).values({ issueId, labelId }).onConflictDoNothing().returning().all().length > 0;
}

export function removeIssueLabel(tx: Tx, issueId: number, labelId: number): boolean {
  return (
    tx
      .delete(issueLabels)
      .where(and(eq(issueLabels.issueId, issueId), eq(issueLabels.labelId, labelId)))
      .returning()
      .all().length > 0
  );
}

/** Recounts the open/closed issues of labels from the rows. */
export function recountLabels(tx: Tx, labelIds: number[]): void {
  for (const id of new Set(labelIds)) {
    tx.update(labels)
      .set({
        numIssues: sql`(SELECT count(*) FROM ${issueLabels} WHERE ${issueLabels.labelId} = ${id})`,
        numClosedIssues: sql`(SELECT count(*) FROM ${issueLabels} INNER JOIN ${issues} ON ${issues.id} = ${issueLabels.issueId} WHERE ${issueLabels.labelId} = ${id} AND ${issues.isClosed} = 1)`,
      })
      .where(eq(labels.id, id))
      .run();
  }
}
