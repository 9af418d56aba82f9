import { and, asc, eq, inArray } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { emailAddresses, type EmailRow } from "../db/schema/index.ts";

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
