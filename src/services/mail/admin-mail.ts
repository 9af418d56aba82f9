import type { Env } from "../env.ts";
import type { MailMessage } from "../../mail/message.ts";
import { adminListUsers } from "../user/profile.ts";
import { mailableRecipients } from "./issue-mail.ts";
import { sendMailNow } from "./deliver.ts";

const PAGE = 500;

/**
 * Gitea's `admin sendmail`: one message to every active user with an address, the content taken
 * as the HTML body as Gitea does (the administrator writes it). Gitea hands the messages to the
 * running server's queue; this runs in the admin command's own process, which no queue worker
 * serves, so it delivers them itself and resolves once each is delivered or given up on.
 * Returns how many were delivered (failures are logged). Throws when the mailer is off, as Gitea
 * answers "Mail service is not enabled.".
 */
export async function mailAllUsers(env: Env, subject: string, content: string): Promise<number> {
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
  return sendMailNow(env, messages);
}
