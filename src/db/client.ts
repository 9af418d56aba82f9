import { Database, type SQLQueryBindings, type Statement } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { runMigrations } from "./migrate.ts";
import { commitPending, joinGroup } from "./group-commit.ts";

/**
 * Without the schema: hearth writes its queries with the query builder and never drizzle's
 * relational `db.query`, whose per-table builders drizzle would otherwise make at every open.
 */
export type DB = BunSQLiteDatabase;
/** A drizzle handle or a transaction on it: models take either, so callers decide the transaction. */
export type Tx = Parameters<Parameters<DB["transaction"]>[0]>[0] | DB;

export interface Database_ {
  db: DB;
  sqlite: Database;
  close(): void;
}

/** Distinct statements kept compiled; past that the oldest is dropped (and finalized by the GC). */
const STATEMENT_CACHE_SIZE = 2000;

/**
 * bun:sqlite's Database, compiling each distinct SQL text once: drizzle asks the client to
 * `prepare` every query it runs, and SQLite's compilation was a tenth of the CPU of creating an
 * issue. A statement is shared by every query of the same text; that is safe because drizzle runs
 * each to completion (run, get, all, values) before the next, on this one thread. Bun's own
 * `query()` cache holds only 20 and finalizes what it drops, which a drizzle handle may still hold.
 */
class CachingDatabase extends Database {
  private readonly statements = new Map<string, Statement>();

  override prepare<R, P extends SQLQueryBindings | SQLQueryBindings[]>(text: string, params?: P): Statement<R, P extends any[] ? P : [P]> {
    if (params !== undefined) return super.prepare<R, P>(text, params);
    const hit = this.statements.get(text);
    if (hit) return hit as Statement<R, P extends any[] ? P : [P]>;
    const stmt = super.prepare<R, P>(text);
    if (this.statements.size >= STATEMENT_CACHE_SIZE) this.statements.delete(this.statements.keys().next().value!);
    this.statements.set(text, stmt as Statement);
    return stmt;
  }

  override close(throwOnError?: boolean): void {
    this.statements.clear();
    super.close(throwOnError);
  }
}

/**
 * Opens (creating if needed) the SQLite file with the durability pragmas ARCHITECTURE.md fixes,
 * and applies the embedded migrations before anything else touches it.
 *
 * WAL with synchronous=NORMAL: a commit is written to the WAL file (into the OS page cache) before
 * the statement returns, but not fsynced. A killed process (kill -9, a crash) loses nothing that
 * committed: the pages belong to the kernel, which writes them out, and the next open replays the
 * WAL. A power cut or kernel crash may lose the commits the kernel had not yet written back (those
 * of the last seconds, up to its writeback delay, ~30 s by default; a checkpoint fsyncs the WAL
 * first): always the newest ones, never one in the middle, since the WAL is replayed in order up to
 * its first incomplete frame, and never corrupting the file. FULL fsyncs every commit, 0.3 to 10 ms
 * on this machine, for each of the several commits an issue or comment causes.
 */
export function openDatabase(path: string): Database_ {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new CachingDatabase(path, { create: true, strict: true });
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  sqlite.exec("PRAGMA busy_timeout = 5000");
  // Checkpoints every 4,000 WAL pages (16 MiB) instead of SQLite's 1,000: a page that many writes
  // touch (a table's last leaf, a counter row) is copied back once per checkpoint, and a checkpoint
  // fsyncs twice. ~10% more created issues and comments per second (bench/RESULTS.md, "Writes").
  sqlite.exec("PRAGMA wal_autocheckpoint = 4000");
  runMigrations(sqlite);
  const db = drizzle({ client: sqlite });
  return {
    db,
    sqlite,
    close: () => {
      commitPending(sqlite);
      sqlite.close();
    },
  };
}

/** The bun:sqlite connection under a drizzle handle. */
export function sqliteOf(db: DB): Database {
  return (db as unknown as { $client: Database }).$client;
}

/** bun:sqlite's transaction wrapper of each connection, made once: it nests as a savepoint by itself. */
const runners = new WeakMap<Database, ReturnType<Database["transaction"]>>();

/**
 * Runs `fn` in a `BEGIN IMMEDIATE` transaction: the write lock is taken up front, so no deadlock on
 * upgrade. `fn` gets the database handle itself, not a drizzle transaction object: drizzle builds a
 * query builder for every table of the schema for each transaction it opens, a twentieth of the
 * CPU of creating an issue, and every statement runs on the one connection anyway. Inside another
 * transaction this is a savepoint, as drizzle's nested transactions are; in the server, where writes
 * are group-committed (group-commit.ts), it is a savepoint of the turn's group.
 */
export function writeTx<T>(db: DB, fn: (tx: Tx) => T): T {
  const client = sqliteOf(db);
  let run = runners.get(client);
  if (!run) {
    run = client.transaction((f: (tx: Tx) => unknown, handle: DB) => f(handle));
    runners.set(client, run);
  }
  joinGroup(client);
  return run.immediate(fn, db) as T;
}

/**
 * Runs `fn` inside `tx` under a savepoint: if it throws, its own writes are rolled back and the
 * error rethrown, while the rest of `tx` stands (for side work a change must not fail on).
 */
export function savepoint<T>(tx: Tx, fn: (tx: Tx) => T): T {
  return tx.transaction(fn);
}
