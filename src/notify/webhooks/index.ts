import { repoEvents } from "../../services/events/repo-events.ts";
import { issueEvents } from "../../services/events/issue-events.ts";
import { pullEvents } from "../../services/events/pull-events.ts";
import { releaseEvents } from "../../services/events/release-events.ts";
import { commitStatusEvents } from "../../services/status/events.ts";
import { onRepoEvent } from "./repo.ts";
import { onIssueEvent } from "./issues.ts";
import { onPullEvent } from "./pulls.ts";
import { onReleaseEvent } from "./releases.ts";
import { onCommitStatus } from "./statuses.ts";

let started = false;

/**
 * Gitea's webhook notifier: subscribes once per process to every event the services announce and
 * turns each into Gitea's payload for the hooks that want it. The subscribers run from the event
 * bus's worker (services/events/bus.ts) after the announcing transaction, never failing it; the
 * server subscribes before it starts the workers.
 */
export function startWebhookNotifier(): void {
  if (started) return;
  started = true;
  repoEvents.subscribe(onRepoEvent);
  issueEvents.subscribe(onIssueEvent);
  pullEvents.subscribe(onPullEvent);
  releaseEvents.subscribe(onReleaseEvent);
  commitStatusEvents.subscribe(onCommitStatus);
}
