import type { MilestoneRow } from "../../../../db/schema/index.ts";
import { listMilestones, milestoneById } from "../../../../services/milestone/milestones.ts";
import { renderMarkdown } from "../../../../services/markup/markdown.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import { html, trusted, type Html } from "../../../../lib/html.ts";
import { page } from "../../page.ts";
import { repoHeader, repoPath } from "../../views/repo-header.ts";
import { pageNumber, pager } from "../../views/pager.ts";
import { dateOnly, timeAgo } from "../../views/time.ts";
import { issueListPage, trackerNav } from "./issues.ts";
import type { IssuePage } from "./issue-view.ts";

/** Gitea's reqRepoIssuesOrPullsReader: milestones hold issues and pull requests alike. */
const readTracker = { scope: "public", signIn: false, repo: { read: "tracker" } } as const;

/** Gitea's Milestone.Completeness: the share of its issues and pull requests that are closed. */
function completeness(m: MilestoneRow): number {
  return m.numIssues > 0 ? Math.floor((m.numClosedIssues * 100) / m.numIssues) : 0;
}

/** Progress as a <progress> element (no inline style needed) with the same in words. */
function progress(m: MilestoneRow): Html {
  const pct = completeness(m);
  return html`<div class="milestone-progress"><progress max="100" value="${pct}" aria-label="${m.name}: ${pct}% complete">${pct}%</progress> <span>${pct}% complete</span></div>`;
}

/** Due date, overdue, closed or none, in words. */
function dueText(m: MilestoneRow): Html {
  if (m.isClosed && m.closedDateUnix > 0) return html`<span>Closed ${timeAgo(m.closedDateUnix)}</span>`;
  if (m.deadlineUnix <= 0) return html`<span>No due date</span>`;
  const overdue = !m.isClosed && m.deadlineUnix < Date.now() / 1000;
  return html`<span class="${overdue ? "overdue" : ""}">${overdue ? "Past due" : "Due by"} <time datetime="${dateOnly(m.deadlineUnix)}">${dateOnly(m.deadlineUnix)}</time></span>`;
}

async function description(ctx: IssuePage, rc: RepoContext, m: MilestoneRow): Promise<Html> {
  if (!m.content.trim()) return html``;
  return html`<div class="markup">${trusted(await renderMarkdown(ctx.env, m.content, { mode: "comment", viewer: ctx.doer, repo: rc }))}</div>`;
}

/** One milestone: its name and state, progress, counts (each a link to that part of its list), due date and description. */
function milestoneBlock(at: string, m: MilestoneRow, desc: Html, headingLevel: "h2" | "h3"): Html {
  const open = m.numIssues - m.numClosedIssues;
  const name = html`<a href="${at}/milestone/${m.id}">${m.name}</a>`;
  return html`<div class="milestone">
${headingLevel === "h3" ? html`<h3>${name}</h3>` : html`<h2>${m.name}</h2>`}${m.isClosed ? html` <span class="tag">Closed</span>` : ""}
${progress(m)}
<p class="milestone-meta small">${dueText(m)} · <a href="${at}/milestone/${m.id}?state=open">${open} open</a> · <a href="${at}/milestone/${m.id}?state=closed">${m.numClosedIssues} closed</a> · updated ${timeAgo(
    m.updatedUnix,
  )}</p>
${desc}
</div>`;
}

/** `/{owner}/{repo}/milestones`: open or closed milestones (`state=`), searched by name (`q=`), a page at a time. */
export const milestones = page({
  access: readTracker,
  async handler(ctx) {
    const { env, base, repo: rc } = ctx;
    const closed = ctx.query.get("state") === "closed";
    const q = ctx.query.get("q")?.trim() || undefined;
    const perPage = env.settings.ui.issuePagingNum;
    const pageNo = pageNumber(ctx.query);
    const list = listMilestones(env, rc, { state: closed ? "closed" : "open", name: q }, { limit: perPage, offset: (pageNo - 1) * perPage });
    const counts = (state: string) => listMilestones(env, rc, { state, name: q }, { limit: 0, offset: 0 }).total;
    const [openCount, closedCount] = closed ? [counts("open"), list.total] : [list.total, counts("closed")];
    const at = repoPath(base, rc);
    const descs = await Promise.all(list.rows.map((m) => description(ctx, rc, m)));
    const stateLink = (state: "open" | "closed", label: Html) => {
      const params = new URLSearchParams({ state });
      if (q) params.set("q", q);
      return html`<a href="?${params.toString()}"${(state === "closed") === closed ? html` aria-current="page"` : ""}>${label}</a>`;
    };
    return ctx.render({
      title: `Milestones - ${rc.owner.name}/${rc.repo.name}`,
      body: html`${repoHeader(base, rc, "issues")}
<div class="list-head"><nav class="filters state-tabs" aria-label="State">${stateLink("open", html`<strong>${openCount}</strong> Open`)}${stateLink(
        "closed",
        html`<strong>${closedCount}</strong> Closed`,
      )}</nav>${trackerNav(ctx, "milestones")}</div>
<h2 class="sr-only">Milestones</h2>
<form class="issue-filters" method="get" role="search" aria-label="Search milestones"><input type="hidden" name="state" value="${closed ? "closed" : "open"}">
<div class="filter-search"><label class="sr-only" for="f-q">Search milestones</label><input id="f-q" type="search" name="q" value="${q ?? ""}" placeholder="Search milestones…"><button type="submit" class="primary">Search</button></div></form>
${
  list.rows.length
    ? html`<div class="box"><ul class="milestone-list">${list.rows.map((m, i) => html`<li>${milestoneBlock(at, m, descs[i]!, "h3")}</li>`)}</ul></div>`
    : html`<div class="box"><p class="empty">${q ? "No milestones match this search." : closed ? "There are no closed milestones." : "There are no open milestones."}</p></div>`
}
${pager(ctx.url, pageNo, perPage, list.total)}`,
    });
  },
});

/** `/{owner}/{repo}/milestone/{id}`: a milestone and its issues and pull requests, filtered as the lists are. */
export const milestone = page({
  access: readTracker,
  async handler(ctx) {
    const rc = ctx.repo;
    const m = milestoneById(ctx.env, rc, ctx.params.id ?? "");
    const head = html`<div class="milestone-head">${milestoneBlock(repoPath(ctx.base, rc), m, await description(ctx, rc, m), "h2")}</div>`;
    return issueListPage(ctx, "milestone", { row: m, head });
  },
});
