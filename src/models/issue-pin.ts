import { and, asc, eq, gt, gte, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { issues, type IssueRow } from "../db/schema/index.ts";

/**
 * Pinned issues live in `issue.pin_order` (1-based, 0 = not pinned), numbered per repository and
 * kind: issues and pull requests have separate pin lists, as in Gitea.
 */

const sameList = (repoId: number, isPull: boolean) => and(eq(issues.repoId, repoId), eq(issues.isPull, isPull));

/** The highest pin position in use (0 when nothing is pinned). */
export function maxPinOrder(tx: Tx, repoId: number, isPull: boolean): number {
  return tx
    .select({ n: sql<number>`coalesce(max(${issues.pinOrder}), 0)` })
    .from(issues)
    .where(sameList(repoId, isPull))
    .get()!.n;
}

export function countPinned(tx: Tx, repoId: number, isPull: boolean): number {
  return tx
    .select({ n: sql<number>`count(*)` })
    .from(issues)
    .where(and(sameList(repoId, isPull), gt(issues.pinOrder, 0)))
    .get()!.n;
}

export function setPinOrder(tx: Tx, issueId: number, order: number): void {
  tx.update(issues).set({ pinOrder: order }).where(eq(issues.id, issueId)).run();
}

/** Moves every pin at or after `from` by `delta` (closing or opening a gap in the list). */
export function shiftPins(tx: Tx, repoId: number, isPull: boolean, from: number, delta: 1 | -1): void {
  tx.update(issues)
    .set({ pinOrder: sql`${issues.pinOrder} + ${delta}` })
    .where(and(sameList(repoId, isPull), gte(issues.pinOrder, from)))
    .run();
}

export function listPinned(tx: Tx, repoId: number, isPull: boolean): IssueRow[] {
  return tx
    .select()
    .from(issues)
    .where(and(sameList(repoId, isPull), gt(issues.pinOrder, 0)))
    .orderBy(asc(issues.pinOrder))
    .all();
}
