import type { MilestoneRow } from "../../../../db/schema/index.ts";
import type { Doer } from "../../../../services/access/permission.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import { listIssuesForWeb } from "../../../../services/issue/web-list.ts";
import { listLabels } from "../../../../services/label/labels.ts";
import { listMilestones } from "../../../../services/milestone/milestones.ts";
import { repoAssignees } from "../../../../services/repo/people.ts";
import { UserType } from "../../../../services/user/visibility.ts";
import { html, type Html, type HtmlValue } from "../../../../lib/html.ts";
import { page, type PageContext } from "../../page.ts";
import { repoHeader, repoPath, type RepoTab } from "../../views/repo-header.ts";
import { pageNumber, pager } from "../../views/pager.ts";
import { filterForm, issueList, readListParams, stateTabs } from "../../views/issue-list.ts";

/** Labels and milestones offered by a list's filters: enough for any tracker people keep by hand. */
const FILTER_CHOICES = 200;

type RepoPage = PageContext & { repo: RepoContext; doer: Doer | undefined };

/** The labels of the repository, then those of its organization (Gitea's PrepareFilterIssueLabels). */
export function filterLabels(ctx: RepoPage) {
  const { env, repo: rc } = ctx;
  const own = listLabels(env, { repoId: rc.repo.id }, "alphabetically", { limit: FILTER_CHOICES, offset: 0 }).rows;
  const org =
    rc.owner.type === UserType.Organization ? listLabels(env, { orgId: rc.owner.id }, "alphabetically", { limit: FILTER_CHOICES, offset: 0 }).rows : [];
  return [...own, ...org];
}

/** The Issues and Pull requests pages' shared sub-navigation: labels and milestones (Gitea's navbar.tmpl). */
export function trackerNav(ctx: RepoPage, current: "labels" | "milestones" | "none"): Html {
  const at = repoPath(ctx.base, ctx.repo);
  const link = (id: "labels" | "milestones", label: string) =>
    html`<a class="button" href="${at}/${id}"${current === id ? html` aria-current="page"` : ""}>${label}</a>`;
  const { perm } = ctx.repo;
  return perm.canRead("issues") || perm.canRead("pulls") ? html`<nav class="tracker-nav" aria-label="Issue tracker">${link("labels", "Labels")}${link("milestones", "Milestones")}</nav>` : html``;
}

/**
 * A list of issues, of pull requests, or of a milestone's both (Gitea's Issues and
 * MilestoneIssuesAndPulls): the state tabs with their counts, the filter form, the rows and the
 * pager, `ISSUE_PAGING_NUM` a page.
 */
export function issueListPage(ctx: RepoPage, kind: "issues" | "pulls" | "milestone", milestone?: { row: MilestoneRow; head: HtmlValue }): Response {
  const { env, base, repo: rc, doer } = ctx;
  const params = readListParams(ctx.query);
  const perPage = env.settings.ui.issuePagingNum;
  const pageNo = pageNumber(ctx.query);
  const result = listIssuesForWeb(env, rc, {
    kind: kind === "milestone" ? "both" : kind,
    state: params.state,
    labelIds: params.labels,
    milestoneId: milestone ? milestone.row.id : params.milestone,
    assignee: params.assignee,
    poster: params.poster,
    keyword: params.q,
    sort: params.sort,
    mine: doer ? params.type : undefined,
    doerId: doer?.id,
    offset: (pageNo - 1) * perPage,
    limit: perPage,
  });
  const milestones = kind === "milestone" ? [] : listMilestones(env, rc, {}, { limit: FILTER_CHOICES, offset: 0 }).rows;
  const noun = kind === "pulls" ? "pull requests" : kind === "issues" ? "issues" : "issues or pull requests";
  const filtered = params.labels.length || params.milestone !== undefined || params.assignee || params.poster || params.q || params.type;
  const tab: RepoTab = kind === "pulls" ? "pulls" : "issues";
  const title = milestone ? milestone.row.name : kind === "pulls" ? "Pull requests" : "Issues";
  const repoHref = repoPath(base, rc);
  return ctx.render({
    title: `${title} - ${rc.owner.name}/${rc.repo.name}`,
    body: html`${repoHeader(base, rc, tab)}
<div class="list-head">${stateTabs(params, result.state, result.open, result.closed)}${trackerNav(ctx, "none")}</div>
${milestone?.head ?? html`<h2 class="sr-only">${title}</h2>`}
${filterForm(params, {
  kind,
  labels: filterLabels(ctx),
  openMilestones: milestones.filter((m) => !m.isClosed),
  closedMilestones: milestones.filter((m) => m.isClosed),
  assignees: repoAssignees(env, rc),
  signedIn: doer !== undefined,
  state: result.state,
})}
${issueList(
  { env, base, repoHref, params },
  result.views,
  filtered ? `No ${noun} match these filters.` : result.state === "closed" ? `There are no closed ${noun}.` : `There are no ${result.state === "open" ? "open " : ""}${noun} yet.`,
)}
${pager(ctx.url, pageNo, perPage, result.total)}`,
  });
}

/** `/{owner}/{repo}/issues`: the repository's issues (pull requests have their own list). */
export const issues = page({
  access: { scope: "public", signIn: false, repo: { read: "issues" } },
  handler: (ctx) => issueListPage(ctx, "issues"),
});
