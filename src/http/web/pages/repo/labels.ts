import type { LabelRow } from "../../../../db/schema/index.ts";
import { labelSort, listLabels } from "../../../../services/label/labels.ts";
import { UserType } from "../../../../services/user/visibility.ts";
import { html, type Html } from "../../../../lib/html.ts";
import { page } from "../../page.ts";
import { repoHeader, repoPath } from "../../views/repo-header.ts";
import { pageNumber, pager } from "../../views/pager.ts";
import { labelChip } from "../../views/label.ts";
import { trackerNav } from "./issues.ts";

/** Labels a page (Gitea shows them all; a page holds more than any hand-kept set). */
const LABELS_PAGE = 100;

const SORTS: [string, string][] = [
  ["alphabetically", "Alphabetically"],
  ["reversealphabetically", "Reverse alphabetically"],
  ["leastissues", "Fewest issues"],
  ["mostissues", "Most issues"],
];

/**
 * `/{owner}/{repo}/labels`: the repository's labels, then its organization's, each with its
 * description and its open issues and pull requests (a link to the list filtered by it).
 */
export const labels = page({
  access: { scope: "public", signIn: false, repo: { read: "tracker" } },
  handler(ctx) {
    const { env, base, repo: rc } = ctx;
    const sortParam = ctx.query.get("sort") ?? undefined;
    const sort = labelSort(sortParam);
    const pageNo = pageNumber(ctx.query);
    const offset = (pageNo - 1) * LABELS_PAGE;
    const at = repoPath(base, rc);
    const list = rc.perm.canRead("issues") ? "issues" : "pulls";
    // One list over both: the repository's labels first, then the organization's, paged together.
    const own = listLabels(env, { repoId: rc.repo.id }, sort, { limit: LABELS_PAGE, offset });
    const isOrg = rc.owner.type === UserType.Organization;
    const orgTotal = isOrg ? listLabels(env, { orgId: rc.owner.id }, sort, { limit: 0, offset: 0 }).total : 0;
    const left = LABELS_PAGE - own.rows.length;
    const org =
      isOrg && left > 0 ? listLabels(env, { orgId: rc.owner.id }, sort, { limit: left, offset: Math.max(0, offset - own.total) }).rows : [];
    const total = own.total + orgTotal;

    const row = (l: LabelRow): Html => {
      const open = l.numIssues - l.numClosedIssues;
      const href = `${at}/${list}?labels=${l.id}`;
      return html`<li class="label-row"><div class="label-name">${labelChip(l, href)}${l.archivedUnix > 0 ? html` <span class="tag">Archived</span>` : ""}</div>
<div class="label-desc">${l.description || html`<span class="muted">No description</span>`}</div>
<div class="label-count"><a href="${href}">${open} open ${open === 1 ? "issue or pull request" : "issues and pull requests"}</a></div></li>`;
    };
    const section = (title: string, id: string, rows: LabelRow[]) =>
      rows.length ? html`<section aria-labelledby="${id}"><h3 id="${id}" class="list-title">${title}</h3><div class="box"><ul class="label-list">${rows.map(row)}</ul></div></section>` : "";
    const sortLinks = html`<nav class="filters" aria-label="Sort labels">Sort: ${SORTS.map(
      ([value, label]) => html`<a href="?sort=${value}"${sort === value ? html` aria-current="page"` : ""}>${label}</a>`,
    )}</nav>`;

    return ctx.render({
      title: `Labels - ${rc.owner.name}/${rc.repo.name}`,
      body: html`${repoHeader(base, rc, "issues")}
<div class="list-head"><h2 class="list-title">${total} ${total === 1 ? "label" : "labels"}</h2>${trackerNav(ctx, "labels")}</div>
${total ? sortLinks : ""}
${total === 0 ? html`<div class="box"><p class="empty">This repository has no labels yet.</p></div>` : ""}
${section("Repository labels", "labels-repo", own.rows)}
${section(`Labels of ${rc.owner.name}`, "labels-org", org)}
${pager(ctx.url, pageNo, LABELS_PAGE, total)}`,
    });
  },
});
