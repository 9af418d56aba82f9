import type { Env } from "../env.ts";
import { subscribePayloads, type PayloadSink } from "../webhook/payload-subscription.ts";
import { actionsEvents } from "./events.ts";

/**
 * Where the payloads go when Actions listens: the same payloads Gitea's webhooks carry become
 * the `github.event` of the runs they start (trigger.ts decides which).
 */
const actionsSink: PayloadSink = {
  mayWant: (env) => env.settings.actions.enabled,
  wants: (env, repo) => env.settings.actions.enabled && repo.hasActions && !repo.isArchived,
  deliver: async (env, d) =>
    void (await (await import("./trigger.ts")).startRunsFor(env, { repo: d.repo, owner: d.owner, doer: d.doer, hookEvent: d.event, payload: d.payload as Record<string, unknown> })),
};

/**
 * Gitea's actions notifier: every repository, issue, pull request and release event may start
 * workflow runs; what happens to runs and jobs sets commit statuses. Called once per Env by the
 * composition root; the code that does the work is imported by its first event.
 */
export function subscribeActions(env: Env): void {
  subscribePayloads(env.bus, actionsSink);
  env.bus.subscribe(actionsEvents, async (env, e) => (await import("./after-change.ts")).afterActionsChange(env, e));
}
