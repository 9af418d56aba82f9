import type { Env } from "../env.ts";
import type { HookTaskAttemptRow, HookTaskRow, WebhookRow } from "../../db/schema/index.ts";
import * as model from "../../models/webhook.ts";
import { NotFound } from "../../lib/errors.ts";
import { hookWants } from "./hook-events.ts";
import { enqueueForHook, redeliver } from "./enqueue.ts";

/**
 * A hook's deliveries (its hook tasks) for the deliveries API, a hearth extension shaped as
 * proposed upstream (go-gitea/gitea#38775): newest first, each with every attempt made.
 */
export function listDeliveries(env: Env, hook: WebhookRow, page: { offset: number; limit: number }): { items: HookTaskRow[]; total: number } {
  const { rows, total } = model.listHookTasks(env.db, hook.id, page);
  return { items: rows, total };
}

export interface DeliveryDetail {
  task: HookTaskRow;
  attempts: HookTaskAttemptRow[];
}

function requireTask(env: Env, hook: WebhookRow, uuid: string): HookTaskRow {
  const task = model.getHookTaskByUuid(env.db, hook.id, uuid);
  if (!task) throw new NotFound();
  return task;
}

export function getDelivery(env: Env, hook: WebhookRow, uuid: string): DeliveryDetail {
  const task = requireTask(env, hook, uuid);
  return { task, attempts: model.listTaskAttempts(env.db, task.id) };
}

/** Sends a delivery's stored payload again, as a new attempt of the same task. */
export function redeliverDelivery(env: Env, hook: WebhookRow, uuid: string): HookTaskRow {
  return redeliver(env, requireTask(env, hook, uuid));
}

/**
 * Gitea's TestHook after the payload is built: a push to the hook alone, through PrepareWebhook's
 * checks (the hook must want pushes, and the branch pass its filter; whether it is active does not
 * matter). Returns the task, or undefined when the hook does not want it.
 */
export function testHook(env: Env, hook: WebhookRow, payload: Record<string, unknown>, branch: string | undefined): HookTaskRow | undefined {
  if (!hookWants(hook, "push", branch)) return undefined;
  return enqueueForHook(env, hook, "push", payload);
}
