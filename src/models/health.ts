import { sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";

export function ping(tx: Tx): boolean {
  return tx.get<{ ok: number }>(sql`SELECT 1 AS ok`)?.ok === 1;
}
