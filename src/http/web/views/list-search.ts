import type { RepoSort } from "../../../models/repo.ts";
import type { AccountOrder } from "../../../services/user/explore.ts";
import { html, type Html } from "../../../lib/html.ts";
import { pageNumber } from "./pager.ts";

/** Gitea's `sort` values for repository lists (explore, profiles, organizations) and what each orders by. */
export const REPO_ORDERS = {
  recentupdate: { label: "Recently updated", sort: "updated", descending: true },
  leastupdate: { label: "Least recently updated", sort: "updated", descending: false },
  newest: { label: "Newest", sort: "created", descending: true },
  oldest: { label: "Oldest", sort: "created", descending: false },
  alphabetically: { label: "Alphabetically", sort: "alpha", descending: false },
  reversealphabetically: { label: "Reverse alphabetically", sort: "alpha", descending: true },
  moststars: { label: "Most stars", sort: "stars", descending: true },
  feweststars: { label: "Fewest stars", sort: "stars", descending: false },
  mostforks: { label: "Most forks", sort: "forks", descending: true },
  fewestforks: { label: "Fewest forks", sort: "forks", descending: false },
  size: { label: "Smallest", sort: "size", descending: false },
  reversesize: { label: "Largest", sort: "size", descending: true },
} as const satisfies Record<string, { label: string; sort: RepoSort; descending: boolean }>;

export type RepoOrderName = keyof typeof REPO_ORDERS;

/** The order a repository list's `?sort=` asks for; anything else is Gitea's default, recently updated. */
export function repoOrder(query: URLSearchParams): { name: RepoOrderName; sort: RepoSort; descending: boolean } {
  const asked = query.get("sort") ?? "";
  const name: RepoOrderName = Object.hasOwn(REPO_ORDERS, asked) ? (asked as RepoOrderName) : "recentupdate";
  return { name, sort: REPO_ORDERS[name].sort, descending: REPO_ORDERS[name].descending };
}

/** The orders Gitea offers on the explore users and organizations pages (default newest; any other is a 404 there). */
export const ACCOUNT_ORDERS: Record<AccountOrder, string> = {
  newest: "Newest",
  oldest: "Oldest",
  alphabetically: "Alphabetically",
  reversealphabetically: "Reverse alphabetically",
};

/** The account order of `?sort=`, `newest` when missing, undefined when Gitea would refuse it. */
export function accountOrder(query: URLSearchParams): AccountOrder | undefined {
  const asked = query.get("sort") || "newest";
  return Object.hasOwn(ACCOUNT_ORDERS, asked) ? (asked as AccountOrder) : undefined;
}

/** The search keyword of `?q=`, trimmed. */
export function keywordOf(query: URLSearchParams): string {
  return (query.get("q") ?? "").trim();
}

export interface SearchFormOptions {
  /** The list's path (the form's action). */
  action: string;
  keyword: string;
  /** What the search box finds, for its label ("Search repositories"). */
  label: string;
  sort: string;
  orders: Record<string, string>;
  /** Other parameters the list keeps (a profile's `tab`). */
  hidden?: Record<string, string>;
}

/**
 * A list's search and order: a GET form (so it works without scripts and its result is a link),
 * a labelled search box, a labelled order selector and a button.
 */
export function searchForm(o: SearchFormOptions): Html {
  return html`<form class="inline-form list-search" method="get" action="${o.action}" role="search">
${Object.entries(o.hidden ?? {}).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}
<label class="sr-only" for="list-q">${o.label}</label>
<input id="list-q" type="search" name="q" value="${o.keyword}" placeholder="${o.label}…" maxlength="255">
<label class="sr-only" for="list-sort">Sort</label>
<select id="list-sort" name="sort">${Object.entries(o.orders).map(
    ([value, label]) => html`<option value="${value}"${value === o.sort ? html` selected` : ""}>${label}</option>`,
  )}</select>
<button type="submit">Search</button>
</form>`;
}

/** The repository orders as the selector lists them: Gitea's menu, without the size ones it hides. */
export const REPO_ORDER_LABELS: Record<string, string> = Object.fromEntries(
  Object.entries(REPO_ORDERS)
    .filter(([name]) => name !== "size" && name !== "reversesize")
    .map(([name, o]) => [name, o.label]),
);

/**
 * What a repository list's query asks of the search (`q`, `sort`, `page`), as every repository
 * list searches: names, topics and descriptions, Gitea's explore rule that the anonymous see only
 * public repositories of public owners (`onlyPublic`), and the page's window.
 */
export function repoSearchOf(query: URLSearchParams, signedIn: boolean, perPage: number) {
  const keyword = keywordOf(query);
  const order = repoOrder(query);
  const pageNo = pageNumber(query);
  return {
    keyword,
    order,
    pageNo,
    search: {
      keyword: keyword || undefined,
      includeDescription: true,
      sort: order.sort,
      descending: order.descending,
      onlyPublic: !signedIn,
      offset: (pageNo - 1) * perPage,
      limit: perPage,
    },
  };
}
