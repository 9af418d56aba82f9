import type { Env } from "../env.ts";
import { ReviewType } from "../../db/schema/index.ts";
import { commitStatusEvents } from "../status/events.ts";
import { pullCheckEvents, pullEvents } from "../events/pull-events.ts";

/**
 * Subscribes automerge (automerge.ts) to the events that may complete a scheduled merge: a stored
 * commit status, an approving review, a check that found the request mergeable. Called once per
 * Env by the composition root; the merge code is imported by the first such event.
 */
export function subscribeAutoMerge(env: Env): void {
  const automerge = () => import("./automerge.ts");
  env.bus.subscribe(commitStatusEvents, async (env, { repoId, sha }) => (await automerge()).queueAutoMergesForCommit(env, repoId, sha));
  env.bus.subscribe(pullEvents, async (env, e) => {
    if (e.kind === "reviewed" && e.review.type === ReviewType.Approve) (await automerge()).queueAutoMerge(env, e.pull.id);
  });
  env.bus.subscribe(pullCheckEvents, async (env, { pullId }) => (await automerge()).queueAutoMerge(env, pullId));
}
