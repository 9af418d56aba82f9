/**
 * The branch list (Gitea's repo.Branches: the default branch first, then the others with their
 * last commit and distance from the default branch) and the tag list (Gitea's repo.TagsList: each
 * tag's commit, release and source archives), both paged with `?page=`.
 */
import { html } from "../../../../lib/html.ts";
import { NotFound } from "../../../../lib/errors.ts";
import { branchList, tagList, type BranchRowView } from "../../../../services/repo/refs-view.ts";
import { page } from "../../page.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import { escapePath, repoHeader, repoPath } from "../../views/repo-header.ts";
import { pageNumber, pager } from "../../views/pager.ts";
import { timeAgo } from "../../views/time.ts";
import { codeNav, shortSha, splitMessage } from "../../views/commit-list.ts";

const readCode = { scope: "public", signIn: false, repo: { read: "code" } } as const;

/** Gitea's `[git] BRANCHES_RANGE_SIZE`, and the same for tags. */
const PER_PAGE = 20;

function archives(at: string, ref: string) {
  const name = escapePath(ref);
  return html`<a href="${at}/archive/${name}.zip" rel="nofollow" download>ZIP</a> <a href="${at}/archive/${name}.tar.gz" rel="nofollow" download>TAR.GZ</a>`;
}

function branchRow(base: string, rc: RepoContext, b: BranchRowView, isDefault: boolean) {
  const at = repoPath(base, rc);
  const name = escapePath(b.name);
  const title = splitMessage(b.commit.message).title;
  const d = b.distance;
  return html`<tr>
<th scope="row" class="name"><a href="${at}/src/branch/${name}">${b.name}</a>${isDefault ? html` <span class="tag">Default</span>` : ""}</th>
<td class="msg"><div class="clamp"><a class="mono" href="${at}/commit/${b.commit.id}">${shortSha(b.commit.id)}</a> ${title} · <span class="muted">${timeAgo(b.commit.committer.unix)}</span></div></td>
<td class="distance">${
    isDefault
      ? html`<span class="muted">Default branch</span>`
      : d
        ? html`<span title="Commits the default branch has that this one does not">${d.behind} behind</span> · <span title="Commits this branch has that the default branch does not">${d.ahead} ahead</span>`
        : ""
  }</td>
<td class="links"><a href="${at}/commits/branch/${name}">Commits</a>${
    isDefault ? "" : html` · <a href="${at}/compare/${escapePath(rc.repo.defaultBranch)}...${name}">Compare</a>`
  } · ${archives(at, b.name)}</td>
</tr>`;
}

export const branches = page({
  access: readCode,
  async handler(ctx) {
    const { env, base, repo: rc } = ctx;
    const pageNo = pageNumber(ctx.query);
    const list = await branchList(env, rc, { offset: (pageNo - 1) * PER_PAGE, limit: PER_PAGE });
    if (pageNo > 1 && list.items.length === 0) throw new NotFound();
    const head = html`<thead><tr><th scope="col">Branch</th><th scope="col">Last commit</th><th scope="col">Compared with ${rc.repo.defaultBranch}</th><th scope="col">Links</th></tr></thead>`;
    return ctx.render({
      title: `Branches · ${rc.owner.name}/${rc.repo.name}`,
      body: html`${repoHeader(base, rc, "code")}
${codeNav(base, rc, "branches")}
<h2>Branches <span class="counter">${list.total}</span></h2>
${
  list.defaultBranch || list.items.length
    ? html`<div class="box"><table class="list refs branches"><caption class="sr-only">The default branch, then the others, newest commit first</caption>${head}<tbody>${
        list.defaultBranch ? branchRow(base, rc, list.defaultBranch, true) : ""
      }${list.items.map((b) => branchRow(base, rc, b, false))}</tbody></table></div>`
    : html`<div class="box"><p class="empty">No branches.</p></div>`
}
${pager(ctx.url, pageNo, PER_PAGE, list.total)}`,
    });
  },
});

export const tags = page({
  access: readCode,
  async handler(ctx) {
    const { env, base, repo: rc } = ctx;
    const pageNo = pageNumber(ctx.query);
    const list = await tagList(env, rc, { offset: (pageNo - 1) * PER_PAGE, limit: PER_PAGE });
    if (pageNo > 1 && list.items.length === 0) throw new NotFound();
    const at = repoPath(base, rc);
    const rows = list.items.map((t) => {
      const name = escapePath(t.name);
      return html`<tr>
<th scope="row" class="name"><a href="${at}/src/tag/${name}">${t.name}</a>${
        t.release ? html` <a class="tag" href="${at}/releases/tag/${name}">${t.release.isDraft ? "Draft release" : t.release.isPrerelease ? "Pre-release" : "Release"}</a>` : ""
      }</th>
<td><a class="mono" href="${at}/commit/${t.object}">${shortSha(t.object)}</a></td>
<td class="age">${t.tagger ? timeAgo(t.tagger.unix) : ""}</td>
<td class="links"><a href="${at}/commits/tag/${name}">Commits</a> · ${archives(at, t.name)}</td>
</tr>`;
    });
    return ctx.render({
      title: `Tags · ${rc.owner.name}/${rc.repo.name}`,
      body: html`${repoHeader(base, rc, "code")}
${codeNav(base, rc, "tags")}
<h2>Tags <span class="counter">${list.total}</span></h2>
${
  rows.length
    ? html`<div class="box"><table class="list refs tags"><caption class="sr-only">Tags</caption><thead><tr><th scope="col">Tag</th><th scope="col">Commit</th><th scope="col" class="age">Date</th><th scope="col">Links</th></tr></thead><tbody>${rows}</tbody></table></div>`
    : html`<div class="box"><p class="empty">No tags yet.</p></div>`
}
${pager(ctx.url, pageNo, PER_PAGE, list.total)}`,
    });
  },
});
