import type { Env } from "../../../../services/env.ts";
import type { Doer } from "../../../../services/access/permission.ts";
import { UNIT_TYPE, type RepoUnit } from "../../../../services/access/permission.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import { repoTopics } from "../../../../services/repo/lookup.ts";
import { commitCount, refNames } from "../../../../services/repo/code-counts.ts";
import { fileContent, smallTextBlob, submoduleUrls } from "../../../../services/repo/code-files.ts";
import { defaultBranchRef, resolveCodeRef, type CodeRef, type RefStyle } from "../../../../services/repo/code-ref.ts";
import { accountOfEmail, codeEntry, commitInfo, findReadme, lastCommitsOf, listDirectory, type CodeEntry } from "../../../../services/repo/code-tree.ts";
import { repoHtmlUrl } from "../../../../convert/content.ts";
import { NotFound } from "../../../../lib/errors.ts";
import { html, trusted, type Html } from "../../../../lib/html.ts";
import { Lru } from "../../../../lib/lru.ts";
import { page, type PageContext } from "../../page.ts";
import { OWN_SCRIPTS_POLICY } from "../../layout.ts";
import { linesScript } from "../../assets.ts";
import { repoHeader, repoPath, escapePath } from "../../views/repo-header.ts";
import { pageNumber, pager } from "../../views/pager.ts";
import { codeTable, countLines, fileHead, sizeFacts, type FileAction } from "../../views/file-view.ts";
import {
  breadcrumbs,
  cloneBox,
  commitLine,
  fileList,
  ICON_SPRITE,
  refSub,
  refSwitcher,
  srcLink,
  type CommitSummary,
} from "../../views/tree.ts";

/**
 * The repository's code pages (Gitea's repo.Home for `/{owner}/{repo}` and `/src/...`): the
 * file list of a directory with the last commit of each entry and its README, and the view of a
 * file. The home is for anyone who can see the repository; without the code unit it sends the
 * visitor to the first unit they can read, as Gitea does.
 */

const seesRepo = { scope: "public", signIn: false, repo: {} } as const;

type RepoPage = PageContext & { repo: RepoContext; doer: Doer | undefined };

/** Entries of a directory shown on one page: their last commits are found for these only. */
const ENTRIES_PER_PAGE = 100;
/** Branches and tags the switcher lists of each. */
const SWITCHER_LIMIT = 30;
const MARKDOWN = /\.(md|markdown|mdown|mkd|livemd)$/i;

// ---------------------------------------------------------------------------------------------
// Markup: the markup service is imported by the first page that renders something.

async function highlighted(fileName: string, text: string, oid: string): Promise<readonly string[]> {
  const { highlightLines } = await import("../../../../services/markup/highlight.ts");
  return highlightLines(fileName, text, oid);
}

/** Rendered READMEs and Markdown files, by blob, revision, directory and viewer, for a few minutes. */
const rendered = new Lru<{ html: string; at: number }>(64, 8 * 1024 * 1024);
const RENDERED_MS = 5 * 60_000;

async function renderDocument(ctx: RepoPage, ref: CodeRef, dir: string, oid: string, text: string): Promise<Html> {
  const key = `${ctx.repo.repo.id}\0${oid}\0${refSub(ref)}\0${dir}\0${ctx.doer?.id ?? 0}`;
  const hit = rendered.get(key);
  if (hit && Date.now() - hit.at < RENDERED_MS) return trusted(hit.html);
  const { renderMarkdown } = await import("../../../../services/markup/markdown.ts");
  const out = await renderMarkdown(ctx.env, text, { mode: "document", viewer: ctx.doer, repo: ctx.repo, refPath: refSub(ref), treePath: dir });
  rendered.set(key, { html: out, at: Date.now() }, out.length);
  // Sanitised by the markup service: the one kind of markup pages trust.
  return trusted(out);
}

// ---------------------------------------------------------------------------------------------
// Shared pieces

/** Where Gitea sends a visitor who may see the repository but not its code: the first unit they can read. */
function firstUnitRedirect(ctx: RepoPage): Response {
  const uri: Partial<Record<RepoUnit, string>> = {
    issues: "/issues",
    pulls: "/pulls",
    releases: "/releases",
    wiki: "/wiki",
    projects: "/projects",
    packages: "/packages",
    actions: "/actions",
  };
  const units = (Object.keys(uri) as RepoUnit[]).sort((a, b) => UNIT_TYPE[a] - UNIT_TYPE[b]);
  const first = units.find((u) => ctx.repo.perm.canRead(u));
  if (!first) throw new NotFound();
  return ctx.redirect(`/${encodeURIComponent(ctx.repo.owner.name)}/${encodeURIComponent(ctx.repo.repo.name)}${uri[first]}`);
}

async function commitSummary(ctx: RepoPage, oid: string): Promise<CommitSummary> {
  const c = await commitInfo(ctx.env, ctx.repo, oid);
  const account = accountOfEmail(ctx.env, c.author.email);
  return {
    oid: c.oid,
    subject: c.message.split("\n", 1)[0]!.trim(),
    unix: c.committer.unix,
    author: account?.name ?? c.author.name,
    authorHref: account ? `${ctx.base}/${encodeURIComponent(account.name)}` : undefined,
  };
}

function switcher(ctx: RepoPage, ref: CodeRef, treePath: string, names: Awaited<ReturnType<typeof refNames>>): Html {
  return refSwitcher({
    repoLink: repoPath(ctx.base, ctx.repo),
    ref,
    names,
    treePath,
    action: `${ctx.base}${ctx.url.pathname}`,
    filter: ctx.query.get("ref_q") ?? "",
  });
}

const cloneUrl = (env: Env, rc: RepoContext) => `${repoHtmlUrl(env.settings, { owner: rc.owner.name, name: rc.repo.name })}.git`;

/** The repository's "About": description, website, topics. */
function about(ctx: RepoPage): Html {
  const { repo } = ctx.repo;
  const topics = repoTopics(ctx.env, repo.id);
  const website = /^https?:\/\//i.test(repo.website) ? repo.website : "";
  return html`<section aria-labelledby="about-title"><h2 id="about-title">About</h2>
${repo.description ? html`<p class="description">${repo.description}</p>` : html`<p class="muted small">No description.</p>`}
${website ? html`<p class="website"><a href="${website}" rel="nofollow noopener noreferrer">${repo.website}</a></p>` : ""}
${topics.length ? html`<ul class="topics" aria-label="Topics">${topics.map((t) => html`<li><a class="tag" href="${ctx.base}/explore/repos?q=${encodeURIComponent(t)}&topic=1">${t}</a></li>`)}</ul>` : ""}
</section>`;
}

/** Gitea's empty repository page: a note, and for those who may push, how to. */
function emptyPage(ctx: RepoPage): Response {
  const rc = ctx.repo;
  const url = cloneUrl(ctx.env, rc);
  const branch = rc.repo.defaultBranch;
  const canPush = rc.perm.canWrite("code") && !rc.repo.isArchived;
  return ctx.render({
    title: `${rc.owner.name}/${rc.repo.name}`,
    body: html`${repoHeader(ctx.base, rc, "code")}
<section class="box empty-repo" aria-labelledby="empty-title">
<header><h2 id="empty-title">This repository is empty</h2></header>
<div class="body">
${
  canPush
    ? html`<p>Push some code to get started.</p>
${cloneBox(url)}
<h3>Creating a new repository on the command line</h3>
<pre class="commands"><code>touch README.md
git init
git checkout -b ${branch}
git add README.md
git commit -m "first commit"
git remote add origin ${url}
git push -u origin ${branch}</code></pre>
<h3>Pushing an existing repository from the command line</h3>
<pre class="commands"><code>git remote add origin ${url}
git push -u origin ${branch}</code></pre>`
    : html`<p>This repository does not contain any content.</p>`
}
</div>
</section>`,
  });
}

// ---------------------------------------------------------------------------------------------
// Directories (and the home)

async function readmeBox(ctx: RepoPage, ref: CodeRef, dir: CodeEntry, entries: CodeEntry[]): Promise<Html> {
  const readme = await findReadme(ctx.env, ctx.repo, ref.commitId, dir, entries);
  if (!readme) return html``;
  const readmeDir = readme.path.includes("/") ? readme.path.slice(0, readme.path.lastIndexOf("/")) : "";
  const text = await smallTextBlob(ctx.env, ctx.repo, readme.oid, ctx.env.settings.ui.maxDisplayFileSize);
  const repoLink = repoPath(ctx.base, ctx.repo);
  const body =
    text === undefined
      ? html`<p class="muted">This file is too large to be shown. <a href="${srcLink(repoLink, ref, readme.path)}">View it</a>.</p>`
      : MARKDOWN.test(readme.name)
        ? html`<div class="markup">${await renderDocument(ctx, ref, readmeDir, readme.oid, text)}</div>`
        : html`<pre class="plain-text">${text}</pre>`;
  return html`<section class="box readme" aria-labelledby="readme-title">
<header><h2 id="readme-title"><a href="${srcLink(repoLink, ref, readme.path)}">${readme.path === readme.name ? readme.name : readme.path}</a></h2></header>
<div class="body">${body}</div>
</section>`;
}

async function treePage(ctx: RepoPage, ref: CodeRef, dir: CodeEntry, headers?: Record<string, string>): Promise<Response> {
  const { env, repo: rc } = ctx;
  const repoLink = repoPath(ctx.base, rc);
  const filter = ctx.query.get("ref_q") ?? "";
  const atRoot = dir.path === "";

  const entries = await listDirectory(env, rc, ref.commitId, dir);
  const pageNo = pageNumber(ctx.query);
  const shown = entries.slice((pageNo - 1) * ENTRIES_PER_PAGE, pageNo * ENTRIES_PER_PAGE);
  if (pageNo > 1 && shown.length === 0) throw new NotFound();
  const [lastCommits, names, commits, submodules, readme] = await Promise.all([
    lastCommitsOf(env, rc, ref.commitId, dir.path, shown.map((e) => e.name)),
    refNames(env, rc, SWITCHER_LIMIT, filter),
    commitCount(env, rc, ref.commitId),
    shown.some((e) => e.kind === "submodule") ? submoduleUrls(env, rc, ref.commitId) : Promise.resolve(new Map<string, string>()),
    readmeBox(ctx, ref, dir, entries),
  ]);
  // The directory's latest commit: the ref's head at the top, else the newest of its entries'.
  let latestOid: string | undefined = ref.commitId;
  if (!atRoot) {
    let newest = -1;
    latestOid = undefined;
    for (const c of lastCommits.values()) if (c && c.unix > newest) (newest = c.unix), (latestOid = c.oid);
  }
  const latest = latestOid ? await commitSummary(ctx, latestOid) : undefined;

  const sub = refSub(ref);
  const counts = html`<ul class="repo-counts" aria-label="Counts">
<li><a href="${repoLink}/commits/${sub}"><strong>${commits}</strong> commit${commits === 1 ? "" : "s"}</a></li>
<li><a href="${repoLink}/branches"><strong>${names.branchCount}</strong> branch${names.branchCount === 1 ? "" : "es"}</a></li>
<li><a href="${repoLink}/tags"><strong>${names.tagCount}</strong> tag${names.tagCount === 1 ? "" : "s"}</a></li>
</ul>`;
  const archiveName = escapePath(ref.kind === "commit" ? ref.commitId : ref.name);
  // Gitea's "Code" menu: the clone address and the archives of this revision.
  const codeMenu = html`<details class="menu code-menu">
<summary class="button primary">Code</summary>
<div class="menu-body">
${cloneBox(cloneUrl(env, rc))}
<div class="downloads"><span class="muted small">Download</span>
<a class="button small" href="${repoLink}/archive/${archiveName}.zip" rel="nofollow">ZIP</a>
<a class="button small" href="${repoLink}/archive/${archiveName}.tar.gz" rel="nofollow">TAR.GZ</a>
<a class="button small" href="${repoLink}/archive/${archiveName}.bundle" rel="nofollow">Bundle</a></div>
</div>
</details>`;

  const files = html`<section class="box file-list" aria-labelledby="files-title">
<header><h2 id="files-title" class="sr-only">Files</h2>${latest ? commitLine(repoLink, latest) : html`<span class="muted small">No commit information.</span>`}</header>
${fileList({ repoLink, ref, dir: dir.path, entries: shown, lastCommits, submodules })}
</section>
${pager(ctx.url, pageNo, ENTRIES_PER_PAGE, entries.length)}`;

  const bar = html`<div class="code-bar">${switcher(ctx, ref, dir.path, names)}${atRoot ? counts : breadcrumbs(repoLink, rc.repo.name, ref, dir.path)}${
    atRoot ? codeMenu : ""
  }</div>`;

  const title = atRoot
    ? `${rc.owner.name}/${rc.repo.name}${rc.repo.description ? `: ${rc.repo.description}` : ""}`
    : `${rc.repo.name}/${dir.path} at ${ref.kind === "commit" ? ref.name.slice(0, 10) : ref.name}`;
  const body = atRoot
    ? html`${repoHeader(ctx.base, rc, "code")}${ICON_SPRITE}
<div class="layout-2 repo-home">
<div class="repo-main">${bar}${files}${readme}</div>
<aside class="sidebar">${about(ctx)}</aside>
</div>`
    : html`${repoHeader(ctx.base, rc, "code")}${ICON_SPRITE}${bar}${files}${readme}`;
  return ctx.render({ title, body, headers });
}

// ---------------------------------------------------------------------------------------------
// Files

/**
 * Source files as their numbered, highlighted table, by blob and file name (the name picks the
 * language): a blob never changes, so showing a file again reads nothing and builds nothing.
 */
const sourceTables = new Lru<{ size: number; lines: number; table: Html }>(48, 16 * 1024 * 1024);

type Shown = Awaited<ReturnType<typeof fileContent>> | { kind: "table"; size: number; lines: number; table: Html };

async function filePage(ctx: RepoPage, ref: CodeRef, entry: CodeEntry, headers?: Record<string, string>): Promise<Response> {
  const { env, repo: rc } = ctx;
  const repoLink = repoPath(ctx.base, rc);
  const parent = entry.path.includes("/") ? entry.path.slice(0, entry.path.lastIndexOf("/")) : "";
  const source = ctx.query.get("display") === "source";
  const markdownName = MARKDOWN.test(entry.name);
  const tableKey = `${entry.oid}\0${entry.name}`;
  const known = markdownName && !source ? undefined : sourceTables.get(tableKey);
  const [content, names, last] = await Promise.all([
    known ? ({ kind: "table", ...known } as Shown) : fileContent(env, rc, entry.oid),
    refNames(env, rc, SWITCHER_LIMIT, ctx.query.get("ref_q") ?? ""),
    lastCommitsOf(env, rc, ref.commitId, parent, [entry.name]),
  ]);
  const lastOid = last.get(entry.name)?.oid;
  const latest = lastOid ? await commitSummary(ctx, lastOid) : undefined;

  const sub = refSub(ref);
  const path = escapePath(entry.path);
  const rawHref = `${repoLink}/raw/${sub}/${path}`;
  const mediaHref = `${repoLink}/media/${sub}/${path}`;
  const actions: FileAction[] = [];
  const facts: (string | Html)[] = [];
  let view: Html;

  const isText = content.kind === "text" || content.kind === "table";
  if (markdownName && isText) {
    actions.push({ label: "Rendered", href: srcLink(repoLink, ref, entry.path), current: !source });
    actions.push({ label: "Source", href: `${srcLink(repoLink, ref, entry.path)}?display=source`, current: source });
  }
  if (entry.kind === "symlink" && isText) facts.push("Symbolic link");
  if (entry.executable) facts.push("Executable");

  switch (content.kind) {
    case "table":
      facts.push(...sizeFacts(content.size, content.lines));
      view = html`<div class="file-view">${content.table}</div>`;
      break;
    case "text": {
      const lines = countLines(content.text);
      facts.push(...sizeFacts(content.size, lines));
      if (markdownName && !source) {
        view = html`<div class="body markup">${await renderDocument(ctx, ref, parent, entry.oid, content.text)}</div>`;
      } else if (content.text === "") {
        view = html`<p class="empty">This file is empty.</p>`;
      } else {
        const table = codeTable(await highlighted(entry.name, content.text, entry.oid));
        sourceTables.set(tableKey, { size: content.size, lines, table }, table.value.length);
        view = html`<div class="file-view">${table}</div>`;
      }
      break;
    }
    case "lfs":
      facts.push("Stored with Git LFS", ...sizeFacts(content.pointer.size));
      view = html`<div class="body"><p>This file is stored with Git LFS, and its content is not on this server: its pointer is shown.</p>
<pre class="plain-text">${content.text}</pre></div>`;
      break;
    case "image":
      facts.push(...sizeFacts(content.size));
      view = html`<div class="body media"><img src="${rawHref}" alt="${entry.name}"></div>`;
      break;
    case "video":
      facts.push(...sizeFacts(content.size));
      view = html`<div class="body media"><video src="${rawHref}" controls preload="metadata">Your browser cannot play this video: <a href="${rawHref}">download it</a>.</video></div>`;
      break;
    case "audio":
      facts.push(...sizeFacts(content.size));
      view = html`<div class="body media"><audio src="${rawHref}" controls preload="metadata">Your browser cannot play this audio file: <a href="${rawHref}">download it</a>.</audio></div>`;
      break;
    case "too-large":
      facts.push(...sizeFacts(content.size));
      view = html`<p class="empty">This file is too large to be shown here. <a href="${rawHref}">View the raw file</a>.</p>`;
      break;
    default:
      facts.push(...sizeFacts(content.size));
      view = html`<p class="empty">This is a binary file and is not shown here. <a href="${rawHref}" download>Download it</a>.</p>`;
  }
  actions.push({ label: "Raw", href: content.kind === "lfs" ? mediaHref : rawHref });
  if (ref.kind !== "commit") actions.push({ label: "Permalink", href: `${repoLink}/src/commit/${ref.commitId}/${path}` });
  actions.push({ label: "History", href: `${repoLink}/commits/${sub}/${path}` });

  const body = html`${repoHeader(ctx.base, rc, "code")}
<div class="code-bar">${switcher(ctx, ref, entry.path, names)}${breadcrumbs(repoLink, rc.repo.name, ref, entry.path)}</div>
${latest ? html`<div class="box latest"><header>${commitLine(repoLink, latest)}</header></div>` : ""}
<section class="box file" aria-labelledby="file-title">
<h2 id="file-title" class="sr-only">${entry.name}</h2>
${fileHead({ facts, actions })}
${view}
</section>`;
  const title = `${rc.repo.name}/${entry.path} at ${ref.kind === "commit" ? ref.name.slice(0, 10) : ref.name}`;
  // Numbered lines get the one script: `#L5-L10` ranges, which :target alone cannot mark.
  const numbered = /<table class="code"/.test(view.value);
  if (!numbered) return ctx.render({ title, body, headers });
  return ctx.render({
    title,
    body,
    head: html`<script src="${ctx.base}${linesScript}" defer></script>`,
    headers: { ...headers, ...OWN_SCRIPTS_POLICY },
  });
}

// ---------------------------------------------------------------------------------------------
// Pages

/** `GET /{owner}/{repo}`: the default branch's files, README and the repository's details. */
export const repoHome = page({
  access: seesRepo,
  async handler(ctx) {
    if (!ctx.repo.perm.canRead("code")) return firstUnitRedirect(ctx);
    const ref = ctx.repo.repo.isEmpty ? undefined : await defaultBranchRef(ctx.env, ctx.repo);
    if (!ref) return emptyPage(ctx);
    return treePage(ctx, ref, await codeEntry(ctx.env, ctx.repo, ref.commitId, ""));
  },
});

/** The `*` rest of a path, unescaped; a malformed escape names nothing. */
function decodeRest(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new NotFound();
  }
}

/**
 * `GET /{owner}/{repo}/src/{branch|tag|commit}/{ref}/{path}`, and the legacy `/src/{ref}/{path}`,
 * which redirects to the path with its ref's kind (falling back to the default branch, as Gitea).
 */
export const src = page({
  access: seesRepo,
  async handler(ctx) {
    const rc = ctx.repo;
    if (!rc.perm.canRead("code")) return firstUnitRedirect(ctx);
    if (rc.repo.isEmpty) return emptyPage(ctx);
    const raw = ctx.params["*"] ?? "";
    const slash = raw.indexOf("/");
    const head = slash < 0 ? raw : raw.slice(0, slash);
    const style: RefStyle = head === "branch" || head === "tag" || head === "commit" ? head : "legacy";
    const restRaw = style === "legacy" ? raw : slash < 0 ? "" : raw.slice(slash + 1);
    if (style === "legacy" && restRaw === "") {
      const ref = await defaultBranchRef(ctx.env, rc);
      if (!ref) return emptyPage(ctx);
      return treePage(ctx, ref, await codeEntry(ctx.env, rc, ref.commitId, ""));
    }
    const ref = await resolveCodeRef(ctx.env, rc, style, decodeRest(restRaw));
    const repoAt = `/${encodeURIComponent(rc.owner.name)}/${encodeURIComponent(rc.repo.name)}`;
    const query = ctx.url.search;
    if (ref.legacy) {
      const target = ref.legacy.fallback ? `${refSub(ref)}/${restRaw}` : `${ref.kind}/${restRaw}`;
      return ctx.redirect(`${repoAt}/src/${target}${query}`);
    }
    // GitHub's `?raw=1`, which Gitea follows: the raw file of the same path.
    if (ref.treePath && ["1", "true"].includes(ctx.query.get("raw") ?? "")) {
      return ctx.redirect(`${repoAt}/raw/${refSub(ref)}/${escapePath(ref.treePath)}`);
    }
    const entry = await codeEntry(ctx.env, rc, ref.commitId, ref.treePath);
    // A short commit id names the page; the full one is its canonical address.
    const headers: Record<string, string> = {};
    if (ref.kind === "commit" && ref.name !== ref.commitId) {
      headers.Link = `<${new URL(`${repoAt.slice(1)}/src/commit/${ref.commitId}${entry.path ? `/${escapePath(entry.path)}` : ""}`, ctx.env.settings.server.rootUrl).href}>; rel="canonical"`;
    }
    if (entry.kind === "dir") return treePage(ctx, ref, entry, headers);
    if (entry.kind === "submodule") throw new NotFound();
    return filePage(ctx, ref, entry, headers);
  },
});
