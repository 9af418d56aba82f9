/**
 * `/compare/{base}...{head}` and `/compare/{base}..{head}` (Gitea's repo.CompareDiff), read-only:
 * the commits head has that base has not, and the changes a page at a time.
 */
import { html } from "../../../../lib/html.ts";
import { compareView, parseCompareSpec, COMPARE_MAX_COMMITS, type CompareSide } from "../../../../services/repo/compare-view.ts";
import { page } from "../../page.ts";
import { escapePath, repoHeader, repoPath } from "../../views/repo-header.ts";
import { pageNumber } from "../../views/pager.ts";
import { codeNav, commitTable, shortSha } from "../../views/commit-list.ts";
import { diffSection } from "../../views/diff.ts";
import { restOf } from "./history.ts";

const readCode = { scope: "public", signIn: false, repo: { read: "code" } } as const;

export const compare = page({
  access: readCode,
  async handler(ctx) {
    const { env, base, repo: rc } = ctx;
    const spec = parseCompareSpec(rc, restOf(ctx));
    const v = await compareView(env, rc, spec, pageNumber(ctx.query));
    const at = repoPath(base, rc);
    const side = (s: CompareSide) =>
      s.kind === "commit"
        ? html`<a href="${at}/commit/${s.sha}"><code>${shortSha(s.sha)}</code></a>`
        : html`<a href="${at}/src/${s.kind}/${escapePath(s.name)}"><code>${s.name}</code></a>`;
    const other = `${at}/compare/${escapePath(spec.base)}${spec.direct ? "..." : ".."}${escapePath(spec.head)}`;
    return ctx.render({
      title: `Comparing ${spec.base}${spec.direct ? ".." : "..."}${spec.head} · ${rc.owner.name}/${rc.repo.name}`,
      body: html`${repoHeader(base, rc, "code")}
${codeNav(base, rc, "commits")}
<div class="history-head"><h2>Comparing ${side(v.base)} ${spec.direct ? ".." : "..."} ${side(v.head)}</h2>
<p class="muted small">${
        spec.direct
          ? html`The two trees compared directly. <a href="${other}">Compare from where they diverged instead</a>.`
          : html`The changes of ${v.head.name} since it diverged from ${v.base.name}. <a href="${other}">Compare the two trees directly instead</a>.`
      }</p></div>
${
  v.mergeBase === undefined
    ? html`<div class="box"><p class="empty">${v.base.name} and ${v.head.name} have entirely different histories.</p></div>`
    : html`<section aria-labelledby="compare-commits"><h2 id="compare-commits">Commits <span class="counter">${v.totalCommits}</span></h2>${
        v.commits.length
          ? commitTable(env, base, rc, v.commits, `Commits of ${v.head.name} not in ${v.base.name}`)
          : html`<div class="box"><p class="empty">${v.head.name} has no commits that ${v.base.name} does not have.</p></div>`
      }${
        v.totalCommits > COMPARE_MAX_COMMITS
          ? html`<p class="muted small">The ${COMPARE_MAX_COMMITS} newest of ${v.totalCommits} commits are listed; the rest are in <a href="${at}/commits/${
              v.head.kind === "commit" ? "commit" : v.head.kind
            }/${escapePath(v.head.kind === "commit" ? v.head.sha : v.head.name)}">the history of ${v.head.name}</a>.</p>`
          : ""
      }</section>
${v.diff ? diffSection(ctx.url, { repo: at, oldCommit: spec.direct ? v.base.sha : v.mergeBase, newCommit: v.head.sha }, v.diff) : ""}`
}`,
    });
  },
});
