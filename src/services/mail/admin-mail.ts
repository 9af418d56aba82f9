import type { Env } from "../env.ts";
import type { MailMessage } from "../../mail/message.ts";
import { adminListUsers } from "../user/profile.ts";
import { mailableRecipients } from "./issue-mail.ts";
import { queueMail } from "./outbox.ts";

const PAGE = 500;

/**
 * Gitea's `admin sendmail`: one message to every active user with an address, the content taken
 * as the HTML body as Gitea does (the administrator writes it). Returns how many were queued.
 * Throws when the mailer is off, as Gitea answers "Mail service is not enabled.".
 */
export function mailAllUsers(env: Env, subject: string, content: string): number {
  if (!env.settings.mailer.enabled) throw new Error("mail service is not enabled ([mailer] ENABLED = false)");
  // Gitea derives the plain-text part from the HTML; for an administrator's message dropping the tags is enough.
  const text = content.replace(/<[^>]*>/g, "");
  const messages: MailMessage[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const { rows } = adminListUsers(env, { isActive: true, sort: "id", offset, limit: PAGE });
    for (const user of mailableRecipients(rows)) {
      messages.push({ to: user.email, subject, html: content, text, info: `admin sendmail to user ${user.id}` });
    }
    if (rows.length < PAGE) break;
  }
  return queueMail(env, messages);
}
