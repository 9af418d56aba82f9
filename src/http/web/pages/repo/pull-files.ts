/**
 * A pull request's changes (Gitea's ViewPullFiles, paged as a commit's diff) and commits (Gitea's
 * ViewPullCommits), and `pullDiffOrPatch` for `/pulls/{index}.diff` and `.patch` (Gitea's
 * DownloadPullDiff/DownloadPullPatch), which the router cannot tell from `/pulls/{index}`: the
 * conversation page's handler calls it when the index ends in `.diff` or `.patch`.
 */
import { html, type Html } from "../../../../lib/html.ts";
import { NotFound } from "../../../../lib/errors.ts";
import type { Doer } from "../../../../services/access/permission.ts";
import { assertRepoAccess } from "../../../../services/access/repo-access.ts";
import { pullCommits, pullDiffOrPatch as pullDiffText } from "../../../../services/pull/changes.ts";
import { pullDiffPage, pullFileCount } from "../../../../services/pull/files-view.ts";
import { pullFromPath, sideOf, type PullContext } from "../../../../services/pull/lookup.ts";
import { getUserById } from "../../../../services/user/lookup.ts";
import { repoByPath } from "../../../access.ts";
import { webRedirect } from "../../../doors/web.ts";
import { page, type PageContext } from "../../page.ts";
import { escapePath, repoHeader, repoPath } from "../../views/repo-header.ts";
import { pageNumber, pager } from "../../views/pager.ts";
import { timeAgo } from "../../views/time.ts";
import { commitTable } from "../../views/commit-list.ts";
import { diffSection } from "../../views/diff.ts";
import { plainText } from "./commit.ts";

const readPull = { scope: "public", signIn: false, repo: { read: "pulls" }, pull: true } as const;

type PullTab = "files" | "commits";

/** The head of a pull request's pages: title, state, the branches, and the tabs. */
function pullHead(ctx: PageContext & { doer: Doer | undefined }, pc: PullContext, current: PullTab, counts: { files?: number; commits?: number }): Html {
  const { base, env } = ctx;
  const { issue, pull } = pc;
  const at = repoPath(base, pc);
  const state = pull.hasMerged ? "merged" : issue.isClosed ? "closed" : "open";
  const word = { merged: "Merged", closed: "Closed", open: "Open" }[state];
  const head = sideOf(env, ctx.doer, pull.headRepoId);
  const headLabel = head && head.repo.id !== pc.repo.id ? `${head.owner.name}/${head.repo.name}:${pull.headBranch}` : pull.headBranch;
  const poster = issue.originalAuthor ? undefined : getUserById(env, issue.posterId);
  const who = issue.originalAuthor
    ? html`<span class="author">${issue.originalAuthor}</span>`
    : poster
      ? html`<a class="author" href="${base}/${encodeURIComponent(poster.name)}">${poster.name}</a>`
      : html`<span class="author">Ghost</span>`;
  const n = counts.commits;
  const commitsText = n === undefined ? "commits" : `${n} commit${n === 1 ? "" : "s"}`;
  const tab = (id: PullTab | "conversation", href: string, label: string, count?: number) =>
    html`<a href="${href}"${current === id ? html` aria-current="page"` : ""}>${label}${count !== undefined ? html` <span class="counter">${count}</span>` : ""}</a>`;
  const conv = `${at}/pulls/${issue.index}`;
  return html`${repoHeader(base, pc, "pulls")}
<div class="issue-head">
<h2 class="issue-title">${issue.title} <span class="muted">#${issue.index}</span></h2>
<p class="issue-state"><span class="state ${state}">${word}</span> ${who} ${pull.hasMerged ? "merged" : "wants to merge"} ${commitsText} from <code>${headLabel}</code> into <a href="${at}/src/branch/${escapePath(
    pull.baseBranch,
  )}"><code>${pull.baseBranch}</code></a>${pull.hasMerged && pull.mergedUnix ? html` ${timeAgo(pull.mergedUnix)}` : ""}</p>
</div>
<nav class="tabs pull-tabs" aria-label="Pull request">${tab("conversation", conv, "Conversation", issue.numComments)}${tab("commits", `${conv}/commits`, "Commits", counts.commits)}${tab(
    "files",
    `${conv}/files`,
    "Files changed",
    counts.files,
  )}</nav>`;
}

/** `/pulls/{index}/files`: the changes from the merge base to the head, a page at a time. */
export const pullFiles = page({
  access: readPull,
  async handler(ctx) {
    const pc = ctx.pull;
    const { diff, commits } = await pullDiffPage(ctx.env, pc, pageNumber(ctx.query));
    const at = repoPath(ctx.base, pc);
    return ctx.render({
      title: `${pc.issue.title} - Files changed - Pull request #${pc.issue.index} - ${pc.owner.name}/${pc.repo.name}`,
      body: html`${pullHead(ctx, pc, "files", { files: diff.files.length, commits })}
${diffSection(ctx.url, { repo: at, oldCommit: diff.from === diff.to ? undefined : diff.from, newCommit: diff.to }, diff)}`,
    });
  },
});

/** `/pulls/{index}/commits`: the request's commits, newest first, a page at a time. */
export const pullCommitList = page({
  access: readPull,
  async handler(ctx) {
    const pc = ctx.pull;
    const perPage = ctx.env.settings.ui.commitsPagingNum;
    const pageNo = pageNumber(ctx.query);
    const [{ items, total }, files] = await Promise.all([
      pullCommits(ctx.env, pc, { offset: (pageNo - 1) * perPage, limit: perPage }, { files: false, verification: false }),
      pullFileCount(ctx.env, pc),
    ]);
    if (pageNo > 1 && items.length === 0) throw new NotFound();
    return ctx.render({
      title: `${pc.issue.title} - Commits - Pull request #${pc.issue.index} - ${pc.owner.name}/${pc.repo.name}`,
      body: html`${pullHead(ctx, pc, "commits", { commits: total, files })}
<h3 class="sr-only">Commits</h3>
${items.length ? commitTable(ctx.env, ctx.base, pc, items, `Commits of pull request #${pc.issue.index}`) : html`<div class="box"><p class="empty">This pull request has no commits.</p></div>`}
${pager(ctx.url, pageNo, perPage, total)}`,
    });
  },
});

/** Go's strconv.ParseBool trues, as Gitea's FormBool reads `?binary=`. */
const TRUE = new Set(["1", "t", "T", "TRUE", "true", "True"]);

/**
 * `/{owner}/{repo}/pulls/{index}.diff` and `.patch` (`index` given without the suffix): the
 * request's diff (`?binary=true` for binary patches git can apply) or its commits as mails, as
 * plain text. The page routed there declared no pull request (the router handed it `7.diff`), so
 * the repository and the request are resolved and checked here, through the same services as the
 * declared resolver: the repository as the doer may see it (a renamed one redirects), the pull
 * requests unit readable (404), then the code (404 on the web), then the request itself.
 */
export async function pullDiffOrPatch(ctx: PageContext & { doer: Doer | undefined }, owner: string, repo: string, index: string, kind: "diff" | "patch"): Promise<Response> {
  const rc = repoByPath(ctx.env, ctx.doer, { owner, repo }, (moved) => webRedirect(ctx.base, moved, ctx.url));
  assertRepoAccess(rc, ctx.doer, { read: "pulls" });
  const pc = pullFromPath(ctx.env, rc, index);
  return plainText(await pullDiffText(ctx.env, pc, kind === "patch", TRUE.has(ctx.query.get("binary") ?? "")));
}
