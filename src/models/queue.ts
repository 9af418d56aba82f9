import { and, count, eq, gt, inArray, lte, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { queueItems, type QueueItemRow } from "../db/schema/index.ts";

/**
 * The persistent work queue's table (queue_item). An item is free when `leased_until_ms` has
 * passed; a worker claims it by moving the lease into the future, so a worker that dies leaves an
 * item that becomes claimable again once its lease runs out. The statements a busy queue runs per
 * item are prepared once (see db/prepared.ts).
 */

export function insertQueueItem(tx: Tx, queue: string, payload: string, runAfterMs: number, nowMs: number): QueueItemRow {
  return prepared(tx, "queue.insert", (t) =>
    t
      .insert(queueItems)
      .values({
        queue: sql.placeholder("queue"),
        payload: sql.placeholder("payload"),
        runAfterMs: sql.placeholder("runAfterMs"),
        createdMs: sql.placeholder("createdMs"),
      })
      .returning()
      .prepare(),
  ).get({ queue, payload, runAfterMs, createdMs: nowMs })!;
}

/**
 * Claims up to `limit` items of `queue` that are due and not leased, in one statement: the chosen
 * rows get a lease until `leaseUntilMs` and one more attempt. Oldest due first.
 */
export function claimQueueItems(tx: Tx, queue: string, nowMs: number, leaseUntilMs: number, limit: number): QueueItemRow[] {
  if (limit <= 0) return [];
  return prepared(tx, "queue.claim", (t) =>
    t
      .update(queueItems)
      .set({ leasedUntilMs: sql`${sql.placeholder("leaseUntil")}`, attempts: sql`${queueItems.attempts} + 1` })
      .where(
        sql`${queueItems.id} IN (SELECT q.id FROM ${queueItems} q
          WHERE q.queue = ${sql.placeholder("queue")} AND q.run_after_ms <= ${sql.placeholder("now")} AND q.leased_until_ms <= ${sql.placeholder("now")}
          ORDER BY q.run_after_ms, q.id LIMIT ${sql.placeholder("limit")})
          AND ${queueItems.leasedUntilMs} <= ${sql.placeholder("now")}`,
      )
      .returning()
      .prepare(),
  ).all({ queue, now: nowMs, leaseUntil: leaseUntilMs, limit });
}

/** Done: the item leaves the queue. Only while this worker still holds the lease it was given. */
export function deleteQueueItem(tx: Tx, id: number, leaseUntilMs: number): void {
  prepared(tx, "queue.delete", (t) =>
    t
      .delete(queueItems)
      .where(and(eq(queueItems.id, sql.placeholder("id")), eq(queueItems.leasedUntilMs, sql.placeholder("lease"))))
      .prepare(),
  ).run({ id, lease: leaseUntilMs });
}

/** Runs again at `runAfterMs`: the lease is released. */
export function rescheduleQueueItem(tx: Tx, id: number, leaseUntilMs: number, runAfterMs: number): void {
  tx.update(queueItems)
    .set({ runAfterMs, leasedUntilMs: 0 })
    .where(and(eq(queueItems.id, id), eq(queueItems.leasedUntilMs, leaseUntilMs)))
    .run();
}

/** Makes one item that is waiting (not leased) due at `nowMs`; false when it is gone or already running. */
export function advanceQueueItem(tx: Tx, id: number, nowMs: number): boolean {
  const row = tx
    .update(queueItems)
    .set({ runAfterMs: nowMs })
    .where(and(eq(queueItems.id, id), lte(queueItems.leasedUntilMs, nowMs)))
    .returning({ id: queueItems.id })
    .get();
  return row !== undefined;
}

/** Withdraws one item that is waiting (not leased); one already running is left to finish. */
export function withdrawQueueItem(tx: Tx, id: number, nowMs: number): void {
  tx.delete(queueItems)
    .where(and(eq(queueItems.id, id), lte(queueItems.leasedUntilMs, nowMs)))
    .run();
}

/** Makes the unleased items of `queue` that are due later due at `nowMs`. */
export function advanceQueueItems(tx: Tx, queue: string, nowMs: number): void {
  tx.update(queueItems)
    .set({ runAfterMs: nowMs })
    .where(and(eq(queueItems.queue, queue), gt(queueItems.runAfterMs, nowMs), lte(queueItems.leasedUntilMs, nowMs)))
    .run();
}

/** When the next item of `queues` becomes claimable (due and unleased), or undefined when there is none. */
export function nextQueueItemDueMs(tx: Tx, queues: string[]): number | undefined {
  if (queues.length === 0) return undefined;
  // Asked each time a queue runs dry (after every batch of events under load): prepared once.
  const row = prepared(tx, "queue.nextDue", (t) =>
    t
      .select({ at: sql<number | null>`min(max(${queueItems.runAfterMs}, ${queueItems.leasedUntilMs}))` })
      .from(queueItems)
      .where(sql`${queueItems.queue} IN (SELECT value FROM json_each(${sql.placeholder("queues")}))`)
      .prepare(),
  ).get({ queues: JSON.stringify(queues) });
  return row?.at ?? undefined;
}

/** Items waiting (or running) in one queue. */
export function countQueueItems(tx: Tx, queue: string): number {
  return (
    prepared(tx, "queue.count", (t) =>
      t.select({ n: count() }).from(queueItems).where(eq(queueItems.queue, sql.placeholder("queue"))).prepare(),
    ).get({ queue })?.n ?? 0
  );
}

/** Items waiting (or running) in any of `queues`. */
export function countQueueItemsIn(tx: Tx, queues: string[]): number {
  if (queues.length === 0) return 0;
  return tx.select({ n: count() }).from(queueItems).where(inArray(queueItems.queue, queues)).get()?.n ?? 0;
}

/**
 * The items of `queue` holding exactly `payload`: whether one waits (not yet started, no lease)
 * and whether one runs (leased), for a sync asked twice or a periodic item to be replaced.
 */
export function queueItemStates(tx: Tx, queue: string, payload: string, nowMs: number): { waiting: boolean; running: boolean } {
  const rows = tx
    .select({ leasedUntilMs: queueItems.leasedUntilMs })
    .from(queueItems)
    .where(and(eq(queueItems.queue, queue), eq(queueItems.payload, payload)))
    .all();
  return { waiting: rows.some((r) => r.leasedUntilMs <= nowMs), running: rows.some((r) => r.leasedUntilMs > nowMs) };
}

/** Deletes the items of `queue` holding one of `payloads` that no worker holds (a running one ends by itself). */
export function dropWaitingQueueItems(tx: Tx, queue: string, payloads: string[], nowMs: number): void {
  if (payloads.length === 0) return;
  tx.delete(queueItems)
    .where(and(eq(queueItems.queue, queue), inArray(queueItems.payload, payloads), lte(queueItems.leasedUntilMs, nowMs)))
    .run();
}
