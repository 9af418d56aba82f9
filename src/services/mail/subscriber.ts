import type { Env } from "../env.ts";
import { pullEvents } from "../events/pull-events.ts";

/**
 * Gitea's mail notifier, on the event bus: what is mailed today is the merge of a pull request,
 * by hand or by automerge (a request marked merged outside hearth is not mailed). It runs from the
 * bus's worker after the merge committed, so the mail is as durable as the merge: a crash before
 * it is queued hands the event on again. Called once per Env by the composition root.
 */
export function subscribeMailNotifier(env: Env): void {
  env.bus.subscribe(pullEvents, async (env, e) => {
    if (e.kind !== "merged" || e.manually) return;
    // Imported by the first merge: a server that merges nothing never loads the mail composer.
    const [{ mailPullMerged }, { mergeRecipients }] = await Promise.all([import("./pull-merged.ts"), import("./merge-recipients.ts")]);
    const participants = mergeRecipients(env, e.issue);
    mailPullMerged(env, {
      owner: e.owner.name,
      repo: e.repo.name,
      index: e.issue.index,
      title: e.issue.title,
      doer: e.doer,
      // Gitea mails the participants and, after an automatic merge, the user who scheduled it too.
      recipients: e.automerge ? [e.doer, ...participants] : participants,
      baseBranch: e.pull.baseBranch,
      automerge: e.automerge,
    });
  });
}
