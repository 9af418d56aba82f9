import type { Database } from "bun:sqlite";

/**
 * Group commit for the server's one connection. Most of what a created issue or comment costs is
 * SQLite writing its pages to the WAL at COMMIT: the table and index leaves, the
 * repository's counters, the queue item, pages that the next creation dirties again. With several
 * requests in flight, the writes of all requests handled in one turn of the event loop go into one
 * transaction, committed once at the end of that turn (`setImmediate`): each shared page is written
 * once per group instead of once per request (bench/RESULTS.md, "Writes": about 1.5× the rate at
 * the same CPU).
 *
 * What stays true:
 * - a request's writes are atomic: each `writeTx` runs in its own savepoint of the group, so a
 *   failing one rolls back only itself;
 * - nothing is acknowledged before it is committed: every response waits for the group open when it
 *   was ready (`committed`), so an answered write survives kill -9 exactly as before, and no answer
 *   shows data that a failed commit then drops (such answers become errors);
 * - the database is never left mid-transaction: `commitPending` runs before the connection closes.
 *
 * One-shot commands do not use it: their writes commit as each `writeTx` returns.
 */

interface Group {
  done: Promise<void>;
  resolve(): void;
  reject(err: unknown): void;
}

const enabled = new WeakSet<Database>();
const open = new WeakMap<Database, Group>();

/** From now on, the writes of one event-loop turn on `client` share one transaction. */
export function enableGroupCommit(client: Database): void {
  enabled.add(client);
}

/**
 * Called before a write transaction: opens this turn's group unless one is open (or grouping is
 * off, or the caller is already inside a transaction); the write then nests in it as a savepoint.
 */
export function joinGroup(client: Database): void {
  if (!enabled.has(client) || client.inTransaction) return;
  client.exec("BEGIN IMMEDIATE");
  const { promise, resolve, reject } = Promise.withResolvers<void>();
  // A failed commit is reported to whoever awaits `committed`; with no one waiting it is not an
  // unhandled rejection (the queue worker's own writes, say, are retried from the queue).
  promise.catch(() => {});
  open.set(client, { done: promise, resolve, reject });
  setImmediate(() => commitPending(client));
}

/** Commits the open group now, if any. A failed commit rolls the whole group back and rejects it. */
export function commitPending(client: Database): void {
  const group = open.get(client);
  if (!group) return;
  open.delete(client);
  try {
    // An I/O error inside the group may already have ended the transaction; then nothing of the
    // group is certain to be stored, and it must not be reported as committed.
    if (!client.inTransaction) throw new Error("the transaction was rolled back before its commit");
    client.exec("COMMIT");
    group.resolve();
  } catch (err) {
    if (client.inTransaction) {
      try {
        client.exec("ROLLBACK");
      } catch {
        /* SQLite rolled back by itself */
      }
    }
    group.reject(err);
  }
}

/** Resolves when the group open now is committed (at once if none is open); rejects if it fails. */
export function committed(client: Database): Promise<void> {
  return open.get(client)?.done ?? Promise.resolve();
}
