import type { Tx } from "./client.ts";

/**
 * drizzle builds a query's SQL anew on every call, which costs ~200 µs for a wide table: more than
 * the SQLite work itself. Hot lookups are prepared once per handle (the root database lives as long
 * as the process; a transaction's handle, and its statements, die with it) and then only bound.
 */
const cache = new WeakMap<object, Map<string, unknown>>();

export function prepared<T>(tx: Tx, key: string, build: (tx: Tx) => T): T {
  let byKey = cache.get(tx);
  if (!byKey) cache.set(tx, (byKey = new Map()));
  let stmt = byKey.get(key) as T | undefined;
  if (stmt === undefined) byKey.set(key, (stmt = build(tx)));
  return stmt;
}
