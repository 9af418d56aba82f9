/**
 * Source files as highlighted lines for the file view and diffs: one HTML string per line of the
 * text, safe to put in a table cell. The language comes from the file's name (services/markup/
 * hljs.ts), never from guessing at the text; an unknown one, or a file too big to be worth it,
 * comes out as escaped plain text.
 *
 * highlight.js marks up the whole text at once, and a comment or a string may span lines: its
 * `<span>` is closed at the end of each line and opened again at the start of the next, so every
 * line stands alone. Results are kept by a key the caller gives (a blob's id), so showing the same
 * file again costs a lookup.
 */
import { escapeHtml } from "./escape.ts";
import { highlightAs, languageForFile } from "./hljs.ts";
import { Lru } from "../../lib/lru.ts";

/** Above this many characters a file is shown plain, as Gitea's highlighter stops at 1 MiB. */
export const HIGHLIGHT_MAX_CHARS = 1024 * 1024;

/** Highlighted files by key and language: up to 64 of them and 8 million characters of HTML. */
const cache = new Lru<readonly string[]>(64, 8 * 1024 * 1024);

/**
 * The lines of `text` as HTML, highlighted for `fileName`'s language. `cacheKey` (a blob id)
 * names the text: the same key with the same language answers from the cache. A final newline
 * does not make an empty last line; `\r\n` ends a line like `\n`.
 */
export function highlightLines(fileName: string, text: string, cacheKey?: string): readonly string[] {
  const language = text.length <= HIGHLIGHT_MAX_CHARS ? languageForFile(fileName) : undefined;
  const key = cacheKey === undefined ? undefined : `${cacheKey}\0${language ?? ""}`;
  const hit = key === undefined ? undefined : cache.get(key);
  if (hit) return hit;
  if (text === "") return [];
  const source = text.includes("\r") ? text.replace(/\r\n/g, "\n") : text;
  const body = source.endsWith("\n") ? source.slice(0, -1) : source;
  const lines = language ? splitHighlighted(highlightAs(language, body)) : body.split("\n").map(escapeHtml);
  if (key !== undefined) cache.set(key, lines, lines.reduce((n, line) => n + line.length + 16, 0));
  return lines;
}

/** Forgets every highlighted file (tests). */
export function clearHighlightCache(): void {
  cache.clear();
}

const TAG = /<span[^>]*>|<\/span>|\n/g;

/**
 * highlight.js's HTML cut at its newlines: the spans open at a line's end are closed there and
 * opened again, in the same order, at the start of the next line.
 */
export function splitHighlighted(html: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let line = "";
  let from = 0;
  for (const m of html.matchAll(TAG)) {
    line += html.slice(from, m.index);
    from = m.index + m[0].length;
    const tag = m[0];
    if (tag === "\n") {
      lines.push(line + "</span>".repeat(open.length));
      line = open.join("");
    } else if (tag === "</span>") {
      open.pop();
      line += tag;
    } else {
      open.push(tag);
      line += tag;
    }
  }
  lines.push(line + html.slice(from));
  return lines;
}
