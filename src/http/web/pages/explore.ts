import { html, type Html } from "../../../lib/html.ts";
import { NotFound } from "../../../lib/errors.ts";
import { searchRepos } from "../../../services/repo/list.ts";
import { exploreOrgs, exploreUsers } from "../../../services/user/explore.ts";
import type { Doer } from "../../../services/access/permission.ts";
import { page, type PageContext } from "../page.ts";
import { repoList } from "../views/repo-list.ts";
import { pageNumber, pager } from "../views/pager.ts";
import { accountList } from "../views/account-list.ts";
import { ACCOUNT_ORDERS, accountOrder, keywordOf, REPO_ORDER_LABELS, repoSearchOf, searchForm } from "../views/list-search.ts";

const anyone = { scope: "public", signIn: false } as const;

type ExploreTab = "repos" | "users" | "organizations";

/** The explore pages' head: one heading and the three lists as tabs. */
function exploreHead(base: string, current: ExploreTab): Html {
  const tab = (id: ExploreTab, label: string) =>
    html`<a href="${base}/explore/${id}"${current === id ? html` aria-current="page"` : ""}>${label}</a>`;
  return html`<h1>Explore</h1>
<nav class="tabs" aria-label="Explore">${tab("repos", "Repositories")}${tab("users", "Users")}${tab("organizations", "Organizations")}</nav>`;
}

function countLine(total: number, one: string, many: string, keyword: string): Html {
  return html`<p class="muted small list-count" role="status">${total} ${total === 1 ? one : many}${keyword ? html` matching “${keyword}”` : ""}</p>`;
}

/** `/explore`: Gitea sends it to the repositories. */
export const explore = page({
  access: anyone,
  handler: (ctx) => ctx.redirect("/explore/repos"),
});

/**
 * `/explore/repos`: every repository the visitor may see, searched by name, topic and description
 * and ordered as Gitea's explore page (`q`, `sort`, `page`), through the same search as the API's
 * /repos/search.
 */
export const exploreRepos = page({
  access: anyone,
  handler(ctx) {
    const { env, base, doer, query } = ctx;
    const perPage = env.settings.ui.explorePagingNum;
    const { keyword, order, pageNo, search } = repoSearchOf(query, doer !== undefined, perPage);
    const { rows, total } = searchRepos(env, doer, search);
    return ctx.render({
      title: "Explore repositories",
      body: html`${exploreHead(base, "repos")}
${searchForm({ action: `${base}/explore/repos`, keyword, label: "Search repositories", sort: order.name, orders: REPO_ORDER_LABELS })}
${countLine(total, "repository", "repositories", keyword)}
${repoList(base, rows, keyword ? "No repository matches your search." : "There are no repositories to show.")}
${pager(ctx.url, pageNo, perPage, total)}`,
    });
  },
});

function accountsPage(ctx: PageContext & { doer: Doer | undefined }, tab: "users" | "organizations"): Response {
  const { env, base, query, doer } = ctx;
  const order = accountOrder(query);
  // Gitea's explore users and organizations pages answer 404 to an order they do not offer.
  if (!order) throw new NotFound("unsupported sort order");
  const perPage = env.settings.ui.explorePagingNum;
  const pageNo = pageNumber(query);
  const keyword = keywordOf(query);
  const input = { keyword, order, offset: (pageNo - 1) * perPage, limit: perPage };
  const { rows, total } = tab === "users" ? exploreUsers(env, doer, input) : exploreOrgs(env, doer, input);
  const [one, many, title] = tab === "users" ? ["user", "users", "Explore users"] : ["organization", "organizations", "Explore organizations"];
  return ctx.render({
    title,
    body: html`${exploreHead(base, tab)}
${searchForm({ action: `${base}/explore/${tab}`, keyword, label: `Search ${many}`, sort: order, orders: ACCOUNT_ORDERS })}
${countLine(total, one, many, keyword)}
${accountList(env, base, rows, { empty: keyword ? `No ${one} matches your search.` : `There are no ${many} to show.`, viewer: doer })}
${pager(ctx.url, pageNo, perPage, total)}`,
  });
}

/** `/explore/users`: active users the visitor may see (`q` matches name and full name; `sort`: newest, oldest, alphabetically, reversealphabetically). */
export const exploreUsersPage = page({
  access: anyone,
  handler: (ctx) => accountsPage(ctx, "users"),
});

/** `/explore/organizations`: organizations the visitor may see, its own private ones included. */
export const exploreOrgsPage = page({
  access: anyone,
  handler: (ctx) => accountsPage(ctx, "organizations"),
});
