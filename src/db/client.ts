import { Database, type Statement } from "bun:sqlite";
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
  const db = drizzle({ client: withStatementCache(sqlite), schema });
  return { db, sqlite, close: () => sqlite.close() };
}

/**
 * drizzle compiles every query with `prepare`, and SQLite's compile step costs more than running a
 * simple indexed query (measured in bench/lists.ts). The handle drizzle gets keeps the most recently
 * used statements by SQL text instead; drizzle binds fresh parameters on every call, and every call
 * runs to completion synchronously, so one statement can serve all callers. An evicted statement is
 * only dropped, never finalized: a long-lived prepared query (db/prepared.ts) may still hold it.
 */
function withStatementCache(sqlite: Database, capacity = 512): Database {
  const cache = new Map<string, Statement>();
  const prepare = (source: string): Statement => {
    let stmt = cache.get(source);
    if (stmt) {
      cache.delete(source);
    } else {
      stmt = sqlite.prepare(source);
      if (cache.size >= capacity) cache.delete(cache.keys().next().value!);
    }
    cache.set(source, stmt);
    return stmt;
  };
  return new Proxy(sqlite, {
    get(target, prop) {
      if (prop === "prepare") return prepare;
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
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
