import type { CodeRef } from "../../../services/repo/code-ref.ts";
import type { CodeEntry, WalkedCommit } from "../../../services/repo/code-tree.ts";
import type { RefNames } from "../../../services/repo/code-counts.ts";
import { html, join, trusted, type Html } from "../../../lib/html.ts";
import { escapePath } from "./repo-header.ts";
import { timeAgo } from "./time.ts";

// Pieces of the repository's code pages: the ref switcher, the path, the file list, the clone box.

/** Gitea's RefTypeNameSubURL: `branch/{name}`, `tag/{name}`, `commit/{id}`, each segment escaped. */
export function refSub(ref: Pick<CodeRef, "kind" | "name">): string {
  return `${ref.kind}/${escapePath(ref.name)}`;
}

/** The page of `path` (a directory or a file) at `ref`: `/{owner}/{repo}/src/{kind}/{name}/{path}`. */
export function srcLink(repoLink: string, ref: Pick<CodeRef, "kind" | "name">, path: string): string {
  return `${repoLink}/src/${refSub(ref)}${path ? `/${escapePath(path)}` : ""}`;
}

export const commitLink = (repoLink: string, oid: string) => `${repoLink}/commit/${oid}`;


/** The icons of the file list, defined once per page and used by reference (`<use href="#i-dir">`). */
export const ICON_SPRITE = html`<svg class="sprite" aria-hidden="true" focusable="false" width="0" height="0"><defs>
<symbol id="i-dir" viewBox="0 0 16 16"><path fill="currentColor" d="M1.5 2.5h4.4l1.6 1.7h7v9.3h-13z"/></symbol>
<symbol id="i-file" viewBox="0 0 16 16"><path fill="none" stroke="currentColor" stroke-width="1.2" d="M3.5 1.6h5.7l3.3 3.3v9.5h-9zM9 1.8v3.4h3.3"/></symbol>
<symbol id="i-link" viewBox="0 0 16 16"><path fill="none" stroke="currentColor" stroke-width="1.2" d="M3.5 1.6h5.7l3.3 3.3v9.5h-9zM6 11.5l3.5-3.5M6.8 8h2.7v2.7"/></symbol>
<symbol id="i-sub" viewBox="0 0 16 16"><path fill="none" stroke="currentColor" stroke-width="1.2" d="M1.6 3.6h12.8v9.8H1.6zM1.6 6.4h12.8M5 3.6v2.8"/></symbol>
</defs></svg>`;

const ICON: Record<CodeEntry["kind"], string> = { dir: "i-dir", file: "i-file", symlink: "i-link", submodule: "i-sub" };
const KIND_LABEL: Record<CodeEntry["kind"], string> = { dir: "Directory", file: "File", symlink: "Symbolic link", submodule: "Submodule" };

function icon(kind: CodeEntry["kind"]): Html {
  return html`<svg class="icon ${kind}" width="16" height="16" aria-hidden="true" focusable="false"><use href="#${ICON[kind]}"/></svg>`;
}

/** The path being viewed as links: the repository's name, then each directory, the last one current. */
export function breadcrumbs(repoLink: string, repoName: string, ref: Pick<CodeRef, "kind" | "name">, treePath: string): Html {
  const parts = treePath ? treePath.split("/") : [];
  const items: Html[] = [
    parts.length ? html`<a href="${srcLink(repoLink, ref, "")}">${repoName}</a>` : html`<span aria-current="page">${repoName}</span>`,
  ];
  parts.forEach((name, i) => {
    const path = parts.slice(0, i + 1).join("/");
    items.push(i === parts.length - 1 ? html`<span aria-current="page">${name}</span>` : html`<a href="${srcLink(repoLink, ref, path)}">${name}</a>`);
  });
  return html`<nav class="crumbs" aria-label="Path">${join(items, html`<span class="sep" aria-hidden="true"> / </span>`)}</nav>`;
}

export interface SwitcherOptions {
  repoLink: string;
  ref: CodeRef;
  names: RefNames;
  /** Where a ref's link goes: the same path at that ref. */
  treePath: string;
  /** The page the filter form submits to (this page, without its query). */
  action: string;
  filter: string;
}

/**
 * The branch and tag switcher without JavaScript: a disclosure whose menu lists branches and tags
 * as links to the same path at that ref, bounded, with a GET form that narrows the lists by name
 * (the page comes back with the menu open).
 */
export function refSwitcher(o: SwitcherOptions): Html {
  const { repoLink, ref, names } = o;
  const item = (kind: "branch" | "tag", name: string) => {
    const current = ref.kind === kind && ref.name === name;
    return html`<li><a href="${srcLink(repoLink, { kind, name }, o.treePath)}"${current ? html` aria-current="true"` : ""}>${name}</a></li>`;
  };
  const more = (shown: number, total: number, noun: string) =>
    total > shown ? html`<p class="more small muted">${shown} of ${total} ${noun} shown${o.filter ? "" : "; filter to find the others"}.</p>` : "";
  const label = ref.kind === "commit" ? ref.name.slice(0, 10) : ref.name;
  const kindLabel = ref.kind === "branch" ? "Branch" : ref.kind === "tag" ? "Tag" : "Commit";
  return html`<details class="menu ref-switch"${o.filter ? html` open` : ""}>
<summary class="button"><span class="muted">${kindLabel}:</span> <strong class="ref-name">${label}</strong></summary>
<div class="menu-body">
<form class="ref-filter" method="get" action="${o.action}" role="search"><label class="sr-only" for="ref-q">Filter branches and tags</label><input id="ref-q" type="search" name="ref_q" value="${o.filter}" placeholder="Filter branches and tags"><button type="submit">Filter</button></form>
<h3 id="ref-branches">Branches</h3>
${names.branches.length ? html`<ul aria-labelledby="ref-branches">${names.branches.map((b) => item("branch", b))}</ul>` : html`<p class="small muted none">No branch matches.</p>`}
${more(names.branches.length, o.filter ? names.branches.length : names.branchCount, "branches")}
<h3 id="ref-tags">Tags</h3>
${names.tags.length ? html`<ul aria-labelledby="ref-tags">${names.tags.map((t) => item("tag", t))}</ul>` : html`<p class="small muted none">No tag${o.filter ? " matches" : "s"}.</p>`}
${more(names.tags.length, o.filter ? names.tags.length : names.tagCount, "tags")}
</div>
</details>`;
}

/** The clone address in a read-only field the visitor can select and copy. */
export function cloneBox(cloneUrl: string, id = "clone-url"): Html {
  return html`<div class="clone"><label for="${id}">Clone with HTTP</label><input id="${id}" type="text" readonly value="${cloneUrl}" spellcheck="false"></div>`;
}

export interface CommitSummary {
  oid: string;
  subject: string;
  unix: number;
  author: string;
  /** The author's account page, when an account owns the author's email. */
  authorHref?: string;
}

/** One commit in a line: author, subject linked to the commit, short id, age. */
export function commitLine(repoLink: string, c: CommitSummary): Html {
  return html`<div class="commit-line"><span class="author">${c.authorHref ? html`<a href="${c.authorHref}">${c.author}</a>` : c.author}</span>
<a class="subject" href="${commitLink(repoLink, c.oid)}">${c.subject || "(no message)"}</a>
<a class="sha mono" href="${commitLink(repoLink, c.oid)}" title="${c.oid}">${c.oid.slice(0, 10)}</a>
<span class="when">${timeAgo(c.unix)}</span></div>`;
}

export interface FileListOptions {
  repoLink: string;
  ref: CodeRef;
  /** The directory listed ("" for the root). */
  dir: string;
  entries: CodeEntry[];
  lastCommits: Map<string, WalkedCommit | undefined>;
  /** Submodule URLs by path: a web link when it is one. */
  submodules: Map<string, string>;
}

/** A submodule's URL as a link for browsers: only http(s) ones, never a `javascript:` or `file:` address. */
function submoduleHref(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const web = url.replace(/^git@([^:/]+):/, "https://$1/").replace(/\.git$/, "");
  return /^https?:\/\/[^\s"<>]+$/i.test(web) ? web : undefined;
}

/** The file list: name, last commit and its age for each entry, directories first; `..` above a subdirectory. */
export function fileList(o: FileListOptions): Html {
  const { repoLink, ref } = o;
  // One string per row, joined once: a directory may have a few hundred entries. Each row was
  // built by html`` (every value escaped), so the joined rows are trusted as they are.
  const rows: string[] = [];
  if (o.dir) {
    const parent = o.dir.includes("/") ? o.dir.slice(0, o.dir.lastIndexOf("/")) : "";
    rows.push(
      html`<tr><td class="name" colspan="3"><span class="entry">${icon("dir")}<a href="${srcLink(repoLink, ref, parent)}"><span aria-hidden="true">..</span><span class="sr-only">Parent directory</span></a></span></td></tr>`.value,
    );
  }
  for (const e of o.entries) {
    const c = o.lastCommits.get(e.name);
    const short = e.kind === "submodule" ? e.oid.slice(0, 7) : "";
    const subHref = e.kind === "submodule" ? submoduleHref(o.submodules.get(e.path)) : undefined;
    const name =
      e.kind === "submodule"
        ? subHref
          ? html`<a href="${subHref}" rel="nofollow noreferrer">${e.name}</a> <span class="muted small">@ ${short}</span>`
          : html`<span>${e.name}</span> <span class="muted small">@ ${short}</span>`
        : html`<a href="${srcLink(repoLink, ref, e.path)}">${e.name}</a>`;
    rows.push(
      html`<tr><td class="name"><span class="entry">${icon(e.kind)}<span class="sr-only">${KIND_LABEL[e.kind]}: </span>${name}</span></td><td class="msg">${
        c ? html`<a href="${commitLink(repoLink, c.oid)}">${c.subject || "(no message)"}</a>` : ""
      }</td><td class="age">${c ? timeAgo(c.unix) : ""}</td></tr>`.value,
    );
  }
  return html`<table class="list files">
<caption class="sr-only">Files${o.dir ? ` in ${o.dir}` : ""}</caption>
<thead><tr><th scope="col">Name</th><th scope="col" class="msg">Last commit</th><th scope="col" class="age">Updated</th></tr></thead>
<tbody>${trusted(rows.join("\n"))}</tbody>
</table>`;
}
