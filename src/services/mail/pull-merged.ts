import type { Env } from "../env.ts";
import type { MailMessage } from "../../mail/message.ts";
import { escapeHtml } from "../../mail/message.ts";
import { queueMail } from "./outbox.ts";
import {
  displayName,
  issueHeaders,
  issueLink,
  issueMailHtml,
  issueMailText,
  issueMessageId,
  issueSubject,
  mailableRecipients,
  type MailUser,
} from "./issue-mail.ts";

export interface PullMergedMail {
  /** Owner and repository names as shown (the base repository of the pull request). */
  owner: string;
  repo: string;
  /** The pull request's issue index and title. */
  index: number;
  title: string;
  /** Who merged it; for an automatic merge, the user who scheduled it. */
  doer: MailUser;
  /**
   * Who to tell (Gitea: the pull request's participants and watchers); filtered here to those
   * who may be mailed. The doer is left out, as Gitea does, unless `automerge` is set.
   */
  recipients: readonly MailUser[];
  baseBranch: string;
  /**
   * The merge happened on its own once checks succeeded ("merge when checks succeed"): the
   * user who scheduled it is told too (Gitea's ActionAutoMergePullRequest forces the doer's
   * notification).
   */
  automerge?: boolean;
}

/**
 * Mails the merge of a pull request, one message per recipient, as Gitea's mail notifier does for
 * MergePullRequest/AutoMergePullRequest: subject `Re: [owner/repo] title (#N)`, body "@doer merged
 * #N into base." with a link, threaded under the pull request. Queues only; never throws for a
 * mail problem and never waits for the mail server. Returns how many messages were queued (0 when
 * `[mailer] ENABLED` or `[service] ENABLE_NOTIFY_MAIL` is off).
 */
export function mailPullMerged(env: Env, merged: PullMergedMail): number {
  if (!env.settings.mailer.enabled || !env.settings.service.enableNotifyMail) return 0;
  const recipients = mailableRecipients(merged.recipients).filter((u) => merged.automerge || u.id !== merged.doer.id);
  if (recipients.length === 0) return 0;

  const issue = { owner: merged.owner, repo: merged.repo, index: merged.index, title: merged.title, isPull: true };
  const subject = issueSubject(issue, true);
  const link = issueLink(env, issue);
  const html = issueMailHtml(
    env,
    subject,
    `<b>@${escapeHtml(merged.doer.name)}</b> merged #${merged.index} into ${escapeHtml(merged.baseBranch)}.`,
    link,
  );
  const text = issueMailText(env, `@${merged.doer.name} merged #${merged.index} into ${merged.baseBranch}.`, link);
  // One id for the event, shared by every recipient's copy; the thread is the pull request's own id.
  const messageId = issueMessageId(env, issue, `/merge/${Date.now()}`);
  const thread = issueMessageId(env, issue);

  const messages: MailMessage[] = recipients.map((recipient) => ({
    to: recipient.email,
    fromName: displayName(merged.doer),
    subject,
    html,
    text,
    messageId,
    inReplyTo: thread,
    references: [thread],
    headers: issueHeaders(env, issue, "pull", merged.doer, recipient),
    info: `pull request ${merged.owner}/${merged.repo}#${merged.index} merged, to user ${recipient.id}`,
  }));
  return queueMail(env, messages);
}
