import type { LabelRow, MilestoneRow, UserRow } from "../../../db/schema/index.ts";
import type { IssueView } from "../../../services/issue/view.ts";
import type { MineFilter } from "../../../services/issue/web-list.ts";
import { html, trusted, type Html } from "../../../lib/html.ts";
import { avatarImg } from "../layout.ts";
import type { Env } from "../../../services/env.ts";
import { dateOnly, timeAgo } from "./time.ts";
import { labelChip } from "./label.ts";

/** What an issue or pull request is now, for its icon and words. */
export type IssueState = "open" | "closed" | "merged";

const stroke = (paths: string) =>
  trusted(
    `<svg class="octicon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round">${paths}</svg>`,
  );

const ICONS = {
  issueOpen: stroke(`<circle cx="8" cy="8" r="6.25"/><circle cx="8" cy="8" r="1.25" fill="currentColor"/>`),
  issueClosed: stroke(`<circle cx="8" cy="8" r="6.25"/><path d="M5.3 8.2l1.9 1.9 3.6-3.8"/>`),
  pullOpen: stroke(`<circle cx="4" cy="3.5" r="1.6"/><circle cx="4" cy="12.5" r="1.6"/><path d="M4 5.1v5.8"/><circle cx="12" cy="12.5" r="1.6"/><path d="M12 10.9V6.5a2 2 0 0 0-2-2H7.2M8.7 3l-1.5 1.5L8.7 6"/>`),
  pullClosed: stroke(`<circle cx="4" cy="3.5" r="1.6"/><circle cx="4" cy="12.5" r="1.6"/><path d="M4 5.1v5.8"/><circle cx="12" cy="12.5" r="1.6"/><path d="M12 10.9V8M10.3 2.3l3.4 3.4M13.7 2.3l-3.4 3.4"/>`),
  merged: stroke(`<circle cx="4" cy="3.5" r="1.6"/><circle cx="4" cy="12.5" r="1.6"/><path d="M4 5.1v5.8"/><circle cx="12" cy="8.5" r="1.6"/><path d="M4 5.1c0 2.3 2.2 3.4 6.4 3.4"/>`),
  comment: stroke(`<path d="M2.5 3.2c0-.7.5-1.2 1.2-1.2h8.6c.7 0 1.2.5 1.2 1.2v6.1c0 .7-.5 1.2-1.2 1.2H8l-3 2.8v-2.8H3.7c-.7 0-1.2-.5-1.2-1.2z"/>`),
  milestone: stroke(`<path d="M8 1.8v12.4M3 4h8.4l2 2-2 2H3z"/>`),
};

/** The state's icon with its words for screen readers (the colour is never the only sign). */
export function stateIcon(isPull: boolean, state: IssueState): Html {
  const icon = !isPull ? (state === "open" ? ICONS.issueOpen : ICONS.issueClosed) : state === "merged" ? ICONS.merged : state === "open" ? ICONS.pullOpen : ICONS.pullClosed;
  const words = `${state === "merged" ? "Merged" : state === "open" ? "Open" : "Closed"} ${isPull ? "pull request" : "issue"}`;
  return html`<span class="state-icon ${state}" title="${words}">${icon}<span class="sr-only">${words}</span></span>`;
}

export const commentIcon = ICONS.comment;
export const milestoneIcon = ICONS.milestone;

export function stateOf(v: Pick<IssueView, "issue" | "pull">): IssueState {
  return v.pull?.merged ? "merged" : v.issue.isClosed ? "closed" : "open";
}

/** A list page's filters as Gitea names them in its query (labels are ids, `1,2`). */
export interface ListParams {
  state?: string;
  labels: number[];
  milestone?: number;
  assignee?: string;
  poster?: string;
  q?: string;
  sort?: string;
  type?: MineFilter;
}

const MINE = new Set<string>(["assigned", "created_by", "mentioned"]);

/** The filters of `?…`: `labels` as Gitea's `1,2` or as repeated fields (what a form without scripts sends). */
export function readListParams(query: URLSearchParams): ListParams {
  const text = (name: string) => query.get(name)?.trim() || undefined;
  const labels = query
    .getAll("labels")
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter((v) => /^\d{1,15}$/.test(v))
    .map(Number)
    .filter((id) => id > 0);
  const milestone = text("milestone");
  const type = text("type");
  return {
    state: text("state"),
    labels: [...new Set(labels)],
    milestone: milestone && /^-?\d{1,15}$/.test(milestone) && Number(milestone) !== 0 ? Number(milestone) : undefined,
    assignee: text("assignee"),
    poster: text("poster"),
    q: text("q"),
    sort: text("sort"),
    type: type && MINE.has(type) ? (type as MineFilter) : undefined,
  };
}

/** `?…` for these filters with `changes` applied (the page number is dropped: a new filter starts at page 1). */
export function listHref(p: ListParams, changes: Partial<ListParams> = {}): string {
  const m = { ...p, ...changes };
  const q = new URLSearchParams();
  if (m.type) q.set("type", m.type);
  if (m.sort) q.set("sort", m.sort);
  if (m.state) q.set("state", m.state);
  if (m.labels.length) q.set("labels", m.labels.join(","));
  if (m.milestone !== undefined) q.set("milestone", String(m.milestone));
  if (m.assignee) q.set("assignee", m.assignee);
  if (m.poster) q.set("poster", m.poster);
  if (m.q) q.set("q", m.q);
  const s = q.toString();
  return s ? `?${s}` : "?";
}

/** Where an issue or pull request of a repository lives: `/{owner}/{repo}/issues/{n}` or `/pulls/{n}`. */
export function issueHref(repoHref: string, issue: { isPull: boolean; index: number }): string {
  return `${repoHref}/${issue.isPull ? "pulls" : "issues"}/${issue.index}`;
}

/** A user's name, linked to their profile unless it is the Ghost of a deleted account. */
export function userLink(base: string, user: Pick<UserRow, "id" | "name">): Html {
  return user.id > 0 ? html`<a class="author" href="${base}/${encodeURIComponent(user.name)}">${user.name}</a>` : html`<span class="author">${user.name}</span>`;
}

export interface RowContext {
  env: Env;
  base: string;
  /** `/{owner}/{repo}` below base. */
  repoHref: string;
  /** The list's filters, so a label in a row narrows the list to it. */
  params: ListParams;
}

/** One row of an issue or pull request list: state, title, labels, number, author and age, milestone, assignees, comments. */
export function issueRow(rc: RowContext, v: IssueView): Html {
  const { issue } = v;
  const state = stateOf(v);
  const href = issueHref(rc.repoHref, issue);
  const by = v.issue.originalAuthor ? html`<span class="author">${v.issue.originalAuthor}</span>` : userLink(rc.base, v.poster);
  const when =
    state === "merged"
      ? html`by ${by} was merged ${timeAgo(v.pull!.mergedUnix)}`
      : state === "closed"
        ? html`by ${by} was closed ${timeAgo(issue.closedUnix || issue.updatedUnix)}`
        : html`opened ${timeAgo(issue.createdUnix)} by ${by}`;
  const overdue = issue.deadlineUnix > 0 && !issue.isClosed && issue.deadlineUnix < Date.now() / 1000;
  return html`<li class="issue-row">${stateIcon(issue.isPull, state)}
<div class="issue-main"><a class="issue-title" href="${href}">${issue.title}</a>${v.pull?.draft ? html` <span class="tag">Draft</span>` : ""}${
    v.labels.length ? html` <span class="labels">${v.labels.map((l) => labelChip(l, listHref(rc.params, { labels: [l.id] })))}</span>` : ""
  }
<p class="issue-meta"><span>#${issue.index} ${when}</span>${
    v.milestone ? html` <a class="milestone" href="${rc.repoHref}/milestone/${v.milestone.id}">${milestoneIcon}<span class="sr-only">Milestone:</span> ${v.milestone.name}</a>` : ""
  }${issue.deadlineUnix > 0 ? html` <span class="due${overdue ? " overdue" : ""}">Due ${dateOnly(issue.deadlineUnix)}${overdue ? " (overdue)" : ""}</span>` : ""}</p></div>
<div class="issue-side">${
    v.assignees.length
      ? html`<span class="assignees">${v.assignees.map((u) => html`<a href="${rc.base}/${encodeURIComponent(u.name)}" title="Assigned to ${u.name}">${avatarImg(rc.env, u, 20, false)}</a>`)}</span>`
      : ""
  }${issue.numComments > 0 ? html`<a class="comments" href="${href}" title="${issue.numComments} comments">${commentIcon}<span class="sr-only">Comments:</span> ${issue.numComments}</a>` : ""}</div></li>`;
}

/** Open / Closed / All, with the counts of the current filters. */
export function stateTabs(p: ListParams, shown: "open" | "closed" | "all", open: number, closed: number): Html {
  const tab = (state: "open" | "closed" | "all", label: Html) =>
    html`<a href="${listHref(p, { state })}"${shown === state ? html` aria-current="page"` : ""}>${label}</a>`;
  return html`<nav class="filters state-tabs" aria-label="State">${tab("open", html`<strong>${open}</strong> Open`)}${tab("closed", html`<strong>${closed}</strong> Closed`)}${tab(
    "all",
    html`All`,
  )}</nav>`;
}

export interface FilterOptions {
  /** What the list holds: the milestone filter is left out on a milestone's own page. */
  kind: "issues" | "pulls" | "milestone";
  labels: LabelRow[];
  openMilestones: MilestoneRow[];
  closedMilestones: MilestoneRow[];
  assignees: UserRow[];
  signedIn: boolean;
  /** The state shown, kept when the form is sent. */
  state: "open" | "closed" | "all";
}

const SORTS: [string, string][] = [
  ["latest", "Newest"],
  ["oldest", "Oldest"],
  ["recentupdate", "Recently updated"],
  ["leastupdate", "Least recently updated"],
  ["mostcomment", "Most commented"],
  ["leastcomment", "Least commented"],
  ["nearduedate", "Nearest due date"],
  ["farduedate", "Farthest due date"],
];

const option = (value: string, label: string, selected: boolean) =>
  html`<option value="${value}"${selected ? html` selected` : ""}>${label}</option>`;

/**
 * The list's filters as one GET form that works without scripts: a search box, the labels as
 * check boxes, selects for milestone, assignee, type and order, and the author by name (any
 * user, with the repository's people offered).
 */
export function filterForm(p: ListParams, o: FilterOptions): Html {
  const noun = o.kind === "pulls" ? "pull requests" : "issues";
  const selectedLabels = o.labels.filter((l) => p.labels.includes(l.id)).length;
  const milestones = (list: MilestoneRow[], group: string) =>
    list.length ? html`<optgroup label="${group}">${list.map((m) => option(String(m.id), m.name, p.milestone === m.id))}</optgroup>` : "";
  return html`<form class="issue-filters" method="get" role="search" aria-label="Filter ${noun}">
<input type="hidden" name="state" value="${o.state}">
<div class="filter-search"><label class="sr-only" for="f-q">Search ${noun}</label><input id="f-q" type="search" name="q" value="${p.q ?? ""}" placeholder="Search ${noun}…"><button type="submit" class="primary">Search</button></div>
<div class="filter-fields">
${
  o.labels.length
    ? html`<details class="filter-labels"${selectedLabels ? html` open` : ""}><summary>Labels${selectedLabels ? html` <span class="counter">${selectedLabels}</span>` : ""}</summary>
<fieldset><legend class="sr-only">Only ${noun} with all of these labels</legend>${o.labels.map(
        (l) => html`<label class="check"><input type="checkbox" name="labels" value="${l.id}"${p.labels.includes(l.id) ? html` checked` : ""}> ${labelChip(l)}</label>`,
      )}</fieldset></details>`
    : ""
}
${
  o.kind === "milestone"
    ? ""
    : html`<label>Milestone <select name="milestone">${option("", "All milestones", p.milestone === undefined)}${option("-1", "No milestone", p.milestone === -1)}${milestones(
        o.openMilestones,
        "Open milestones",
      )}${milestones(o.closedMilestones, "Closed milestones")}</select></label>`
}
<label>Author <input type="text" name="poster" value="${p.poster ?? ""}" list="f-posters" autocomplete="off" placeholder="Any author"></label>
<datalist id="f-posters">${o.assignees.map((u) => html`<option value="${u.name}">`)}</datalist>
<label>Assignee <select name="assignee">${option("", "All assignees", !p.assignee)}${option("(none)", "No assignee", p.assignee === "(none)" || p.assignee === "-1")}${option(
    "(any)",
    "Any assignee",
    p.assignee === "(any)",
  )}${o.assignees.map((u) => option(String(u.id), u.name, p.assignee === String(u.id)))}</select></label>
${
  o.signedIn
    ? html`<label>Type <select name="type">${option("", `All ${noun}`, !p.type)}${option("assigned", "Assigned to you", p.type === "assigned")}${option(
        "created_by",
        "Created by you",
        p.type === "created_by",
      )}${option("mentioned", "Mentioning you", p.type === "mentioned")}</select></label>`
    : ""
}
<label>Sort <select name="sort">${SORTS.map(([value, label]) => option(value, label, (p.sort ?? "latest") === value))}</select></label>
<div class="filter-actions"><button type="submit">Apply filters</button> <a href="?state=${o.state}">Clear</a></div>
</div>
</form>`;
}

/** The list itself, or a line saying nothing matches. */
export function issueList(rc: RowContext, views: IssueView[], empty: string): Html {
  if (!views.length) return html`<div class="box"><p class="empty">${empty}</p></div>`;
  return html`<div class="box"><ul class="issue-list">${views.map((v) => issueRow(rc, v))}</ul></div>`;
}
