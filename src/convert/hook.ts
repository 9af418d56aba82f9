import type { HookTaskAttemptRow, HookTaskRow } from "../db/schema/index.ts";
import type { HookView } from "../services/webhook/hooks.ts";
import type { DeliveryDetail } from "../services/webhook/deliveries.ts";
import { toRFC3339 } from "../lib/time.ts";
import type { APIHook, APIHookDelivery, APIHookDeliveryAttempt, APIHookDeliveryDetail } from "../shapes/hook.ts";

/**
 * Gitea's ToHook: the config holds the url and content type (and a slack hook's settings), never
 * the secret; the Authorization header comes back in clear, as Gitea returns it.
 */
export function toAPIHook(v: HookView): APIHook {
  const { hook } = v;
  const config: Record<string, string> = { url: hook.url, content_type: v.contentType };
  if (v.slack) Object.assign(config, v.slack);
  return {
    id: hook.id,
    type: hook.type,
    branch_filter: v.branchFilter,
    config,
    events: v.events,
    authorization_header: v.authorizationHeader,
    active: hook.isActive,
    updated_at: toRFC3339(hook.updatedUnix),
    created_at: toRFC3339(hook.createdUnix),
  };
}

/** A stored request or response JSON; an empty or broken one is null. */
function jsonOrNull(s: string): Record<string, unknown> | null {
  if (!s) return null;
  try {
    const v = JSON.parse(s) as unknown;
    return v && typeof v === "object" ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const statusOf = (response: Record<string, unknown> | null) => (typeof response?.status === "number" ? response.status : 0);

/** Gitea's `delivered` is nanoseconds since the epoch; 0 means not delivered yet. */
const deliveredAt = (ns: number) => (ns > 0 ? toRFC3339(Math.floor(ns / 1e9)) : null);

/** One delivery in the deliveries list (hearth extension, after go-gitea/gitea#38775). */
export function toAPIHookDelivery(task: HookTaskRow): APIHookDelivery {
  return {
    id: task.id,
    uuid: task.uuid,
    event: task.eventType,
    is_delivered: task.isDelivered,
    is_succeed: task.isSucceed,
    status_code: statusOf(jsonOrNull(task.responseContent)),
    attempts: task.attempts,
    delivered_at: deliveredAt(task.delivered),
    created_at: toRFC3339(task.createdUnix),
  };
}

function toAPIHookDeliveryAttempt(a: HookTaskAttemptRow): APIHookDeliveryAttempt {
  const response = jsonOrNull(a.response);
  return {
    id: a.id,
    is_succeed: a.isSucceed,
    status_code: statusOf(response),
    duration_ms: a.durationMs,
    started_at: new Date(a.startedMs).toISOString(),
    request: jsonOrNull(a.request),
    response,
  };
}

/** A delivery with its payload, the last attempt's request and response, and every attempt. */
export function toAPIHookDeliveryDetail(d: DeliveryDetail): APIHookDeliveryDetail {
  const last = d.attempts.at(-1);
  return {
    ...toAPIHookDelivery(d.task),
    duration_ms: last?.durationMs ?? 0,
    payload: jsonOrNull(d.task.payloadContent),
    request: jsonOrNull(d.task.requestContent),
    response: jsonOrNull(d.task.responseContent),
    attempt_list: d.attempts.map(toAPIHookDeliveryAttempt),
  };
}
