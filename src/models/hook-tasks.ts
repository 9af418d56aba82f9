import { and, asc, eq, notInArray, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { hookTaskAttempts, hookTasks, queueItems, webhooks, type HookTaskRow, type WebhookRow } from "../db/schema/index.ts";

/** Writing hook tasks and their delivery attempts (reading them for the API is in webhook.ts). */

export function insertHookTask(
  tx: Tx,
  row: { hookId: number; uuid: string; payloadContent: string; eventType: string; createdUnix: number },
): HookTaskRow {
  return prepared(tx, "hookTask.insert", (t) =>
    t
      .insert(hookTasks)
      .values({
        hookId: sql.placeholder("hookId"),
        uuid: sql.placeholder("uuid"),
        payloadContent: sql.placeholder("payloadContent"),
        eventType: sql.placeholder("eventType"),
        createdUnix: sql.placeholder("createdUnix"),
      })
      .returning()
      .prepare(),
  ).get(row)!;
}

/** A hook by id, whoever owns it: the delivery worker holds only the task's hook_id. */
export function getWebhookById(tx: Tx, id: number): WebhookRow | undefined {
  return prepared(tx, "webhook.byId", (t) => t.select().from(webhooks).where(eq(webhooks.id, sql.placeholder("id"))).prepare()).get({ id });
}

/** A task by id, for its delivery. */
export function getHookTaskById(tx: Tx, id: number): HookTaskRow | undefined {
  return prepared(tx, "hookTask.byId", (t) => t.select().from(hookTasks).where(eq(hookTasks.id, sql.placeholder("id"))).prepare()).get({ id });
}

export interface AttemptRecord {
  taskId: number;
  hookId: number;
  /** Gitea's HookRequest / HookResponse, as JSON. */
  request: string;
  response: string;
  isSucceed: boolean;
  startedMs: number;
  durationMs: number;
  /** Gitea's `delivered`: nanoseconds since the epoch. */
  deliveredNs: number;
  /** The hook's last_status after this attempt (HookStatus). */
  hookStatus: number;
}

/**
 * One attempt: its row, the task's last outcome and attempt count, and the hook's last status. The
 * caller holds the transaction; the statements are prepared on `tx` (pass the root handle from
 * inside a transaction on it to reuse them: SQLite runs them on the same connection, in it).
 */
export function recordAttempt(tx: Tx, a: AttemptRecord): void {
  prepared(tx, "hookTask.attempt.insert", (t) =>
    t
      .insert(hookTaskAttempts)
      .values({
        taskId: sql.placeholder("taskId"),
        request: sql.placeholder("request"),
        response: sql.placeholder("response"),
        isSucceed: sql.placeholder("isSucceed"),
        durationMs: sql.placeholder("durationMs"),
        startedMs: sql.placeholder("startedMs"),
      })
      .prepare(),
  ).run({ taskId: a.taskId, request: a.request, response: a.response, isSucceed: a.isSucceed ? 1 : 0, durationMs: a.durationMs, startedMs: a.startedMs });
  prepared(tx, "hookTask.attempt.task", (t) =>
    t
      .update(hookTasks)
      .set({
        isDelivered: true,
        delivered: sql`${sql.placeholder("delivered")}`,
        isSucceed: sql`${sql.placeholder("isSucceed")}`,
        requestContent: sql`${sql.placeholder("request")}`,
        responseContent: sql`${sql.placeholder("response")}`,
        attempts: sql`${hookTasks.attempts} + 1`,
      })
      .where(eq(hookTasks.id, sql.placeholder("taskId")))
      .prepare(),
  ).run({ taskId: a.taskId, delivered: a.deliveredNs, isSucceed: a.isSucceed ? 1 : 0, request: a.request, response: a.response });
  prepared(tx, "hookTask.attempt.hook", (t) =>
    t
      .update(webhooks)
      .set({ lastStatus: sql`${sql.placeholder("status")}` })
      .where(eq(webhooks.id, sql.placeholder("hookId")))
      .prepare(),
  ).run({ hookId: a.hookId, status: a.hookStatus });
}

/**
 * Tasks never attempted that have no item in `queue` (recorded while the queue was full), oldest
 * first: they join the queue as it drains, and at start.
 */
export function unqueuedHookTasks(tx: Tx, queue: string, limit: number): number[] {
  const queued = tx
    .select({ id: sql<number>`json_extract(${queueItems.payload}, '$.taskId')` })
    .from(queueItems)
    .where(eq(queueItems.queue, queue));
  return tx
    .select({ id: hookTasks.id })
    .from(hookTasks)
    .where(and(eq(hookTasks.isDelivered, false), eq(hookTasks.attempts, 0), notInArray(hookTasks.id, queued)))
    .orderBy(asc(hookTasks.id))
    .limit(limit)
    .all()
    .map((r) => r.id);
}
