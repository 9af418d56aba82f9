import { and, asc, count, eq } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { stopwatches } from "../db/schema/index.ts";

/** A running stopwatch: one per user and issue; starting one stops the user's others (the service's rule). */
export type StopwatchRow = typeof stopwatches.$inferSelect;

export function getStopwatch(tx: Tx, userId: number, issueId: number): StopwatchRow | undefined {
  return tx
    .select()
    .from(stopwatches)
    .where(and(eq(stopwatches.userId, userId), eq(stopwatches.issueId, issueId)))
    .get();
}

/** Every stopwatch the user has running (normally at most one). */
export function stopwatchesOfUser(tx: Tx, userId: number, page?: { offset: number; limit: number }): StopwatchRow[] {
  const q = tx.select().from(stopwatches).where(eq(stopwatches.userId, userId)).orderBy(asc(stopwatches.id));
  return (page ? q.limit(page.limit).offset(page.offset) : q).all();
}

export function countStopwatchesOfUser(tx: Tx, userId: number): number {
  return tx.select({ n: count() }).from(stopwatches).where(eq(stopwatches.userId, userId)).get()!.n;
}

export function insertStopwatch(tx: Tx, userId: number, issueId: number, unix: number): StopwatchRow {
  return tx.insert(stopwatches).values({ userId, issueId, createdUnix: unix }).returning().get();
}

export function deleteStopwatch(tx: Tx, id: number): void {
  tx.delete(stopwatches).where(eq(stopwatches.id, id)).run();
}
