import { html, type Html } from "../../../lib/html.ts";
import type { UserRow } from "../../../db/schema/index.ts";
import { UserType } from "../../../services/user/visibility.ts";
import type { Doer } from "../../../services/access/permission.ts";
import { searchRepos } from "../../../services/repo/list.ts";
import { listFollowers, listFollowing } from "../../../services/user/follow.ts";
import { profileAccount, profileOrgs, starredRepos } from "../../../services/user/explore.ts";
import { page, type PageContext } from "../page.ts";
import { avatarImg } from "../layout.ts";
import { repoList } from "../views/repo-list.ts";
import { pageNumber, pager } from "../views/pager.ts";
import { dateOnly } from "../views/time.ts";
import { accountList, accountPath, showsEmail, visibilityBadge, websiteLink } from "../views/account-list.ts";
import { keywordOf, REPO_ORDER_LABELS, repoOrder, searchForm } from "../views/list-search.ts";
import { avatarRedirect } from "./avatar.ts";
import { orgHome } from "./org.ts";

type Ctx = PageContext & { doer: Doer | undefined };
type ProfileTab = "repositories" | "stars" | "followers" | "following";

/**
 * `/{username}`: a user's profile or an organization's home, for a visitor who may see the account
 * (404 otherwise; a former name redirects to the current one). `/{username}.png` is the account's
 * avatar, as Gitea's UsernameSubRoute dispatches it.
 */
export const profile = page({
  access: { scope: "public", signIn: false },
  handler(ctx) {
    // The route is `/:owner`: a single-segment parameter must share the name git's `/:owner/:repo` routes give it.
    const name = ctx.params.owner ?? "";
    if (name.toLowerCase().endsWith(".png")) {
      const owner = name.slice(0, -4);
      return avatarRedirect(ctx, owner, 0, (current) => `/${encodeURIComponent(current)}.png`);
    }
    const account = profileAccount(ctx.env, ctx.doer, name);
    return account.type === UserType.Organization ? orgHome(ctx, account) : userProfile(ctx, account);
  },
});

function tabOf(ctx: Ctx): ProfileTab {
  const asked = ctx.query.get("tab");
  if (asked === "stars" && !ctx.env.settings.repository.disableStars) return "stars";
  if (asked === "followers" || asked === "following") return asked;
  // Gitea's default (and what it shows for "overview" without a profile README).
  return "repositories";
}

/** The card beside a user's lists: avatar, names, counts, and what the user tells about themself. */
function userCard(ctx: Ctx, user: UserRow, counts: { followers: number; following: number }, orgs: UserRow[]): Html {
  const { env, base } = ctx;
  const at = accountPath(base, user);
  const facts: Html[] = [];
  if (user.location) facts.push(html`<li><span class="sr-only">Location: </span>${user.location}</li>`);
  if (showsEmail(user, ctx.doer)) facts.push(html`<li><span class="sr-only">Email: </span><a href="mailto:${user.email}">${user.email}</a></li>`);
  const site = websiteLink(user.website);
  if (site) facts.push(html`<li><span class="sr-only">Website: </span>${site}</li>`);
  facts.push(html`<li>Joined on <time datetime="${new Date(user.createdUnix * 1000).toISOString()}">${dateOnly(user.createdUnix)}</time></li>`);
  return html`<aside class="profile-card" aria-label="About ${user.name}">
${avatarImg(env, user, 200)}
<h1>${
    user.fullName ? html`<span class="full-name">${user.fullName}</span> <span class="user-name">${user.name}</span>` : html`<span class="full-name">${user.name}</span>`
  }</h1>
${visibilityBadge(user)}
<p class="small"><a href="${at}?tab=followers">${counts.followers} ${counts.followers === 1 ? "follower" : "followers"}</a> · <a href="${at}?tab=following">${counts.following} following</a></p>
${user.description ? html`<p class="account-description">${user.description}</p>` : ""}
<ul class="facts small">${facts}</ul>
${
  orgs.length
    ? html`<section aria-labelledby="orgs-title"><h2 id="orgs-title">Organizations</h2><ul class="avatar-grid">${orgs.map(
        (o) => html`<li><a href="${accountPath(base, o)}" title="${o.fullName || o.name}">${avatarImg(env, o, 32, false)}</a></li>`,
      )}</ul></section>`
    : ""
}
</aside>`;
}

/**
 * A user's profile (Gitea's userProfile): the card, then one tab of lists — the repositories the user
 * owns and the visitor may see (searchable, ordered, paged), their starred repositories, their
 * followers or the accounts they follow, each as the visitor may see them.
 */
function userProfile(ctx: Ctx, user: UserRow): Response {
  const { env, base, doer, query } = ctx;
  const tab = tabOf(ctx);
  const perPage = env.settings.ui.explorePagingNum;
  const pageNo = pageNumber(query);
  const paging = { offset: (pageNo - 1) * perPage, limit: perPage };
  const none = { offset: 0, limit: 0 };
  const keyword = keywordOf(query);
  const order = repoOrder(query);
  const repoSearch = { keyword: keyword || undefined, sort: order.sort, descending: order.descending };
  // Each tab's counter counts what the visitor would find there; the open tab's list is searched.
  const listed = (id: ProfileTab) => (tab === id ? { ...repoSearch, ...paging } : { sort: "id" as const, descending: false, ...none });
  const repos = searchRepos(env, doer, { ownerId: user.id, includeDescription: true, onlyPublic: !doer, ...listed("repositories") });
  const stars = env.settings.repository.disableStars ? undefined : starredRepos(env, doer, user, listed("stars"));
  const followers = listFollowers(env, user, doer, tab === "followers" ? paging : none);
  const following = listFollowing(env, user, doer, tab === "following" ? paging : none);
  const orgs = profileOrgs(env, doer, user, { offset: 0, limit: 50 }).rows;

  const at = accountPath(base, user);
  const tabLink = (id: ProfileTab, label: string, count: number) =>
    html`<a href="${id === "repositories" ? at : `${at}?tab=${id}`}"${tab === id ? html` aria-current="page"` : ""}>${label} <span class="counter">${count}</span></a>`;
  let content: Html;
  let total: number;
  if (tab === "repositories" || tab === "stars") {
    const found = tab === "stars" ? stars! : repos;
    total = found.total;
    content = html`${searchForm({
      action: at,
      keyword,
      label: tab === "stars" ? "Search starred repositories" : "Search repositories",
      sort: order.name,
      orders: REPO_ORDER_LABELS,
      hidden: tab === "stars" ? { tab: "stars" } : {},
    })}
${repoList(
  base,
  found.rows,
  keyword ? "No repository matches your search." : tab === "stars" ? `${user.name} has not starred any repository you can see.` : `${user.name} has no repositories you can see.`,
  tab === "stars",
)}`;
  } else {
    const found = tab === "followers" ? followers : following;
    total = found.total;
    content = accountList(env, base, found.rows, {
      empty: tab === "followers" ? `Nobody you can see follows ${user.name}.` : `${user.name} follows nobody you can see.`,
      viewer: doer,
    });
  }
  const titles: Record<ProfileTab, string> = { repositories: "Repositories", stars: "Starred repositories", followers: "Followers", following: "Following" };
  return ctx.render({
    title: user.fullName ? `${user.fullName} (${user.name})` : user.name,
    body: html`<div class="profile">
${userCard(ctx, user, { followers: followers.total, following: following.total }, orgs)}
<section class="profile-main" aria-labelledby="tab-title">
<nav class="tabs" aria-label="Profile">${tabLink("repositories", "Repositories", repos.total)}${
      stars ? tabLink("stars", "Starred", stars.total) : ""
    }${tabLink("followers", "Followers", followers.total)}${tabLink("following", "Following", following.total)}</nav>
<h2 id="tab-title" class="sr-only">${titles[tab]}</h2>
${content}
${pager(ctx.url, pageNo, perPage, total)}
</section>
</div>`,
  });
}
