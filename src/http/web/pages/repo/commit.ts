/**
 * One commit (Gitea's repo.Diff): its message, author and committer, parents, and its changes a
 * page at a time; `/commit/{sha}.diff` and `.patch` answer the plain text (Gitea's RawDiff), the
 * router handing this page the suffix inside `:sha`.
 */
import { html } from "../../../../lib/html.ts";
import { NotFound } from "../../../../lib/errors.ts";
import { commitDiffOrPatch } from "../../../../services/repo/commits.ts";
import { commitWithDiff } from "../../../../services/repo/commit-view.ts";
import { isLikelyCommitId } from "../../../../services/repo/history.ts";
import { page } from "../../page.ts";
import { avatarImg } from "../../layout.ts";
import { repoHeader, repoPath } from "../../views/repo-header.ts";
import { pageNumber } from "../../views/pager.ts";
import { timeAgo } from "../../views/time.ts";
import { commitAuthor, codeNav, shortSha, splitMessage } from "../../views/commit-list.ts";
import { diffSection } from "../../views/diff.ts";

const readCode = { scope: "public", signIn: false, repo: { read: "code" } } as const;

/** A plain-text answer of a diff or patch, never sniffed as anything else. */
export function plainText(body: Buffer): Response {
  return new Response(new Uint8Array(body), { headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store" } });
}

export const commit = page({
  access: readCode,
  async handler(ctx) {
    const { env, base, repo: rc } = ctx;
    const raw = ctx.params.sha ?? "";
    const suffix = /^(.+)\.(diff|patch)$/.exec(raw);
    if (suffix) {
      if (!isLikelyCommitId(suffix[1]!) || rc.repo.isEmpty) throw new NotFound();
      return plainText(await commitDiffOrPatch(env, rc, suffix[1]!, suffix[2] === "patch"));
    }
    const { view, diff } = await commitWithDiff(env, rc, raw, pageNumber(ctx.query));
    const c = view.commit;
    const at = repoPath(base, rc);
    const { title, body } = splitMessage(c.message);
    const sameCommitter = c.committer.email === c.author.email && c.committer.name === c.author.name;
    const committer = view.committer
      ? html`<a href="${base}/${encodeURIComponent(view.committer.name)}">${avatarImg(env, view.committer)} ${view.committer.name}</a>`
      : html`${avatarImg(env, { avatar: "", name: c.committer.name })} ${c.committer.name}`;
    return ctx.render({
      title: `${title || shortSha(c.oid)} · ${rc.owner.name}/${rc.repo.name}@${shortSha(c.oid)}`,
      body: html`${repoHeader(base, rc, "code")}
${codeNav(base, rc, "commits")}
<article class="box commit-head" aria-labelledby="commit-title">
<header class="box-header"><h2 id="commit-title" class="commit-title">${title || "(no message)"}</h2>
<span class="actions"><a class="button" href="${at}/src/commit/${c.oid}">Browse source</a> <a class="button" href="${at}/commit/${c.oid}.diff">Diff</a> <a class="button" href="${at}/commit/${c.oid}.patch">Patch</a></span></header>
<div class="body">
${body ? html`<pre class="commit-message">${body}</pre>` : ""}
<p class="commit-people">${commitAuthor(env, base, view)} authored ${timeAgo(c.author.unix)}${
        sameCommitter ? "" : html`, committed by ${committer} ${timeAgo(c.committer.unix)}`
      }</p>
<dl class="commit-ids">
<dt>Commit</dt><dd><code>${c.oid}</code></dd>
<dt>${c.parents.length === 1 ? "Parent" : "Parents"}</dt><dd>${
        c.parents.length
          ? c.parents.map((p, i) => html`${i ? " + " : ""}<a class="mono" href="${at}/commit/${p}">${shortSha(p)}</a>`)
          : html`<span class="muted">none (the first commit)</span>`
      }</dd>
</dl>
</div>
</article>
${c.parents.length > 1 ? html`<p class="muted small">A merge commit: the changes are shown against its first parent.</p>` : ""}
${diffSection(ctx.url, { repo: at, oldCommit: c.parents[0], newCommit: c.oid }, diff)}`,
    });
  },
});
