import { and, asc, count, eq, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { accessTokens, type AccessTokenRow } from "../db/schema/index.ts";

export function getTokenByHash(tx: Tx, hash: string): AccessTokenRow | undefined {
  return prepared(tx, "token.byHash", (t) =>
    t.select().from(accessTokens).where(eq(accessTokens.tokenHash, sql.placeholder("hash"))).prepare(),
  ).get({ hash });
}

export function listTokens(tx: Tx, uid: number, offset: number, limit: number): { rows: AccessTokenRow[]; total: number } {
  const rows = tx
    .select()
    .from(accessTokens)
    .where(eq(accessTokens.uid, uid))
    .orderBy(asc(accessTokens.id))
    .limit(limit)
    .offset(offset)
    .all();
  const total = tx.select({ n: count() }).from(accessTokens).where(eq(accessTokens.uid, uid)).get()!.n;
  return { rows, total };
}

export function tokenNameExists(tx: Tx, uid: number, name: string): boolean {
  return !!tx
    .select({ id: accessTokens.id })
    .from(accessTokens)
    .where(and(eq(accessTokens.uid, uid), eq(accessTokens.name, name)))
    .get();
}

export function findTokensByName(tx: Tx, uid: number, name: string): AccessTokenRow[] {
  return tx
    .select()
    .from(accessTokens)
    .where(and(eq(accessTokens.uid, uid), eq(accessTokens.name, name)))
    .all();
}

export function insertToken(tx: Tx, row: typeof accessTokens.$inferInsert): AccessTokenRow {
  return tx.insert(accessTokens).values(row).returning().get();
}

/** Deletes only when the token belongs to `uid`: an id never resolves through another user's URL. */
export function deleteToken(tx: Tx, uid: number, id: number): boolean {
  const deleted = tx
    .delete(accessTokens)
    .where(and(eq(accessTokens.uid, uid), eq(accessTokens.id, id)))
    .returning({ id: accessTokens.id })
    .all();
  return deleted.length > 0;
}

export function touchToken(tx: Tx, id: number, unix: number): void {
  tx.update(accessTokens).set({ updatedUnix: unix }).where(eq(accessTokens.id, id)).run();
}

export function deleteAllTokens(tx: Tx, uid: number): void {
  tx.delete(accessTokens).where(eq(accessTokens.uid, uid)).run();
}
