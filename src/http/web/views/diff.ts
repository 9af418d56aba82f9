/**
 * A page of a diff (services/repo/diff-view.ts) as HTML: the summary, the list of every changed
 * file (linking each to its page and box), the pages, and the files of this page as unified diff
 * tables (old and new line numbers, a +/- column so nothing is told by colour alone, hunk
 * headers), highlighted by file name when the page is small enough for it to be quick.
 */
import type { DiffPage, PlannedFile, ShownFile } from "../../../services/repo/diff-view.ts";
import type { DiffFile, DiffLine } from "../../../lib/unified-diff.ts";
import { highlightLines } from "../../../services/markup/highlight.ts";
import { html, trusted, type Html } from "../../../lib/html.ts";
import { escapePath } from "./repo-header.ts";
import { pager } from "./pager.ts";

/**
 * Above this many lines on a page, the page is shown plain: highlight.js takes about 40-90 ms per
 * thousand lines here, which a page of a hundred files must not spend (its budget is 200 ms).
 */
const HIGHLIGHT_MAX_LINES = 800;
/** The file list shows every file up to this many; past it, the pages with their first and last file. */
const INDEX_MAX_FILES = 500;

export interface DiffLinks {
  /** `/{owner}/{repo}` of this site, escaped. */
  repo: string;
  /** The commit a file's old side is read at (the empty tree of a root commit has none). */
  oldCommit: string | undefined;
  /** The commit a file's new side is read at. */
  newCommit: string;
}

const STATUS: Record<string, string> = { A: "Added", D: "Deleted", M: "Modified", R: "Renamed", C: "Copied", T: "Type changed" };

/** `?page=n` of the current URL, other parameters kept; page 1 without it. */
function pageHref(url: URL, page: number): string {
  const q = new URLSearchParams(url.search);
  if (page <= 1) q.delete("page");
  else q.set("page", String(page));
  const s = q.toString();
  return s ? `?${s}` : url.pathname;
}

const fileHref = (url: URL, current: number, f: PlannedFile) => (f.page === current ? `#${f.anchor}` : `${pageHref(url, f.page)}#${f.anchor}`);

function counts(additions: number, deletions: number): Html {
  return html`<span class="diff-counts"><span class="plus">+${additions}</span> <span class="minus">−${deletions}</span><span class="sr-only"> (${additions} added, ${deletions} removed lines)</span></span>`;
}

function fileName(f: { path: string; oldPath?: string }): Html {
  return f.oldPath && f.oldPath !== f.path ? html`${f.oldPath} → ${f.path}` : html`${f.path}`;
}

/** "3 changed files with 10 additions and 2 deletions". */
export function diffSummary(d: DiffPage): Html {
  const n = d.files.length;
  return html`${n} changed file${n === 1 ? "" : "s"} with ${d.additions} addition${d.additions === 1 ? "" : "s"} and ${d.deletions} deletion${
    d.deletions === 1 ? "" : "s"
  }`;
}

/** Every changed file (or, for very many, every page's range), each linked to its box on its page. */
export function diffIndex(url: URL, d: DiffPage): Html {
  if (d.files.length === 0) return html``;
  const item = (f: PlannedFile) =>
    html`<li><span class="diff-status" title="${STATUS[f.status] ?? f.status}">${f.status}</span> <a href="${fileHref(url, d.page, f)}">${fileName(f)}</a> ${counts(f.additions, f.deletions)}</li>`;
  let body: Html;
  if (d.files.length <= INDEX_MAX_FILES) body = html`<ol class="diff-index-files">${d.files.map(item)}</ol>`;
  else {
    const pages: Html[] = [];
    for (let p = 1; p <= d.pageCount; p++) {
      const on = d.files.filter((f) => f.page === p);
      const first = on[0]!;
      const last = on[on.length - 1]!;
      pages.push(
        p === d.page
          ? html`<li aria-current="page"><strong>Page ${p}</strong> (${on.length} files, this page)<ol class="diff-index-files">${on.map(item)}</ol></li>`
          : html`<li><a href="${pageHref(url, p)}">Page ${p}</a>: ${first.path} … ${last.path} (${on.length} files)</li>`,
      );
    }
    body = html`<ol class="diff-index-pages">${pages}</ol>`;
  }
  return html`<details class="diff-index box"${d.files.length <= 50 ? html` open` : ""}><summary>${diffSummary(d)}</summary>${body}</details>`;
}

/** The links to the pages of a diff, when there is more than one. */
export function diffPager(url: URL, d: DiffPage): Html {
  return pager(url, d.page, 1, d.pageCount);
}

interface Painted {
  old: readonly string[];
  new: readonly string[];
}

/**
 * Highlights a file's shown lines by its name: the old side's lines (context and removed) and the
 * new side's (context and added) each as one text, so strings and comments spanning lines come
 * out right within a hunk.
 */
function paint(file: DiffFile, path: string): Painted | undefined {
  const oldSide: string[] = [];
  const newSide: string[] = [];
  for (const h of file.hunks)
    for (const l of h.lines) {
      if (l.kind !== "add") oldSide.push(l.text);
      if (l.kind !== "del") newSide.push(l.text);
    }
  const oldLines = highlightLines(path, oldSide.join("\n") + "\n");
  const newLines = highlightLines(path, newSide.join("\n") + "\n");
  if (oldLines.length !== oldSide.length || newLines.length !== newSide.length) return undefined;
  return { old: oldLines, new: newLines };
}

const SIGN = { add: "+", del: "−", ctx: "" } as const;
const LABEL = { add: "added", del: "removed", ctx: "" } as const;

function table(f: PlannedFile, file: DiffFile, highlight: boolean): Html {
  const painted = highlight ? paint(file, f.path) : undefined;
  let oi = 0;
  let ni = 0;
  const code = (l: DiffLine): Html => {
    let text: Html | string = l.text;
    if (painted) {
      const h = l.kind === "add" ? painted.new[ni] : painted.old[oi];
      if (h !== undefined) text = trusted(h);
    }
    if (l.kind !== "add") oi++;
    if (l.kind !== "del") ni++;
    return html`${text}${l.cut ? html`<span class="line-cut" title="This line is cut">…</span>` : ""}${
      l.noNewline ? html`<span class="no-eol" title="No newline at end of file">⏎̸</span>` : ""
    }`;
  };
  const rows: Html[] = [];
  for (const h of file.hunks) {
    rows.push(
      html`<tr class="hunk"><td class="ln" colspan="3"></td><td class="code">@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@${h.section ? ` ${h.section}` : ""}</td></tr>`,
    );
    for (const l of h.lines) {
      rows.push(
        html`<tr${l.kind === "ctx" ? "" : html` class="${l.kind}"`}><td class="ln">${l.oldNo ?? ""}</td><td class="ln">${l.newNo ?? ""}</td><td class="sign">${
          SIGN[l.kind]
        }${l.kind === "ctx" ? "" : html`<span class="sr-only">${LABEL[l.kind]}</span>`}</td><td class="code">${code(l)}</td></tr>`,
      );
    }
  }
  return html`<div class="file-view"><table class="code diff"><caption class="sr-only">Changes to ${f.path}</caption>
<thead><tr><th scope="col">Old line</th><th scope="col">New line</th><th scope="col">Change</th><th scope="col">Code</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

function modeNote(file: DiffFile | undefined): string {
  if (!file?.oldMode || !file.newMode || file.oldMode === file.newMode) return "";
  return `mode ${file.oldMode} → ${file.newMode}`;
}

function fileBox(links: DiffLinks, shown: ShownFile, highlight: boolean): Html {
  const { file: f, diff } = shown;
  const deleted = f.status === "D";
  const at = deleted ? links.oldCommit : links.newCommit;
  const path = deleted ? (f.oldPath ?? f.path) : f.path;
  const view = at ? `${links.repo}/src/commit/${at}/${escapePath(path)}` : undefined;
  const raw = at ? `${links.repo}/raw/commit/${at}/${escapePath(path)}` : undefined;
  const badges = [
    f.status !== "M" ? html`<span class="tag">${STATUS[f.status] ?? f.status}${f.status === "R" && diff?.similarity !== undefined ? ` ${diff.similarity}%` : ""}</span>` : "",
    diff?.binary ? html`<span class="tag">Binary</span>` : "",
    modeNote(diff) ? html`<span class="tag">${modeNote(diff)}</span>` : "",
  ];
  let body: Html;
  if (!diff) body = html`<p class="diff-note">This page's diff is too large to show this file. ${view ? html`<a href="${view}">View the file</a>.` : ""}</p>`;
  else if (diff.binary) body = html`<p class="diff-note">Binary file not shown.${raw ? html` <a href="${raw}">Download it</a>.` : ""}</p>`;
  else if (diff.hunks.length === 0)
    body = html`<p class="diff-note">${f.status === "R" ? "File renamed without changes." : modeNote(diff) ? "Only the file mode changed." : "No changes to show."}</p>`;
  else
    body = html`${table(f, diff, highlight)}${
      diff.cut ? html`<p class="diff-note">This diff is cut after ${diff.lineCount} lines.${view ? html` <a href="${view}">View the whole file</a>` : ""}${raw ? html` or <a href="${raw}">download it</a>` : ""}.</p>` : ""
    }`;
  return html`<section class="diff-file box" id="${f.anchor}" aria-labelledby="${f.anchor}-name">
<header class="box-header"><h3 id="${f.anchor}-name" class="diff-name">${fileName(f)}</h3>${badges}${counts(f.additions, f.deletions)}${
    view ? html`<a class="diff-view-file" href="${view}">View file</a>` : ""
  }</header>
${body}
</section>`;
}

/** The files of this page, each in its box. */
export function diffFiles(links: DiffLinks, d: DiffPage): Html {
  const lines = d.shown.reduce((n, s) => n + (s.diff?.lineCount ?? 0), 0);
  const highlight = lines <= HIGHLIGHT_MAX_LINES;
  return html`${d.shown.map((s) => fileBox(links, s, highlight))}`;
}

/** Everything of a diff page: the file list, the pages, the files, the pages again. */
export function diffSection(url: URL, links: DiffLinks, d: DiffPage, headingId = "diff-title"): Html {
  if (d.files.length === 0) return html`<section aria-labelledby="${headingId}"><h2 id="${headingId}">Changes</h2><div class="box"><p class="empty">No changes.</p></div></section>`;
  return html`<section aria-labelledby="${headingId}"><h2 id="${headingId}">Changes${
    d.pageCount > 1 ? html` <span class="muted small">(page ${d.page} of ${d.pageCount})</span>` : ""
  }</h2>
${diffIndex(url, d)}
${diffPager(url, d)}
${diffFiles(links, d)}
${diffPager(url, d)}</section>`;
}
