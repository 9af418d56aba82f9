import type { RepoContext } from "../../../services/repo/lookup.ts";
import { html, type Html } from "../../../lib/html.ts";
import { canEnablePulls } from "../../../services/access/repo-access.ts";

export type RepoTab = "code" | "issues" | "pulls" | "releases" | "commits" | "branches" | "tags" | "milestones" | "labels" | "actions" | "settings" | "none";

/** `/{owner}/{repo}` of this site, escaped, below `base`. */
export function repoPath(base: string, rc: Pick<RepoContext, "owner" | "repo">): string {
  return `${base}/${encodeURIComponent(rc.owner.name)}/${encodeURIComponent(rc.repo.name)}`;
}

/** A path below a repository whose segments (a branch, a file path) each stay one segment when escaped. */
export function escapePath(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

/**
 * The head of every repository page: owner/name with its badges, and the tabs of the units the
 * visitor may read (a unit switched off or out of the visitor's reach has no tab).
 */
export function repoHeader(base: string, rc: RepoContext, current: RepoTab): Html {
  const { repo, owner, perm } = rc;
  const at = repoPath(base, rc);
  const tab = (id: RepoTab, href: string, label: string, count?: number) =>
    html`<a href="${href}"${current === id ? html` aria-current="page"` : ""}>${label}${
      count !== undefined && count > 0 ? html` <span class="counter">${count}</span>` : ""
    }</a>`;
  const openIssues = repo.numIssues - repo.numClosedIssues;
  const openPulls = repo.numPulls - repo.numClosedPulls;
  return html`<div class="page-head"><h1><a href="${base}/${encodeURIComponent(owner.name)}">${owner.name}</a> / <a href="${at}"><strong>${repo.name}</strong></a></h1>
${repo.isPrivate ? html`<span class="tag">Private</span>` : ""}${repo.isArchived ? html`<span class="tag">Archived</span>` : ""}${
    repo.isTemplate ? html`<span class="tag">Template</span>` : ""
  }${repo.isFork ? html`<span class="tag">Fork</span>` : ""}${repo.isMirror ? html`<span class="tag">Mirror</span>` : ""}</div>
${repo.isMirror && repo.originalUrl ? mirrorOf(repo.originalUrl) : ""}
<nav class="tabs" aria-label="Repository">
${perm.canRead("code") ? tab("code", at, "Code") : ""}
${perm.canRead("issues") ? tab("issues", `${at}/issues`, "Issues", openIssues) : ""}
${canEnablePulls(repo) && perm.canRead("pulls") ? tab("pulls", `${at}/pulls`, "Pull requests", openPulls) : ""}
${perm.canRead("releases") ? tab("releases", `${at}/releases`, "Releases", repo.numReleases) : ""}
${perm.canRead("actions") && !repo.isEmpty ? tab("actions", `${at}/actions`, "Actions") : ""}
${perm.isAdmin() ? tab("settings", `${at}/settings`, "Settings") : ""}
</nav>`;
}

/**
 * Gitea's "mirror of <address>" under a pull mirror's name. The address was stored without
 * credentials; it is a link only when a browser can open it (http or https, never `javascript:`).
 */
function mirrorOf(address: string): Html {
  const link = /^https?:\/\//i.test(address);
  return html`<p class="small muted mirror-of">mirror of ${link ? html`<a href="${address}" rel="noopener noreferrer">${address}</a>` : html`<code>${address}</code>`}</p>`;
}
