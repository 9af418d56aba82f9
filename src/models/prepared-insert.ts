import { sql, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Tx } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";

/**
 * Inserts `row` into `table` and returns the stored row, through a statement prepared once per
 * set of columns given (db/prepared.ts): building an insert into a wide table (issue, comment) cost
 * drizzle more than SQLite's work. Columns left out or undefined take their defaults, as with
 * `tx.insert(table).values(row)`; `extra` adds SQL values whose parameters are named after `row`'s
 * columns (a placeholder `issueId` binds `row.issueId`).
 */
export function insertReturning<T extends SQLiteTable>(
  tx: Tx,
  table: T,
  name: string,
  row: Record<string, unknown>,
  extra: Record<string, SQL> = {},
): T["$inferSelect"] {
  const keys = Object.keys(row).filter((k) => row[k] !== undefined);
  const key = `insert.${name}:${keys.join(",")}:${Object.keys(extra).join(",")}`;
  const stmt = prepared(tx, key, (t) =>
    t
      .insert(table)
      .values({ ...Object.fromEntries(keys.map((k) => [k, sql.placeholder(k)])), ...extra } as T["$inferInsert"])
      .returning()
      .prepare(),
  );
  const params: Record<string, unknown> = {};
  for (const k of keys) params[k] = row[k];
  return (stmt as { get(p: Record<string, unknown>): T["$inferSelect"] }).get(params);
}
