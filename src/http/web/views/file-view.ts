import { html, trusted, type Html } from "../../../lib/html.ts";
import { fileSize } from "../../../lib/file-size.ts";

// A file of a repository as its page shows it: a table of numbered lines, and the box around it.

/**
 * Numbered lines, each row the target of `#L{n}` (the targeted row is highlighted by the
 * stylesheet, no script). `lines` are HTML already (highlighted or escaped, never raw text).
 * Built as one string per row and one join: a 5,000-line file is 5,000 small strings, no more.
 */
export function codeTable(lines: readonly string[]): Html {
  const rows = new Array<string>(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const n = i + 1;
    rows[i] = `<tr id="L${n}"><td class="ln"><a href="#L${n}">${n}</a></td><td class="code">${lines[i]}</td></tr>`;
  }
  return trusted(
    `<table class="code"><thead class="sr-only"><tr><th scope="col">Line</th><th scope="col">Code</th></tr></thead><tbody>\n${rows.join("\n")}\n</tbody></table>`,
  );
}

/** Gitea's line count: lines of the text, a final newline not starting another. */
export function countLines(text: string): number {
  if (text === "") return 0;
  let n = 1;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return text.endsWith("\n") ? n - 1 : n;
}

export interface FileAction {
  label: string;
  href: string;
  /** This view (the rendered or the source one). */
  current?: boolean;
  download?: boolean;
}

/** The box's head: what the file is (lines, size, a note such as "Stored with Git LFS") and its links. */
export function fileHead(opts: { facts: (string | Html)[]; actions: FileAction[] }): Html {
  const facts = opts.facts.filter((f) => f !== "");
  return html`<header class="file-head"><div class="file-facts">${facts.map(
    (f, i) => html`${i > 0 ? html`<span class="dot" aria-hidden="true">·</span>` : ""}<span>${f}</span>`,
  )}</div>
<nav class="file-actions" aria-label="File">${opts.actions.map(
    (a) =>
      html`<a class="button small" href="${a.href}"${a.current ? html` aria-current="page"` : ""}${a.download ? html` download` : ""}>${a.label}</a>`,
  )}</nav></header>`;
}

/** "12 lines · 1.2 KiB" (the line count only for text). */
export function sizeFacts(size: number, lines?: number): string[] {
  const out: string[] = [];
  if (lines !== undefined) out.push(`${lines} line${lines === 1 ? "" : "s"}`);
  out.push(fileSize(size));
  return out;
}
