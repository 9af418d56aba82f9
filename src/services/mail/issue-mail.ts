import type { Env } from "../env.ts";
import { UserType, type UserRow } from "../../db/schema/index.ts";
import { escapeHtml } from "../../mail/message.ts";

/** The user fields issue mail reads. */
export type MailUser = Pick<UserRow, "id" | "name" | "fullName" | "email" | "isActive" | "prohibitLogin" | "type">;

/** The issue or pull request a mail is about, with the repository it lives in. */
export interface MailIssue {
  owner: string;
  repo: string;
  index: number;
  title: string;
  isPull: boolean;
}

/** Gitea's subjects are capped (RFC 5322 has no limit, mail clients do). */
const MAX_SUBJECT_CHARS = 256;

/** Gitea's User.DisplayName: the full name when set, else the user name. */
export function displayName(user: Pick<UserRow, "name" | "fullName">): string {
  return user.fullName.trim() || user.name;
}

/**
 * Who may be mailed, as Gitea: individuals with an address whose account is active and allowed
 * to sign in, each once. hearth has no per-user mail preference yet (Gitea's
 * email_notifications_preference); when it does, it belongs here.
 */
export function mailableRecipients<T extends MailUser>(recipients: readonly T[]): T[] {
  const seen = new Set<number>();
  return recipients.filter((u) => {
    if (seen.has(u.id) || u.type !== UserType.Individual || !u.isActive || u.prohibitLogin || !u.email) return false;
    seen.add(u.id);
    return true;
  });
}

/** Gitea's fallback subject (its default template has none): `[owner/repo] title (#N)`, "Re: " for follow-ups. */
export function issueSubject(issue: MailIssue, reply: boolean): string {
  const subject = `${reply ? "Re: " : ""}[${issue.owner}/${issue.repo}] ${issue.title} (#${issue.index})`;
  return [...subject.replace(/\s+/g, " ").trim()].slice(0, MAX_SUBJECT_CHARS).join("");
}

export function repoLink(env: Env, issue: MailIssue): string {
  return `${env.settings.server.rootUrl}${encodeURIComponent(issue.owner)}/${encodeURIComponent(issue.repo)}`;
}

export function issueLink(env: Env, issue: MailIssue): string {
  return `${repoLink(env, issue)}/${issue.isPull ? "pulls" : "issues"}/${issue.index}`;
}

/**
 * Gitea's Message-ID of an issue thread, `<owner/repo/issues|pulls/N{extra}@DOMAIN>`: the thread's
 * own id without `extra`, which every later mail names in In-Reply-To and References.
 */
export function issueMessageId(env: Env, issue: MailIssue, extra = ""): string {
  return `<${issue.owner}/${issue.repo}/${issue.isPull ? "pulls" : "issues"}/${issue.index}${extra}@${env.settings.server.domain}>`;
}

/**
 * The headers Gitea puts on issue mail (services/mailer/mail.go generateAdditionalHeaders), with
 * GitHub's and GitLab's names beside its own so that existing mail filters keep working.
 */
export function issueHeaders(env: Env, issue: MailIssue, reason: string, doer: MailUser, recipient: MailUser): Record<string, string> {
  const repo = repoLink(env, issue);
  const fullName = `${issue.owner}/${issue.repo}`;
  const index = String(issue.index);
  return {
    "List-ID": `${fullName} <${issue.repo}.${issue.owner}.${env.settings.server.domain}>`,
    "List-Archive": `<${repo}>`,
    "List-Unsubscribe": `<${issueLink(env, issue)}>`,
    "X-Mailer": env.settings.appName,
    "X-Gitea-Reason": reason,
    "X-Gitea-Sender": doer.name,
    "X-Gitea-Recipient": recipient.name,
    "X-Gitea-Recipient-Address": recipient.email,
    "X-Gitea-Repository": issue.repo,
    "X-Gitea-Repository-Path": fullName,
    "X-Gitea-Repository-Link": repo,
    "X-Gitea-Issue-ID": index,
    "X-Gitea-Issue-Link": issueLink(env, issue),
    "X-GitHub-Reason": reason,
    "X-GitHub-Sender": doer.name,
    "X-GitHub-Recipient": recipient.name,
    "X-GitHub-Recipient-Address": recipient.email,
    "X-GitLab-NotificationReason": reason,
    "X-GitLab-Project": issue.repo,
    "X-GitLab-Project-Path": fullName,
    "X-GitLab-Issue-IID": index,
  };
}

/** Gitea's templates/mail/repo/issue/default.tmpl around one action line (already HTML). */
export function issueMailHtml(env: Env, subject: string, actionHtml: string, link: string): string {
  return `<!DOCTYPE html>
<html>
<head>
	<meta http-equiv="Content-Type" content="text/html; charset=utf-8">
	<title>${escapeHtml(subject)}</title>
</head>
<body>
	<p>${actionHtml}</p>
	<div style="font-size:small; color:#666;">
		<p>
			---
			<br>
			<a href="${escapeHtml(link)}">View it on ${escapeHtml(env.settings.appName)}</a>.
		</p>
	</div>
</body>
</html>
`;
}

/** The plain-text part beside the HTML one (and the only part with `[mailer] SEND_AS_PLAIN_TEXT`). */
export function issueMailText(env: Env, actionText: string, link: string): string {
  return `${actionText}\n\n---\nView it on ${env.settings.appName}: ${link}\n`;
}
