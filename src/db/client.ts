import { Database } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { sql } from "drizzle-orm";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import * as schema from "./schema/index.ts";
import { runMigrations } from "./migrate.ts";

export type DB = BunSQLiteDatabase<typeof schema>;
/** A drizzle handle or a transaction on it: models take either, so callers decide the transaction. */
export type Tx = Parameters<Parameters<DB["transaction"]>[0]>[0] | DB;

export interface Database_ {
  db: DB;
  sqlite: Database;
  close(): void;
}

/**
 * Opens (creating if needed) the SQLite file with the durability pragmas ARCHITECTURE.md fixes,
 * and applies the embedded migrations before anything else touches it.
 */
export function openDatabase(path: string): Database_ {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path, { create: true, strict: true });
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = FULL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  sqlite.exec("PRAGMA busy_timeout = 5000");
  runMigrations(sqlite);
  const db = drizzle({ client: sqlite, schema });
  return { db, sqlite, close: () => sqlite.close() };
}

/** Runs `fn` in a `BEGIN IMMEDIATE` transaction: the write lock is taken up front, so no deadlock on upgrade. */
export function writeTx<T>(db: DB, fn: (tx: Tx) => T): T {
  return db.transaction(fn, { behavior: "immediate" });
}

/**
 * Runs `fn` inside `tx` under a savepoint: if it throws, its own writes are rolled back and the
 * error rethrown, while the rest of `tx` stands (for side work a change must not fail on).
 */
export function savepoint<T>(tx: Tx, fn: (tx: Tx) => T): T {
  return tx.transaction(fn);
}

/**
 * Runs `fn` (one statement in autocommit, or its own transaction) with commits that skip the fsync
 * of synchronous=FULL (2 ms here): for bookkeeping whose loss in a power cut is harmless and only
 * repeats work, such as a work queue's lease or a finished run's record (the run would simply
 * happen again). The write-ahead log keeps such commits in order and the next FULL commit makes
 * them durable. Never for anything a user was told is saved.
 */
export function relaxedSync<T>(db: DB, fn: () => T): T {
  db.run(sql`PRAGMA synchronous = NORMAL`);
  try {
    return fn();
  } finally {
    db.run(sql`PRAGMA synchronous = FULL`);
  }
}
