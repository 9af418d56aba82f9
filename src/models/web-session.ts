import { and, eq, lt, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { rememberTokens, webSessions, type RememberTokenRow, type WebSessionRow } from "../db/schema/index.ts";

export function getWebSession(tx: Tx, id: string): WebSessionRow | undefined {
  return prepared(tx, "webSession.byId", (t) =>
    t.select().from(webSessions).where(eq(webSessions.id, sql.placeholder("id"))).prepare(),
  ).get({ id });
}

export function insertWebSession(tx: Tx, row: WebSessionRow): void {
  tx.insert(webSessions).values(row).run();
}

export function updateWebSession(tx: Tx, id: string, set: Partial<Pick<WebSessionRow, "uid" | "data" | "expiresUnix">>): void {
  tx.update(webSessions).set(set).where(eq(webSessions.id, id)).run();
}

export function deleteWebSession(tx: Tx, id: string): void {
  tx.delete(webSessions).where(eq(webSessions.id, id)).run();
}

/** Every session of an account (a password change signs out everywhere else). */
export function deleteUserWebSessions(tx: Tx, uid: number, except?: string): void {
  const mine = eq(webSessions.uid, uid);
  tx.delete(webSessions)
    .where(except === undefined ? mine : and(mine, sql`${webSessions.id} <> ${except}`))
    .run();
}

export function deleteExpiredWebSessions(tx: Tx, now: number): number {
  const gone = tx.delete(webSessions).where(lt(webSessions.expiresUnix, now)).returning({ id: webSessions.id }).all().length;
  tx.delete(rememberTokens).where(lt(rememberTokens.expiresUnix, now)).run();
  return gone;
}

export function getRememberToken(tx: Tx, id: string): RememberTokenRow | undefined {
  return tx.select().from(rememberTokens).where(eq(rememberTokens.id, id)).get();
}

export function insertRememberToken(tx: Tx, row: RememberTokenRow): void {
  tx.insert(rememberTokens).values(row).run();
}

export function deleteRememberToken(tx: Tx, id: string): void {
  tx.delete(rememberTokens).where(eq(rememberTokens.id, id)).run();
}

export function deleteUserRememberTokens(tx: Tx, uid: number): void {
  tx.delete(rememberTokens).where(eq(rememberTokens.uid, uid)).run();
}
