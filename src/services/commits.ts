import type { Env } from "./env.ts";
import { sqliteOf } from "../db/client.ts";
import { committed } from "../db/group-commit.ts";

/** Resolves once the writes made so far are committed (db/group-commit.ts); rejects if that commit failed. */
export function writesCommitted(env: Env): Promise<void> {
  return committed(sqliteOf(env.db));
}
