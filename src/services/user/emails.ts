import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import type { EmailRow, UserRow } from "../../db/schema/index.ts";
import * as emails from "../../models/email.ts";
import { Invalid, NotFound } from "../../lib/errors.ts";
import { emailProblem } from "./names.ts";

export function listEmails(env: Env, user: UserRow): EmailRow[] {
  return emails.listEmails(env.db, user.id);
}

/**
 * Adds addresses (not primary, activated: hearth sends no confirmation mail) and returns the full
 * list. All or nothing: one bad or taken address leaves the list as it was.
 */
export function addEmails(env: Env, user: UserRow, addresses: readonly string[]): EmailRow[] {
  if (addresses.length === 0) throw new Invalid("Email list empty");
  return writeTx(env.db, (tx) => {
    for (const address of addresses) {
      if (emailProblem(address)) throw new Invalid(`Email address ${JSON.stringify(address)} invalid`);
      if (emails.getEmail(tx, address)) throw new Invalid(`Email address has been used: ${address}`);
      emails.insertEmail(tx, user.id, address, false);
    }
    return emails.listEmails(tx, user.id);
  });
}

/** Removes addresses; the primary one cannot go (Gitea answers 500 there, we answer 422). All or nothing. */
export function deleteEmails(env: Env, user: UserRow, addresses: readonly string[]): void {
  writeTx(env.db, (tx) => {
    const owned = new Map(emails.listEmails(tx, user.id).map((e) => [e.lowerEmail, e]));
    const lowers: string[] = [];
    for (const address of addresses) {
      const row = owned.get(address.toLowerCase());
      if (!row) throw new NotFound(`Email address does not exist [email: ${address}]`);
      if (row.isPrimary) throw new Invalid(`Primary email address cannot be deleted [email: ${address}]`);
      lowers.push(row.lowerEmail);
    }
    emails.deleteEmails(tx, user.id, lowers);
  });
}

/** GET /admin/emails[/search]: Gitea's SearchEmails over every individual account. */
export function searchAllEmails(env: Env, keyword: string, page: { offset: number; limit: number }) {
  return emails.searchEmails(env.db, keyword, page.offset, page.limit);
}
