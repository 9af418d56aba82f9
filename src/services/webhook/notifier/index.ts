import type { Env } from "../../env.ts";
import { repoEvents } from "../../events/repo-events.ts";
import { issueEvents } from "../../events/issue-events.ts";
import { pullEvents } from "../../events/pull-events.ts";
import { releaseEvents } from "../../events/release-events.ts";
import { commitStatusEvents } from "../../status/events.ts";
import { onRepoEvent } from "./repo.ts";
import { onIssueEvent } from "./issues.ts";
import { onPullEvent } from "./pulls.ts";
import { onReleaseEvent } from "./releases.ts";
import { onCommitStatus } from "./statuses.ts";

/**
 * Gitea's webhook notifier: subscribes to every event the services announce and turns each into
 * Gitea's payload for the hooks that want it (stored and queued by enqueue.ts, sent by
 * deliver.ts). The subscribers run from the event bus's worker (services/events/bus.ts) after the
 * announcing transaction, never failing it. Called once per Env by the composition root.
 */
export function subscribeWebhookNotifier(env: Env): void {
  env.bus.subscribe(repoEvents, onRepoEvent);
  env.bus.subscribe(issueEvents, onIssueEvent);
  env.bus.subscribe(pullEvents, onPullEvent);
  env.bus.subscribe(releaseEvents, onReleaseEvent);
  env.bus.subscribe(commitStatusEvents, onCommitStatus);
}
