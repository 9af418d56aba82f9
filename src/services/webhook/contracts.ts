/**
 * The seams between the parts of the webhook system, fixed up front so they can be built apart:
 * events are fired by the services (fire.ts), stored as hook tasks and queued (enqueue.ts), and
 * delivered later, when each hook's type turns the stored Gitea payload into its own format
 * (formats/*.ts).
 */
import type { HookEventType } from "./event-types.ts";
import type { RepoRow, UserRow, WebhookRow } from "../../db/schema/index.ts";

/** An event that happened, with its payload in Gitea's JSON shape (the `gitea` hook type's body). */
export interface HookEventInput {
  event: HookEventType;
  /** Gitea's payload for the event, e.g. a PushPayload or an IssuePayload, as plain JSON. */
  payload: Record<string, unknown>;
  /**
   * The repository the event is about; undefined for events without one (a package not linked to
   * a repository): then only the owner's hooks and the system hooks fire.
   */
  repo?: RepoRow;
  /** The repository's owner (user or organization), or the owner of a repository-less event: its owner hooks fire too. */
  owner: UserRow;
  /** For push, create and delete: the ref's short name, matched against each hook's branch_filter. */
  branch?: string;
}

/** What a hook type makes of a stored payload at delivery: the body and how to send it. */
export interface FormattedDelivery {
  body: string;
  contentType: string;
  /** A type may send to another address than the hook's URL (e.g. Telegram's method URL); default the hook's. */
  url?: string;
  /** Default the hook's http_method. */
  method?: string;
  /** Extra headers the type needs, before hearth adds its own. */
  headers?: Record<string, string>;
}

/** Turns the Gitea payload of an event into what a hook of a given type sends. */
export type PayloadFormatter = (hook: WebhookRow, event: HookEventType, payload: Record<string, unknown>) => FormattedDelivery;
