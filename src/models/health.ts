import { sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";

/** A round trip to SQLite (drizzle's raw `get` yields the row as an array of values). */
export function ping(tx: Tx): boolean {
  const row = tx.get<unknown[]>(sql`SELECT 1`);
  return Array.isArray(row) && row[0] === 1;
}
