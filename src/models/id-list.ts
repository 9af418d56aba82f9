import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

/**
 * `column IN` a list of ids bound as one JSON array parameter: the SQL text is the same for any
 * number of ids, so one compiled statement serves every page (no new statement per list length, no
 * 32,766-parameter limit). SQLite looks each id up through the column's index.
 */
export function inIdList(column: SQLWrapper, ids: number[]): SQL {
  return sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;
}

/** The same, for a statement prepared once: bind `idsParam(ids)` (or a JSON array under `name`) to the placeholder. */
export function inIdsPlaceholder(column: SQLWrapper, name = "ids"): SQL {
  return sql`${column} IN (SELECT value FROM json_each(${sql.placeholder(name)}))`;
}

export const idsParam = (ids: readonly number[]) => ({ ids: JSON.stringify(ids) });

/** Rows loaded by id, in the order of `ids` (a page's order); ids whose row is gone are left out. */
export function inIdOrder<R extends { id: number }>(ids: readonly number[], rows: R[]): R[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is R => r !== undefined);
}
