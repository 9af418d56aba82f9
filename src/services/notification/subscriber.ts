import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { issueEvents } from "../events/issue-events.ts";

/**
 * Gitea's UI notifier, on the event bus: each issue event's in-app notifications are written in
 * one transaction of the bus's worker. They are as durable as the change: the event was recorded
 * with it, and a crash before they are written hands the event on again (the notifications are
 * upserts, so a repeat writes nothing twice). Called once per Env by the composition root; the
 * code that works out who is notified is imported by the first event.
 */
export function subscribeNotifications(env: Env): void {
  env.bus.subscribe(issueEvents, async (env, event) => {
    // Label changes and comment edits or deletions notify nobody (Gitea's UI notifier ignores them).
    if (event.kind === "labels" || event.kind === "comment-edited" || event.kind === "comment-deleted") return;
    const { notifyIssueEvent } = await import("./issue-events.ts");
    writeTx(env.db, (tx) => notifyIssueEvent(tx, env, event));
  });
}
