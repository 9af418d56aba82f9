import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

/**
 * `column` contains `keyword`, ignoring ASCII case as SQLite's LIKE does, for substring searches.
 * instr() rather than LIKE: SQLite refuses a LIKE pattern over 50,000 bytes
 * (SQLITE_MAX_LIKE_PATTERN_LENGTH), so a long search keyword failed the whole query; instr takes
 * the keyword literally, with no length cap and nothing to escape.
 */
export function containsText(column: SQLWrapper, keyword: string): SQL {
  return sql`instr(lower(${column}), ${keyword.toLowerCase()}) > 0`;
}
