import { and, asc, count, desc, eq, inArray, or } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { emailAddresses, users, UserType, type EmailRow } from "../db/schema/index.ts";
import { containsText } from "./like.ts";

export function listEmails(tx: Tx, uid: number): EmailRow[] {
  return tx
    .select()
    .from(emailAddresses)
    .where(eq(emailAddresses.uid, uid))
    .orderBy(asc(emailAddresses.id))
    .all();
}

export function getEmail(tx: Tx, email: string): EmailRow | undefined {
  return tx.select().from(emailAddresses).where(eq(emailAddresses.lowerEmail, email.toLowerCase())).get();
}

export function insertEmail(tx: Tx, uid: number, email: string, isPrimary: boolean, isActivated = true): EmailRow {
  return tx
    .insert(emailAddresses)
    .values({ uid, email, lowerEmail: email.toLowerCase(), isPrimary, isActivated })
    .returning()
    .get();
}

export function deleteEmails(tx: Tx, uid: number, lowerEmails: string[]): number {
  if (lowerEmails.length === 0) return 0;
  return tx
    .delete(emailAddresses)
    .where(and(eq(emailAddresses.uid, uid), inArray(emailAddresses.lowerEmail, lowerEmails)))
    .returning({ id: emailAddresses.id })
    .all().length;
}

/** Makes `email` the user's only primary address (the user row's email is updated by the caller). */
export function setPrimaryEmail(tx: Tx, uid: number, email: string): void {
  tx.update(emailAddresses).set({ isPrimary: false }).where(eq(emailAddresses.uid, uid)).run();
  tx.update(emailAddresses)
    .set({ isPrimary: true })
    .where(and(eq(emailAddresses.uid, uid), eq(emailAddresses.lowerEmail, email.toLowerCase())))
    .run();
}

/** An address with the name of the account holding it, as Gitea's SearchEmailResult. */
export interface EmailWithOwner {
  email: EmailRow;
  username: string;
}

/**
 * Gitea's SearchEmails: every address of an individual account, or those whose address, account
 * name or full name contains `keyword` (case-insensitively, wildcards literal), ordered by
 * address, primary first, then by id.
 */
export function searchEmails(tx: Tx, keyword: string, offset: number, limit: number): { rows: EmailWithOwner[]; total: number } {
  const conds = [eq(users.type, UserType.Individual)];
  if (keyword) {
    conds.push(or(containsText(users.fullName, keyword), containsText(users.lowerName, keyword), containsText(emailAddresses.lowerEmail, keyword))!);
  }
  const where = and(...conds);
  const rows = tx
    .select({ email: emailAddresses, username: users.name })
    .from(emailAddresses)
    .innerJoin(users, eq(users.id, emailAddresses.uid))
    .where(where)
    .orderBy(asc(emailAddresses.lowerEmail), desc(emailAddresses.isPrimary), asc(emailAddresses.id))
    .limit(limit)
    .offset(offset)
    .all();
  const total = tx.select({ n: count() }).from(emailAddresses).innerJoin(users, eq(users.id, emailAddresses.uid)).where(where).get()!.n;
  return { rows, total };
}
