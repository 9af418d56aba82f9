import type { RepoRow } from "../../../db/schema/index.ts";
import { html, type Html } from "../../../lib/html.ts";
import { timeAgo } from "./time.ts";

/** One repository in a list: name, its badges, description and counts. */
export function repoItem(base: string, repo: RepoRow, showOwner = true): Html {
  const href = `${base}/${encodeURIComponent(repo.ownerName)}/${encodeURIComponent(repo.name)}`;
  const badges = [
    repo.isPrivate ? html`<span class="tag">Private</span>` : "",
    repo.isArchived ? html`<span class="tag">Archived</span>` : "",
    repo.isFork ? html`<span class="tag">Fork</span>` : "",
    repo.isTemplate ? html`<span class="tag">Template</span>` : "",
  ];
  return html`<li><div><a href="${href}"><strong>${showOwner ? `${repo.ownerName}/` : ""}${repo.name}</strong></a> ${badges}</div>
${repo.description ? html`<div class="muted">${repo.description}</div>` : ""}
<div class="stats small"><span>★ ${repo.numStars}</span><span>Forks ${repo.numForks}</span><span>Updated ${timeAgo(repo.updatedUnix)}</span></div></li>`;
}

/** A box of repositories, or a line saying there are none. */
export function repoList(base: string, repos: RepoRow[], empty: string, showOwner = true): Html {
  if (!repos.length) return html`<div class="box"><p class="empty">${empty}</p></div>`;
  return html`<div class="box"><ul>${repos.map((r) => repoItem(base, r, showOwner))}</ul></div>`;
}
