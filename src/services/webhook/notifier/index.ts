import type { Env } from "../../env.ts";
import { subscribePayloads } from "../payload-subscription.ts";
import { commitStatusEvents } from "../../status/events.ts";
import { packageEvents } from "../../events/package-events.ts";
import { actionsEvents } from "../../actions/events.ts";

/**
 * Gitea's webhook notifier: subscribes to every event the services announce and turns each into
 * Gitea's payload for the hooks that want it (stored and queued by enqueue.ts, sent by
 * deliver.ts). The subscribers run from the event bus's worker (services/events/bus.ts) after the
 * announcing transaction, never failing it. Called once per Env by the composition root; each
 * kind's payload builders are imported by its first event.
 */
export function subscribeWebhookNotifier(env: Env): void {
  subscribePayloads(env.bus);
  env.bus.subscribe(commitStatusEvents, async (env, e) => (await import("./statuses.ts")).onCommitStatus(env, e));
  env.bus.subscribe(packageEvents, async (env, e) => (await import("./packages.ts")).onPackageEvent(env, e));
  env.bus.subscribe(actionsEvents, async (env, e) => (await import("./actions.ts")).onActionsEvent(env, e));
}
