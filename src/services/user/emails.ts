import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import type { EmailRow, UserRow } from "../../db/schema/index.ts";
import * as emails from "../../models/email.ts";
import * as users from "../../models/user.ts";
import { nowUnix } from "../../lib/time.ts";
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

/** One of the user's own addresses by its id (Gitea's GetEmailAddressByID); another user's id is not found. */
function ownEmailById(env: Env, user: UserRow, id: number): EmailRow {
  const row = emails.listEmails(env.db, user.id).find((e) => e.id === id);
  if (!row) throw new NotFound(`Email address does not exist [id: ${id}]`);
  return row;
}

/** The web's "Remove" of one address, named by id; the primary one cannot go. */
export function deleteEmailById(env: Env, user: UserRow, id: number): EmailRow {
  const row = ownEmailById(env, user, id);
  deleteEmails(env, user, [row.email]);
  return row;
}

/**
 * Gitea's MakeActiveEmailPrimary: an activated address of the user becomes the primary one, and
 * the account's own email with it (notifications, the commit identity of web edits).
 */
export function makePrimaryEmail(env: Env, user: UserRow, id: number): UserRow {
  const row = ownEmailById(env, user, id);
  if (!row.isActivated) throw new Invalid(`Email address is not activated [email: ${row.email}]`);
  return writeTx(env.db, (tx) => {
    emails.setPrimaryEmail(tx, user.id, row.email);
    const updated = users.updateUser(tx, user.id, { email: row.email.toLowerCase(), updatedUnix: nowUnix() });
    if (!updated) throw new NotFound();
    return updated;
  });
}

/** GET /admin/emails[/search]: Gitea's SearchEmails over every individual account. */
export function searchAllEmails(env: Env, keyword: string, page: { offset: number; limit: number }) {
  return emails.searchEmails(env.db, keyword, page.offset, page.limit);
}
