import type { WebhookRow } from "../../db/schema/index.ts";
import { globMatches } from "../../lib/glob.ts";
import { HOOK_EVENT_TYPES, type HookEventType } from "./event-types.ts";

/**
 * Gitea's HookEvent, the JSON of a webhook's `events` column: which events a hook wants and its
 * branch filter. `events` maps a hook event key to whether it is chosen.
 */
export interface HookEvent {
  push_only: boolean;
  send_everything: boolean;
  choose_events: boolean;
  branch_filter: string;
  events: Record<string, boolean>;
}

/**
 * The keys Gitea's API writes into `events`, in the order hearth lists them. Gitea keeps the three
 * review outcomes (approved, rejected, comment) under one key, `pull_request_review`.
 */
const ISSUE_KEYS = ["issues", "issue_assign", "issue_label", "issue_milestone", "issue_comment"] as const;
const PULL_KEYS = [
  "pull_request",
  "pull_request_assign",
  "pull_request_label",
  "pull_request_milestone",
  "pull_request_comment",
  "pull_request_review",
  "pull_request_review_request",
  "pull_request_sync",
] as const;
const PLAIN_KEYS = ["create", "push", "delete", "fork", "repository", "wiki", "release", "package", "status", "workflow_run", "workflow_job"] as const;
const EVENT_KEYS: readonly string[] = [...PLAIN_KEYS, ...ISSUE_KEYS, ...PULL_KEYS];

const REVIEW_EVENTS: readonly HookEventType[] = ["pull_request_review_approved", "pull_request_review_rejected", "pull_request_review_comment"];

/** Gitea's util.SliceContainsString(list, s, true): case-insensitive membership. */
const has = (list: readonly string[], s: string) => list.some((e) => e.toLowerCase() === s.toLowerCase());

/**
 * Gitea's updateHookEvents (routers/api/v1/utils/hook.go): the API's event names to the stored
 * map. `issues` and `pull_request` are groups that choose all their sub-events; the bare group
 * event itself is `issues_only` / `pull_request_only`, the review outcomes `pull_request_review`.
 * Unknown names are ignored; no names at all means `["push"]`.
 */
export function eventsFromNames(names: readonly string[]): Record<string, boolean> {
  const list = names.length ? names : ["push"];
  const out: Record<string, boolean> = {};
  for (const k of PLAIN_KEYS) out[k] = has(list, k);
  const inGroup = (group: string, name: string) => has(list, name) || has(list, group);
  for (const k of ISSUE_KEYS) out[k] = inGroup("issues", k === "issues" ? "issues_only" : k);
  for (const k of PULL_KEYS) out[k] = inGroup("pull_request", k === "pull_request" ? "pull_request_only" : k);
  return out;
}

/** A HookEvent as the API creates or edits one: chosen events and a branch filter. */
export function chosenHookEvent(names: readonly string[], branchFilter: string): HookEvent {
  return { push_only: false, send_everything: false, choose_events: true, branch_filter: branchFilter, events: eventsFromNames(names) };
}

/** Reads the `events` column; a broken value wants nothing (Gitea logs and goes on with an empty one). */
export function parseHookEvent(json: string): HookEvent {
  let raw: Partial<HookEvent> = {};
  try {
    const v = JSON.parse(json) as unknown;
    if (v && typeof v === "object") raw = v as Partial<HookEvent>;
  } catch {
    raw = {};
  }
  const events: Record<string, boolean> = {};
  if (raw.events && typeof raw.events === "object") {
    for (const [k, val] of Object.entries(raw.events)) events[k] = val === true;
  }
  return {
    push_only: raw.push_only === true,
    send_everything: raw.send_everything === true,
    choose_events: raw.choose_events === true,
    branch_filter: typeof raw.branch_filter === "string" ? raw.branch_filter : "",
    events,
  };
}

export function serializeHookEvent(e: HookEvent): string {
  return JSON.stringify(e);
}

/** Gitea's Webhook.HasEvent: everything, push only, or the chosen key (reviews share one). */
export function hasEvent(e: HookEvent, event: HookEventType): boolean {
  if (e.send_everything) return true;
  if (e.push_only) return event === "push";
  const key = REVIEW_EVENTS.includes(event) ? "pull_request_review" : event;
  return e.events[key] === true;
}

/**
 * Gitea's Webhook.EventsArray, the `events` of a Hook: every event for send_everything, `push`
 * for push_only, else the chosen keys (Gitea walks a Go map, so its order is random; hearth keeps
 * a fixed one, with keys it does not know last).
 */
export function eventsArray(e: HookEvent): string[] {
  if (e.send_everything) return [...HOOK_EVENT_TYPES];
  if (e.push_only) return ["push"];
  const chosen = Object.keys(e.events).filter((k) => e.events[k]);
  const known = EVENT_KEYS.filter((k) => chosen.includes(k));
  return [...known, ...chosen.filter((k) => !EVENT_KEYS.includes(k))];
}

/**
 * Gitea's checkBranch: an empty filter or `*` lets every branch through; otherwise the branch
 * must match the glob (compiled without separators, so `*` spans `/`). A malformed glob matches
 * nothing, as Gitea's failed compile does.
 */
export function branchMatches(filter: string, branch: string): boolean {
  if (filter === "" || filter === "*") return true;
  return globMatches(filter, branch);
}

/**
 * Whether a hook wants an event: Gitea's HasEvent, then the branch filter when the event is about
 * a branch (a push, create or delete of a branch; pass no branch for tags and everything else,
 * where the filter has no effect, as Gitea's getPayloadBranch returns "").
 */
export function hookWants(hook: Pick<WebhookRow, "events">, event: HookEventType, branch?: string): boolean {
  const e = parseHookEvent(hook.events);
  if (!hasEvent(e, event)) return false;
  return branch ? branchMatches(e.branch_filter, branch) : true;
}
