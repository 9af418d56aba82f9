/**
 * A repository's history (Gitea's repo.RefCommits): `/commits/branch/{b}`, `/commits/tag/{t}`,
 * `/commits/commit/{sha}`, each optionally followed by a path whose history it then is, paged with
 * `?page=`. The deprecated `/commits/{ref}` redirects to the typed URL, as Gitea's RepoRefLegacy.
 */
import { html } from "../../../../lib/html.ts";
import { NotFound } from "../../../../lib/errors.ts";
import { defaultRefPath, historyPage, resolveLegacyRefPath, resolveRefPath, type RefKind, type RefPath } from "../../../../services/repo/history.ts";
import { page, type PageContext } from "../../page.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import { escapePath, repoHeader, repoPath } from "../../views/repo-header.ts";
import { pageNumber } from "../../views/pager.ts";
import { codeNav, commitTable, olderNewer } from "../../views/commit-list.ts";

const readCode = { scope: "public", signIn: false, repo: { read: "code" } } as const;

/** The `*` rest of the path, decoded once (an escape that does not decode names nothing). */
export function restOf(ctx: PageContext): string {
  try {
    return decodeURIComponent(ctx.params["*"] ?? "");
  } catch {
    throw new NotFound();
  }
}

/** `branch/{name}`, `tag/{name}`, `commit/{sha}`: the ref as it stands in Gitea's URLs, escaped. */
export function refSegment(ref: Pick<RefPath, "kind" | "name">): string {
  return `${ref.kind}/${escapePath(ref.name)}`;
}

const KIND_LABEL: Record<RefKind, string> = { branch: "branch", tag: "tag", commit: "commit" };

async function render(ctx: PageContext, rc: RepoContext, ref: RefPath) {
  const { env, base } = ctx;
  const perPage = env.settings.ui.commitsPagingNum;
  const pageNo = pageNumber(ctx.query);
  const { commits, hasNext } = await historyPage(env, rc, ref, pageNo, perPage);
  if (pageNo > 1 && commits.length === 0) throw new NotFound();
  const at = repoPath(base, rc);
  const historyOf = (path: string) => `${at}/commits/${refSegment(ref)}${path ? `/${escapePath(path)}` : ""}`;
  const segments = ref.path ? ref.path.split("/") : [];
  const crumbs = segments.map((seg, i) => {
    const path = segments.slice(0, i + 1).join("/");
    return i === segments.length - 1 ? html` / <strong>${seg}</strong>` : html` / <a href="${historyOf(path)}">${seg}</a>`;
  });
  const refLabel = ref.kind === "commit" ? ref.name.slice(0, 10) : ref.name;
  const heading = ref.path
    ? html`History of <a href="${historyOf("")}">${rc.repo.name}</a>${crumbs}`
    : html`Commits`;
  return ctx.render({
    title: `Commits · ${rc.owner.name}/${rc.repo.name}`,
    body: html`${repoHeader(base, rc, "code")}
${codeNav(base, rc, "commits", historyOf(""))}
<div class="history-head"><h2 class="crumbs">${heading}</h2>
<p class="muted">On ${KIND_LABEL[ref.kind]} <a class="ref" href="${at}/src/${refSegment(ref)}${ref.path ? `/${escapePath(ref.path)}` : ""}"><code>${refLabel}</code></a></p></div>
${
  commits.length
    ? commitTable(env, base, rc, commits, ref.path ? `Commits touching ${ref.path}` : `Commits on ${refLabel}`)
    : html`<div class="box"><p class="empty">No commits${ref.path ? " touch this path" : ""}.</p></div>`
}
${olderNewer(ctx.url, pageNo, hasNext)}`,
  });
}

const byKind = (kind: RefKind) =>
  page({
    access: readCode,
    handler: async (ctx) => render(ctx, ctx.repo, await resolveRefPath(ctx.env, ctx.repo, kind, restOf(ctx))),
  });

export const commitsOfBranch = byKind("branch");
export const commitsOfTag = byKind("tag");
export const commitsOfCommit = byKind("commit");

/** `/commits`: the default branch's history. */
export const commitsHome = page({
  access: readCode,
  handler: async (ctx) => render(ctx, ctx.repo, await defaultRefPath(ctx.env, ctx.repo)),
});

/** `/commits/{ref}/{path}` without a kind: to the typed URL (Gitea's RepoRefLegacy). */
export const commitsLegacy = page({
  access: readCode,
  handler: async (ctx) => {
    const ref = await resolveLegacyRefPath(ctx.env, ctx.repo, restOf(ctx));
    const path = ref.path ? `/${escapePath(ref.path)}` : "";
    const at = repoPath("", ctx.repo);
    return new Response(null, { status: 303, headers: { Location: `${ctx.base}${at}/commits/${refSegment(ref)}${path}${ctx.url.search}` } });
  },
});
