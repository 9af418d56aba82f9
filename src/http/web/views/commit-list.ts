import type { Env } from "../../../services/env.ts";
import type { CommitView } from "../../../services/repo/commits.ts";
import type { RepoContext } from "../../../services/repo/lookup.ts";
import { html, type Html } from "../../../lib/html.ts";
import { avatarImg } from "../layout.ts";
import { repoPath } from "./repo-header.ts";
import { timeAgo } from "./time.ts";

/** A commit message's first line (its title) and the rest, trimmed. */
export function splitMessage(message: string): { title: string; body: string } {
  const nl = message.indexOf("\n");
  if (nl < 0) return { title: message.trim(), body: "" };
  return { title: message.slice(0, nl).trim(), body: message.slice(nl + 1).trim() };
}

/** Gitea's short commit id: the first ten hex digits. */
export const shortSha = (sha: string) => sha.slice(0, 10);

/** Who made a commit: the account behind its author address (avatar and link), else the name it carries. */
export function commitAuthor(env: Env, base: string, view: CommitView, size = 20): Html {
  const user = view.author;
  if (user) return html`<a class="author" href="${base}/${encodeURIComponent(user.name)}">${avatarImg(env, user, size)} ${user.name}</a>`;
  return html`<span class="author">${avatarImg(env, { avatar: "", name: view.commit.author.name }, size)} ${view.commit.author.name}</span>`;
}

/**
 * Commits as a table (Gitea's commits_table): author, short id linked to the commit's page, the
 * title (the rest of the message behind a <details>), and when it was committed.
 */
export function commitTable(env: Env, base: string, rc: Pick<RepoContext, "owner" | "repo">, commits: CommitView[], caption: string): Html {
  const at = repoPath(base, rc);
  const rows = commits.map((view) => {
    const c = view.commit;
    const { title, body } = splitMessage(c.message);
    return html`<tr>
<td class="who">${commitAuthor(env, base, view)}</td>
<td class="sha"><a class="mono" href="${at}/commit/${c.oid}">${shortSha(c.oid)}</a></td>
<td class="title"><a href="${at}/commit/${c.oid}">${title || "(no message)"}</a>${
      body ? html` <details class="commit-body"><summary><span aria-hidden="true">…</span><span class="sr-only">Full message</span></summary><pre>${body}</pre></details>` : ""
    }</td>
<td class="age">${timeAgo(c.committer.unix)}</td>
</tr>`;
  });
  return html`<div class="box"><table class="list commits"><caption class="sr-only">${caption}</caption>
<thead><tr><th scope="col">Author</th><th scope="col">Commit</th><th scope="col">Message</th><th scope="col" class="age">Date</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

export type CodeNav = "commits" | "branches" | "tags";

/** The links between a repository's history pages: commits, branches, tags. */
export function codeNav(base: string, rc: Pick<RepoContext, "owner" | "repo">, current: CodeNav, commitsHref?: string): Html {
  const at = repoPath(base, rc);
  const link = (id: CodeNav, href: string, label: string) => html`<a href="${href}"${current === id ? html` aria-current="page"` : ""}>${label}</a>`;
  return html`<nav class="filters code-nav" aria-label="History">${link("commits", commitsHref ?? `${at}/commits`, "Commits")}${link("branches", `${at}/branches`, "Branches")}${link("tags", `${at}/tags`, "Tags")}</nav>`;
}

/** Newer / older links of a list read one page past the current one (no total to count). */
export function olderNewer(url: URL, page: number, hasNext: boolean): Html {
  if (page <= 1 && !hasNext) return html``;
  const href = (n: number) => {
    const q = new URLSearchParams(url.search);
    if (n <= 1) q.delete("page");
    else q.set("page", String(n));
    const s = q.toString();
    return s ? `?${s}` : url.pathname;
  };
  return html`<nav class="pager" aria-label="Pages">${page > 1 ? html`<a href="${href(page - 1)}" rel="prev">Newer</a>` : ""}<span aria-current="page">Page ${page}</span>${
    hasNext ? html`<a href="${href(page + 1)}" rel="next">Older</a>` : ""
  }</nav>`;
}
