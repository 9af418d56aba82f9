/**
 * Releases (Gitea's repo.Releases, SingleRelease, LatestRelease and RedirectDownload): the list,
 * newest first, drafts only for those who may write releases; one release by its tag; the latest
 * release; and an asset by tag and file name, the link install scripts use (anonymous on a
 * public repository).
 */
import { fileSize } from "../../../../lib/file-size.ts";
import { html, trusted, type Html } from "../../../../lib/html.ts";
import { NotFound } from "../../../../lib/errors.ts";
import type { Doer } from "../../../../services/access/permission.ts";
import type { Env } from "../../../../services/env.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import { latestRelease, listReleases, releaseByTag, viewOf, type ReleaseView } from "../../../../services/release/releases.ts";
import { findReleaseDownload } from "../../../../services/release/download.ts";
import { serveAttachmentFile } from "../../../serve-file.ts";
import { page } from "../../page.ts";
import { avatarImg } from "../../layout.ts";
import { escapePath, repoHeader, repoPath } from "../../views/repo-header.ts";
import { pageNumber, pager } from "../../views/pager.ts";
import { timeAgo } from "../../views/time.ts";
import { shortSha } from "../../views/commit-list.ts";
import { restOf } from "./history.ts";

const readReleases = { scope: "public", signIn: false, repo: { read: "releases" } } as const;

/** Releases on a page of the list (Gitea's default `limit` of the releases page). */
const PER_PAGE = 10;


async function notes(env: Env, doer: Doer | undefined, rc: RepoContext, text: string): Promise<Html> {
  if (!text.trim()) return html``;
  const { renderMarkdown } = await import("../../../../services/markup/markdown.ts");
  return html`<div class="markup">${trusted(await renderMarkdown(env, text, { mode: "comment", viewer: doer, repo: rc }))}</div>`;
}

/** One release: title and badges, who published it and when, its tag and commit, notes, assets and source archives. */
async function releaseBox(env: Env, base: string, doer: Doer | undefined, rc: RepoContext, v: ReleaseView, opts: { latestId?: number; headingLevel: 2 | 3 }): Promise<Html> {
  const r = v.release;
  const at = repoPath(base, rc);
  const tag = escapePath(r.tagName);
  const title = r.title || r.tagName;
  const id = `release-${r.id}`;
  const heading =
    opts.headingLevel === 2
      ? html`<h2 id="${id}-title"><a href="${at}/releases/tag/${tag}">${title}</a></h2>`
      : html`<h3 id="${id}-title"><a href="${at}/releases/tag/${tag}">${title}</a></h3>`;
  const badges = [
    r.isDraft ? html`<span class="tag">Draft</span>` : "",
    r.isPrerelease ? html`<span class="tag">Pre-release</span>` : "",
    opts.latestId === r.id ? html`<span class="tag">Latest</span>` : "",
  ];
  const assets = v.assets.map(
    (a) =>
      html`<li><a href="${at}/releases/download/${tag}/${encodeURIComponent(a.name)}" rel="nofollow">${a.name}</a> <span class="muted small">${fileSize(a.size)} · ${a.downloadCount} download${
        a.downloadCount === 1 ? "" : "s"
      }</span></li>`,
  );
  const sources =
    !r.isDraft && rc.perm.canRead("code")
      ? [
          html`<li><a href="${at}/archive/${tag}.zip" rel="nofollow">Source code (ZIP)</a></li>`,
          html`<li><a href="${at}/archive/${tag}.tar.gz" rel="nofollow">Source code (TAR.GZ)</a></li>`,
        ]
      : [];
  const count = assets.length + sources.length;
  return html`<article class="box release" id="${id}" aria-labelledby="${id}-title">
<header class="box-header">${heading}${badges}</header>
<div class="body">
<p class="release-meta muted small">${avatarImg(env, v.publisher)} ${r.originalAuthor || v.publisher.name} ${r.isDraft ? "drafted this" : "released this"} ${timeAgo(r.createdUnix)}${
    r.isDraft && !r.sha1
      ? ""
      : html` · tag <a href="${at}/src/tag/${tag}"><code>${r.tagName}</code></a>${r.sha1 ? html` · commit <a class="mono" href="${at}/commit/${r.sha1}">${shortSha(r.sha1)}</a>` : ""}`
  }</p>
${await notes(env, doer, rc, r.note)}
${
  count
    ? html`<details class="assets"${opts.headingLevel === 2 || count <= 6 ? html` open` : ""}><summary>Assets <span class="counter">${count}</span></summary><ul class="rows">${assets}${sources}</ul></details>`
    : ""
}
</div>
</article>`;
}

export const releases = page({
  access: readReleases,
  async handler(ctx) {
    const { env, base, repo: rc, doer } = ctx;
    if (rc.repo.isEmpty) throw new NotFound();
    const pageNo = pageNumber(ctx.query);
    const list = listReleases(env, rc, {}, { offset: (pageNo - 1) * PER_PAGE, limit: PER_PAGE });
    if (pageNo > 1 && list.items.length === 0) throw new NotFound();
    let latestId: number | undefined;
    try {
      latestId = latestRelease(env, rc).release.id;
    } catch (err) {
      if (!(err instanceof NotFound)) throw err;
    }
    const boxes: Html[] = [];
    for (const v of list.items) boxes.push(await releaseBox(env, base, doer, rc, v, { latestId, headingLevel: 3 }));
    const at = repoPath(base, rc);
    return ctx.render({
      title: `Releases · ${rc.owner.name}/${rc.repo.name}`,
      body: html`${repoHeader(base, rc, "releases")}
<nav class="filters" aria-label="Releases"><a href="${at}/releases" aria-current="page">Releases</a><a href="${at}/tags">Tags</a></nav>
<h2>Releases <span class="counter">${list.total}</span></h2>
${boxes.length ? boxes : html`<div class="box"><p class="empty">No releases yet.</p></div>`}
${pager(ctx.url, pageNo, PER_PAGE, list.total)}`,
    });
  },
});

/** `/releases/tag/{tag}`: the `html_url` of a release. */
export const releaseOfTag = page({
  access: readReleases,
  async handler(ctx) {
    const { env, base, repo: rc, doer } = ctx;
    if (rc.repo.isEmpty) throw new NotFound();
    const row = releaseByTag(env, rc, restOf(ctx));
    let latestId: number | undefined;
    try {
      latestId = latestRelease(env, rc).release.id;
    } catch (err) {
      if (!(err instanceof NotFound)) throw err;
    }
    const at = repoPath(base, rc);
    return ctx.render({
      title: `${row.title || row.tagName} · Releases · ${rc.owner.name}/${rc.repo.name}`,
      body: html`${repoHeader(base, rc, "releases")}
<nav class="filters" aria-label="Releases"><a href="${at}/releases">All releases</a><a href="${at}/tags">Tags</a></nav>
${await releaseBox(env, base, doer, rc, viewOf(env, row), { latestId, headingLevel: 2 })}`,
    });
  },
});

/** `/releases/latest`: to the latest release's page (Gitea's LatestRelease), 404 when there is none. */
export const latest = page({
  access: readReleases,
  handler(ctx) {
    const { env, repo: rc } = ctx;
    if (rc.repo.isEmpty) throw new NotFound();
    const v = latestRelease(env, rc);
    return new Response(null, { status: 303, headers: { Location: `${repoPath(ctx.base, rc)}/releases/tag/${escapePath(v.release.tagName)}` } });
  },
});

/** `/releases/download/{tag}/{file}`: the asset's bytes, counted, under the headers of every served user file. */
export const download = page({
  access: { scope: "repository", signIn: false, repo: { read: "releases" } },
  // Install scripts fetch assets with a token, as Gitea's web accepts on this path.
  acceptsTokens: true,
  async handler(ctx) {
    const found = findReleaseDownload(ctx.env, ctx.repo, ctx.doer, ctx.params.tag ?? "", ctx.params.file ?? "");
    return serveAttachmentFile(ctx.env, ctx.request, found);
  },
});
