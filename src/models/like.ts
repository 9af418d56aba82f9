/** A case-insensitive `LIKE` pattern for a substring search, with `%`, `_` and `\` escaped (use `ESCAPE '\'`). */
export function likePattern(keyword: string): string {
  return `%${keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
