import { html, type Html } from "../../../lib/html.ts";
import type { TeamRow, TeamUnitRow, UserRow } from "../../../db/schema/index.ts";
import { accessModeName } from "../../../services/repo/collaborators.ts";
import type { Doer } from "../../../services/access/permission.ts";
import { searchRepos } from "../../../services/repo/list.ts";
import { homeTeams, orgMembers, seesAllMembers, visibleTeam, visibleTeams, type MemberEntry } from "../../../services/org/people.ts";
import { listTeamMembers, MODE_NAMES, teamUnits, UNIT_NAMES } from "../../../services/org/teams.ts";
import { listTeamRepos } from "../../../services/org/team-repos.ts";
import { page, type PageContext } from "../page.ts";
import { avatarImg } from "../layout.ts";
import { repoList } from "../views/repo-list.ts";
import { pageNumber, pager } from "../views/pager.ts";
import { accountItem, accountPath, visibilityBadge, websiteLink } from "../views/account-list.ts";
import { REPO_ORDER_LABELS, repoSearchOf, searchForm } from "../views/list-search.ts";

type Ctx = PageContext & { doer: Doer | undefined };
type OrgTab = "repositories" | "members" | "teams";

/** `/org/{org}/...` of this site, escaped. */
const orgPath = (base: string, org: UserRow) => `${base}/org/${encodeURIComponent(org.name)}`;

/** `/org/{org}/teams/{team}` (Gitea links teams by their lower-case name). */
const teamPath = (base: string, org: UserRow, team: TeamRow) => `${orgPath(base, org)}/teams/${encodeURIComponent(team.lowerName)}`;

/** Gitea's admin mode: a team from here up has it on every unit. */
const ADMIN: number = MODE_NAMES.indexOf("admin");

const MODE_WORDS: Record<string, string> = { owner: "Owner access", admin: "Administrator access", write: "Write access", read: "Read access" };

const UNIT_LABELS: Record<string, string> = {
  "repo.code": "Code",
  "repo.issues": "Issues",
  "repo.pulls": "Pull requests",
  "repo.releases": "Releases",
  "repo.wiki": "Wiki",
  "repo.ext_wiki": "External wiki",
  "repo.ext_issues": "External issues",
  "repo.projects": "Projects",
  "repo.packages": "Packages",
  "repo.actions": "Actions",
};

/** What a team may do, in words: its mode from admin up, below that the strongest of its units. */
function teamAccess(team: TeamRow, units: readonly TeamUnitRow[]): string {
  const mode = team.authorize >= ADMIN ? team.authorize : units.reduce((m, u) => Math.max(m, u.accessMode), team.authorize);
  return MODE_WORDS[accessModeName(mode)] ?? "No access";
}

/** A team below admin: the access of each unit it grants. */
function unitList(team: TeamRow, units: readonly TeamUnitRow[]): Html | "" {
  const granted = units.filter((u) => u.accessMode > 0);
  if (team.authorize >= ADMIN || !granted.length) return "";
  return html`<ul class="facts small">${granted.map(
    (u) => html`<li>${UNIT_LABELS[UNIT_NAMES[u.type] ?? ""] ?? UNIT_NAMES[u.type] ?? `Unit ${u.type}`}: ${accessModeName(u.accessMode)}</li>`,
  )}</ul>`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The head of every organization page: avatar, name, badges, description, location and website,
 * then the tabs; Teams only for those who may see them (members and site admins).
 */
function orgHead(ctx: Ctx, org: UserRow, current: OrgTab, known: { repos?: number; members?: number; teams?: number }): Html {
  const { env, base, doer } = ctx;
  const none = { offset: 0, limit: 0 };
  const showTeams = seesAllMembers(env, org, doer);
  // Each tab counts what the visitor finds there; a page passes the counts it already has.
  const counts = {
    repos: known.repos ?? searchRepos(env, doer, { ownerId: org.id, sort: "id", descending: false, onlyPublic: !doer, ...none }).total,
    members: known.members ?? orgMembers(env, doer, org, none).total,
    teams: showTeams && doer ? (known.teams ?? visibleTeams(env, doer, org, none).total) : undefined,
  };
  const tab = (id: OrgTab, href: string, label: string, count?: number) =>
    html`<a href="${href}"${current === id ? html` aria-current="page"` : ""}>${label}${
      count !== undefined ? html` <span class="counter">${count}</span>` : ""
    }</a>`;
  const facts: Html[] = [];
  if (org.location) facts.push(html`<span>${org.location}</span>`);
  const site = websiteLink(org.website);
  if (site) facts.push(site);
  return html`<div class="org-head">${avatarImg(env, org, 72)}<div>
<h1>${org.fullName || org.name}${org.fullName && org.fullName !== org.name ? html` <span class="muted">${org.name}</span>` : ""} ${visibilityBadge(org)}</h1>
${org.description ? html`<p class="account-description">${org.description}</p>` : ""}
${facts.length ? html`<div class="stats small">${facts}</div>` : ""}
</div></div>
<nav class="tabs" aria-label="Organization">
${tab("repositories", accountPath(base, org), "Repositories", counts.repos)}
${tab("members", `${orgPath(base, org)}/members`, "Members", counts.members)}
${showTeams ? tab("teams", `${orgPath(base, org)}/teams`, "Teams", counts.teams) : ""}
</nav>`;
}

/**
 * `/{org}`: an organization's home (Gitea's org.Home): its repositories the visitor may see
 * (searchable, ordered, paged), and beside them its members (the public ones to non-members) and,
 * for members, its teams.
 */
export function orgHome(ctx: Ctx, org: UserRow): Response {
  const { env, base, doer, query } = ctx;
  const perPage = env.settings.ui.explorePagingNum;
  const { keyword, order, pageNo, search } = repoSearchOf(query, doer !== undefined, perPage);
  const repos = searchRepos(env, doer, { ...search, ownerId: org.id });
  const members = orgMembers(env, doer, org, { offset: 0, limit: 25 });
  const teams = homeTeams(env, doer, org, { offset: 0, limit: 25 });
  const showTeams = seesAllMembers(env, org, doer);
  return ctx.render({
    title: org.fullName || org.name,
    body: html`${orgHead(ctx, org, "repositories", { repos: keyword ? undefined : repos.total, members: members.total, teams: showTeams ? teams.total : undefined })}
<div class="layout-2">
<section aria-labelledby="repos-title"><h2 id="repos-title" class="sr-only">Repositories</h2>
${searchForm({ action: accountPath(base, org), keyword, label: "Search repositories", sort: order.name, orders: REPO_ORDER_LABELS })}
${repoList(base, repos.rows, keyword ? "No repository matches your search." : "This organization has no repositories you can see.", false)}
${pager(ctx.url, pageNo, perPage, repos.total)}</section>
<aside class="sidebar">
<section aria-labelledby="members-title"><h2 id="members-title"><a href="${orgPath(base, org)}/members">Members</a> <span class="counter">${members.total}</span></h2>${
      members.rows.length
        ? html`<ul class="avatar-grid">${members.rows.map(
            ({ user }) => html`<li><a href="${accountPath(base, user)}" title="${user.fullName || user.name}">${avatarImg(env, user, 32, false)}</a></li>`,
          )}</ul>`
        : html`<p class="muted small">No public members.</p>`
    }</section>
${
  showTeams
    ? html`<section aria-labelledby="teams-title"><h2 id="teams-title"><a href="${orgPath(base, org)}/teams">Teams</a> <span class="counter">${teams.total}</span></h2>${
        teams.rows.length
          ? html`<ul class="rows small team-links">${teams.rows.map((t) => html`<li><a href="${teamPath(base, org, t)}">${t.name}</a> <span class="muted">${plural(t.numMembers, "member", "members")}</span></li>`)}</ul>`
          : html`<p class="muted small">You are in no team.</p>`
      }</section>`
    : ""
}
</aside>
</div>`,
  });
}

/** A member's role as members see it: owner or member, and whether the membership is public. */
function memberRole(entry: MemberEntry): Html | "" {
  if (!entry.flags) return "";
  return html` <span class="tag">${entry.flags.isOwner ? "Owner" : "Member"}</span> <span class="muted small">${entry.flags.isPublic ? "Public" : "Private"} membership</span>`;
}

/** `/org/{org}/members`: everyone who may see the organization sees its public members; members see all, with their roles. */
export const members = page({
  access: { scope: "public", signIn: false, org: "visible" },
  handler(ctx) {
    const { env, base, org, doer } = ctx;
    const perPage = env.settings.ui.explorePagingNum;
    const pageNo = pageNumber(ctx.query);
    const list = orgMembers(env, doer, org, { offset: (pageNo - 1) * perPage, limit: perPage });
    const roles = new Map(list.rows.map((e) => [e.user.id, e]));
    const rows = list.rows.map((e) => e.user);
    return ctx.render({
      title: `Members · ${org.fullName || org.name}`,
      body: html`${orgHead(ctx, org, "members", { members: list.total })}
<h2>Members</h2>
${
  rows.length
    ? html`<div class="box"><ul>${rows.map((u) =>
        accountItem(env, base, u, { empty: "", viewer: doer, extra: (a) => memberRole(roles.get(a.id)!) }),
      )}</ul></div>`
    : html`<div class="box"><p class="empty">This organization has no public members.</p></div>`
}
${pager(ctx.url, pageNo, perPage, list.total)}`,
    });
  },
});

/** `/org/{org}/teams`: members only (others get Gitea's 404); owners see every team, other members theirs. */
export const teams = page({
  access: { scope: "public", signIn: true, org: "visible" },
  handler(ctx) {
    const { env, base, org, doer } = ctx;
    const perPage = env.settings.ui.explorePagingNum;
    const pageNo = pageNumber(ctx.query);
    const list = visibleTeams(env, doer, org, { offset: (pageNo - 1) * perPage, limit: perPage });
    const units = teamUnits(env, list.rows.map((t) => t.id));
    return ctx.render({
      title: `Teams · ${org.fullName || org.name}`,
      body: html`${orgHead(ctx, org, "teams", { teams: list.total })}
<h2>Teams</h2>
${
  list.rows.length
    ? html`<div class="box"><ul>${list.rows.map(
        (t) => html`<li><div><a href="${teamPath(base, org, t)}"><strong>${t.name}</strong></a> <span class="tag">${teamAccess(t, units.get(t.id) ?? [])}</span></div>
${t.description ? html`<div class="muted">${t.description}</div>` : ""}
<div class="stats small"><span>${plural(t.numMembers, "member", "members")}</span><span>${
          t.includesAllRepositories ? "All repositories" : plural(t.numRepos, "repository", "repositories")
        }</span></div></li>`,
      )}</ul></div>`
    : html`<div class="box"><p class="empty">You are in no team of this organization.</p></div>`
}
${pager(ctx.url, pageNo, perPage, list.total)}`,
    });
  },
});

type TeamTab = "members" | "repositories";

function teamPage(ctx: Ctx & { org: UserRow; doer: Doer }, current: TeamTab): Response {
  const { env, base, org, doer } = ctx;
  const team = visibleTeam(env, doer, org, ctx.params.team ?? "");
  const units = teamUnits(env, [team.id]).get(team.id) ?? [];
  const perPage = env.settings.ui.explorePagingNum;
  const pageNo = pageNumber(ctx.query);
  const paging = { offset: (pageNo - 1) * perPage, limit: perPage };
  const at = teamPath(base, org, team);
  const tab = (id: TeamTab, href: string, label: string, count: number) =>
    html`<a href="${href}"${current === id ? html` aria-current="page"` : ""}>${label} <span class="counter">${count}</span></a>`;
  let list: Html;
  let total: number;
  if (current === "members") {
    const found = listTeamMembers(env, team, paging);
    total = found.total;
    list = html`${
      found.rows.length
        ? html`<div class="box"><ul>${found.rows.map((u) => accountItem(env, base, u, { empty: "", viewer: doer }))}</ul></div>`
        : html`<div class="box"><p class="empty">This team has no members.</p></div>`
    }`;
  } else {
    const found = listTeamRepos(env, doer, team, paging);
    total = found.total;
    list = repoList(base, found.rows.map((rc) => rc.repo), "This team has no repositories.");
  }
  return ctx.render({
    title: `${team.name} · ${org.fullName || org.name}`,
    body: html`${orgHead(ctx, org, "teams", {})}
<section class="team" aria-labelledby="team-title">
<h2 id="team-title"><a href="${orgPath(base, org)}/teams">Teams</a> / ${team.name} <span class="tag">${teamAccess(team, units)}</span></h2>
${team.description ? html`<p class="account-description">${team.description}</p>` : ""}
${unitList(team, units)}
${team.includesAllRepositories ? html`<p class="muted small">This team has access to all repositories of the organization.</p>` : ""}
<nav class="tabs" aria-label="Team">${tab("members", at, "Members", team.numMembers)}${tab("repositories", `${at}/repositories`, "Repositories", team.numRepos)}</nav>
${list}
${pager(ctx.url, pageNo, perPage, total)}
</section>`,
  });
}

/** `/org/{org}/teams/{team}`: a team's members, to members who may see the team (Gitea's RequireTeamMember, owners see all). */
export const teamMembers = page({
  access: { scope: "public", signIn: true, org: "visible" },
  handler: (ctx) => teamPage(ctx, "members"),
});

/** `/org/{org}/teams/{team}/repositories`: the repositories the team has. */
export const teamRepositories = page({
  access: { scope: "public", signIn: true, org: "visible" },
  handler: (ctx) => teamPage(ctx, "repositories"),
});
