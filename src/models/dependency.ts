import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { issueDependencies, issues, type IssueRow } from "../db/schema/index.ts";

/** `issue_dependency`: `issue_id` is blocked by (depends on) `dependency_id`. */

export function dependencyExists(tx: Tx, issueId: number, dependencyId: number): boolean {
  return (
    tx
      .select({ id: issueDependencies.id })
      .from(issueDependencies)
      .where(and(eq(issueDependencies.issueId, issueId), eq(issueDependencies.dependencyId, dependencyId)))
      .get() !== undefined
  );
}

export function insertDependency(tx: Tx, row: { userId: number; issueId: number; dependencyId: number; unix: number }): void {
  tx.insert(issueDependencies)
    .values({ userId: row.userId, issueId: row.issueId, dependencyId: row.dependencyId, createdUnix: row.unix, updatedUnix: row.unix })
    .run();
}

/** False when there was no such dependency. */
export function deleteDependency(tx: Tx, issueId: number, dependencyId: number): boolean {
  const removed = tx
    .delete(issueDependencies)
    .where(and(eq(issueDependencies.issueId, issueId), eq(issueDependencies.dependencyId, dependencyId)))
    .returning({ id: issueDependencies.id })
    .all();
  return removed.length > 0;
}

/** Gitea's order: issues of the same repository first, then by repository, newest first within each. */
const order = (repoId: number) => [
  sql`CASE WHEN ${issues.repoId} = ${repoId} THEN 0 ELSE ${issues.repoId} END`,
  sql`${issues.createdUnix} DESC`,
  sql`${issues.id} DESC`,
];

/** The issues `issue` depends on (its blockers); a page, or all of them. */
export function blockersOf(tx: Tx, issue: Pick<IssueRow, "id" | "repoId">, page?: { offset: number; limit: number }): IssueRow[] {
  const q = tx
    .select({ issue: issues })
    .from(issueDependencies)
    .innerJoin(issues, eq(issues.id, issueDependencies.dependencyId))
    .where(eq(issueDependencies.issueId, issue.id))
    .orderBy(...order(issue.repoId));
  return (page ? q.limit(page.limit).offset(page.offset) : q).all().map((r) => r.issue);
}

/** The issues that depend on `issue` (the ones it blocks). */
export function blockedBy(tx: Tx, issue: Pick<IssueRow, "id" | "repoId">): IssueRow[] {
  return tx
    .select({ issue: issues })
    .from(issueDependencies)
    .innerJoin(issues, eq(issues.id, issueDependencies.issueId))
    .where(eq(issueDependencies.dependencyId, issue.id))
    .orderBy(...order(issue.repoId))
    .all()
    .map((r) => r.issue);
}
