import type { EventBus } from "../events/bus.ts";
import { repoEvents } from "../events/repo-events.ts";
import { issueEvents } from "../events/issue-events.ts";
import { pullEvents } from "../events/pull-events.ts";
import { releaseEvents } from "../events/release-events.ts";
import type { PayloadSink } from "./notifier/common.ts";

export type { PayloadSink, Delivery } from "./notifier/common.ts";

/**
 * Gitea's payloads for repository, issue, pull request and release events, handed to `sink` as
 * they arrive on the bus (called by the subscribers the composition root wires): the webhooks'
 * own notifier (no `sink`: the notifiers' default, so its code loads with them) is one sink,
 * Actions (whose runs get the same payloads as `github.event`) another. Each kind's payload
 * builders are imported by its first event.
 */
export function subscribePayloads(bus: EventBus, sink?: PayloadSink): void {
  bus.subscribe(repoEvents, async (env, e) => (await import("./notifier/repo.ts")).onRepoEvent(env, e, sink));
  bus.subscribe(issueEvents, async (env, e) => (await import("./notifier/issues.ts")).onIssueEvent(env, e, sink));
  bus.subscribe(pullEvents, async (env, e) => (await import("./notifier/pulls.ts")).onPullEvent(env, e, sink));
  bus.subscribe(releaseEvents, async (env, e) => (await import("./notifier/releases.ts")).onReleaseEvent(env, e, sink));
}
