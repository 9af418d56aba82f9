import type { Env } from "../env.ts";
import type { HookTaskRow, WebhookRow } from "../../db/schema/index.ts";
import { writeTx, type Tx } from "../../db/client.ts";
import { hooksForOwner, hooksForRepo } from "../../models/webhook.ts";
import { insertHookTask, unqueuedHookTasks } from "../../models/hook-tasks.ts";
import { countQueueItems } from "../../models/queue.ts";
import { nowUnix } from "../../lib/time.ts";
import type { HookEventInput } from "./contracts.ts";
import type { HookEventType } from "./event-types.ts";
import { hookWants } from "./hook-events.ts";

/** The work queue webhook deliveries go through; an item is `{ taskId }`. */
export const WEBHOOK_QUEUE = "webhook";

export interface DeliveryItem {
  taskId: number;
}

/**
 * Processes (by their Env) whose fireEvent found the queue at QUEUE_LENGTH and left tasks in the
 * database only: they are queued as deliveries finish.
 */
const overflowing = new WeakSet<Env>();

function newTask(tx: Tx, hook: WebhookRow, event: HookEventType, content: string): HookTaskRow {
  return insertHookTask(tx, { hookId: hook.id, uuid: crypto.randomUUID(), payloadContent: content, eventType: event, createdUnix: nowUnix() });
}

/**
 * Gitea's payload_content: the payload as indented JSON (its JSONPayload), which is also the body
 * of a `gitea` hook.
 */
const payloadContent = (payload: Record<string, unknown>) => JSON.stringify(payload, null, 2);

/**
 * Gitea's PrepareWebhook filter for one hook: the event (and branch) must be wanted, and chat-type
 * hooks get no push without commits (a branch created by a push of no new commits), which would
 * say nothing to a human reader; `gitea` and `gogs` hooks still get it.
 */
function wants(hook: WebhookRow, input: HookEventInput): boolean {
  if (!hookWants(hook, input.event, input.branch)) return false;
  if (input.event === "push" && hook.type !== "gitea" && hook.type !== "gogs") {
    const commits = input.payload.commits;
    if (!Array.isArray(commits) || commits.length === 0) return false;
  }
  return true;
}

/**
 * An event happened: a hook task for every active hook that wants it (the repository's own, its
 * owner's, the site's system hooks), each with its queue item, in one transaction. Only database
 * work, so the request that fired the event does not wait for any receiver. Never throws: a
 * failure is logged, the caller's own change stands.
 *
 * With QUEUE_LENGTH deliveries already waiting, the tasks are recorded but not queued yet; they
 * join the queue as it drains (or at the next start), so none is lost.
 */
export function fireEvent(env: Env, input: HookEventInput): void {
  try {
    const repo = input.repo;
    const candidates = repo ? hooksForRepo(env.db, repo.id, repo.ownerId) : hooksForOwner(env.db, input.owner.id);
    const hooks = candidates.filter((h) => wants(h, input));
    if (hooks.length === 0) return;
    const content = payloadContent(input.payload);
    let deferred = 0;
    // The statements are prepared on the root handle (reused from call to call) and run inside its
    // transaction: one connection, so they are part of it.
    const db = env.db;
    writeTx(db, () => {
      let room = env.settings.webhook.queueLength - countQueueItems(db, WEBHOOK_QUEUE);
      for (const hook of hooks) {
        const task = newTask(db, hook, input.event, content);
        if (room-- > 0) env.queue.put(db, WEBHOOK_QUEUE, { taskId: task.id } satisfies DeliveryItem);
        else deferred++;
      }
    });
    if (deferred > 0) {
      overflowing.add(env);
      env.log.warn("webhook queue full ([webhook] QUEUE_LENGTH): deliveries recorded, queued as it drains", {
        event: input.event,
        repo: repo?.id ?? 0,
        owner: input.owner.id,
        deferred,
      });
    }
  } catch (err) {
    env.log.error("webhook event not recorded", { event: input.event, error: (err as Error)?.message ?? String(err) });
  }
}

/** One hook, one event (Gitea's test delivery): the task, queued whatever the queue's length. */
export function enqueueForHook(env: Env, hook: WebhookRow, event: HookEventType, payload: Record<string, unknown>): HookTaskRow {
  return writeTx(env.db, (tx) => {
    const task = newTask(tx, hook, event, payloadContent(payload));
    env.queue.put(tx, WEBHOOK_QUEUE, { taskId: task.id } satisfies DeliveryItem);
    return task;
  });
}

/**
 * Delivers an existing task again: a new attempt of the same task (same delivery id and payload),
 * with a fresh set of retries; every earlier attempt stays recorded.
 */
export function redeliver(env: Env, task: HookTaskRow): HookTaskRow {
  writeTx(env.db, (tx) => {
    env.queue.put(tx, WEBHOOK_QUEUE, { taskId: task.id } satisfies DeliveryItem);
  });
  return task;
}

/**
 * Queues tasks recorded while the queue was full, once it has drained to half its length (and
 * always at start, `force`): batches rather than one query per finished delivery.
 */
export function requeueDeferred(env: Env, force = false): void {
  if (!force && !overflowing.has(env)) return;
  const limit = env.settings.webhook.queueLength;
  // Read, then write only when there is something to queue (synchronous: nothing runs in between).
  const waiting = countQueueItems(env.db, WEBHOOK_QUEUE);
  if (!force && waiting > limit / 2) return;
  const room = limit - waiting;
  const ids = room > 0 ? unqueuedHookTasks(env.db, WEBHOOK_QUEUE, room) : [];
  if (ids.length > 0) {
    writeTx(env.db, (tx) => {
      for (const taskId of ids) env.queue.put(tx, WEBHOOK_QUEUE, { taskId } satisfies DeliveryItem);
    });
  }
  if (ids.length < room) overflowing.delete(env);
  else overflowing.add(env);
}
