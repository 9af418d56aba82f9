import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

/**
 * `column IN` a list of ids bound as one JSON array parameter: the SQL text is the same for any
 * number of ids, so one compiled statement serves every page (no new statement per list length, no
 * 32,766-parameter limit). SQLite looks each id up through the column's index.
 */
export function inIdList(column: SQLWrapper, ids: number[]): SQL {
  return sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;
}

/** The same, for a statement prepared once: bind `idsParam(ids)` to the placeholder `ids`. */
export function inIdsPlaceholder(column: SQLWrapper): SQL {
  return sql`${column} IN (SELECT value FROM json_each(${sql.placeholder("ids")}))`;
}

export const idsParam = (ids: readonly number[]) => ({ ids: JSON.stringify(ids) });
