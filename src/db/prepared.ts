import type { Tx } from "./client.ts";

/**
 * drizzle builds a query's SQL anew on every call, which costs ~200 µs for a wide table: more than
 * the SQLite work itself. Hot lookups are prepared once per connection and then only bound: a
 * transaction's handle runs on its database's session (drizzle's bun-sqlite transactions share it),
 * so a statement prepared inside one transaction serves every later one and the root handle too.
 */
const cache = new WeakMap<object, Map<string, unknown>>();

export function prepared<T>(tx: Tx, key: string, build: (tx: Tx) => T): T {
  const session = (tx as unknown as { session?: object }).session ?? tx;
  let byKey = cache.get(session);
  if (!byKey) cache.set(session, (byKey = new Map()));
  let stmt = byKey.get(key) as T | undefined;
  if (stmt === undefined) byKey.set(key, (stmt = build(tx)));
  return stmt;
}
