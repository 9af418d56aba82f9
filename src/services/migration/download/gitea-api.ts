import { parseRFC3339, NO_DEADLINE, type IssueRecord, type LabelRecord, type MilestoneRecord } from "../format.ts";
import { SourceError, type SourceOptions } from "./source.ts";
import { nextLink, type JsonAnswer, type SourceHttp } from "./http.ts";

/**
 * What the `gitea` and `gogs` services share: Gogs' API is the one Gitea's grew from, so users,
 * labels and milestones have the same JSON, a repository is addressed the same way and both
 * sign in with `Authorization: token X` or Basic.
 */

/** The source's account as its API writes it (Gogs spells the name `login` and `username`). */
export interface ApiUser {
  id: number;
  login?: string;
  username?: string;
  email?: string;
}

export interface ApiLabel {
  name: string;
  color?: string;
  description?: string;
}

export interface ApiMilestone {
  title: string;
  description?: string;
  state: "open" | "closed";
  due_on?: string | null;
  closed_at?: string | null;
  created_at?: string | null;
  updated_at?: string | null;
}

/** An issue of either API; `pull_request` is set on the pull requests an issue list mixes in. */
export interface ApiIssue {
  number: number;
  user: ApiUser;
  title: string;
  body?: string;
  state: "open" | "closed";
  labels?: ApiLabel[] | null;
  milestone?: ApiMilestone | null;
  assignees?: ApiUser[] | null;
  is_locked?: boolean;
  created_at: string;
  updated_at: string;
  closed_at?: string | null;
  pull_request?: unknown;
}

export interface ApiComment {
  id: number;
  user?: ApiUser | null;
  body: string;
  created_at: string;
  updated_at: string;
}

export const userName = (u: ApiUser | null | undefined): string => u?.login || u?.username || "";

/** Where the API lives and which repository the address names. */
export interface ApiAddress {
  /** scheme://host[/sub/path], no trailing slash: Gitea's baseURL. */
  baseUrl: string;
  owner: string;
  repo: string;
}

/**
 * The address's API base and repository. Gitea's factory takes the last two path parts as
 * owner/repo and keeps what is before them as the server's sub-path; Gogs' takes the first two.
 */
export function apiAddress(cloneAddr: string, take: "last-two" | "first-two"): ApiAddress {
  const u = new URL(cloneAddr);
  const parts = u.pathname.replace(/\.git\/?$/, "").split("/").filter(Boolean).map(decodeURIComponent);
  if (parts.length < 2) throw new SourceError(`invalid path: ${u.pathname}`);
  const [owner, repo] = take === "first-two" ? parts.slice(0, 2) : parts.slice(-2);
  const sub = take === "last-two" ? parts.slice(0, -2).map(encodeURIComponent).join("/") : "";
  return { baseUrl: `${u.protocol}//${u.host}${sub ? `/${sub}` : ""}`, owner: owner!, repo: repo! };
}

/** The sign-in both SDKs send: a token when given, else Basic with the user name and password. */
export function authHeaders(opts: SourceOptions): Record<string, string> {
  if (opts.authToken) return { Authorization: `token ${opts.authToken}` };
  if (opts.authUsername) {
    return { Authorization: `Basic ${Buffer.from(`${opts.authUsername}:${opts.authPassword}`).toString("base64")}` };
  }
  return {};
}

/** Gitea's hasBaseURL: `url` lies under the source's base (an asset or head clone address the source may hand us). */
export function underBase(url: string, baseUrl: string): boolean {
  return url.startsWith(baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
}

/** A time the dump can carry: the source's RFC 3339 as it is, else (other layouts) re-written; `fallback` when absent. */
export function time(value: string | null | undefined, fallback: string): string {
  if (!value) return fallback;
  if (parseRFC3339(value) !== undefined) return value;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? fallback : d.toISOString();
}

export const toLabel = (l: ApiLabel): LabelRecord => ({ name: l.name, color: l.color ?? "", description: l.description ?? "" });

/** An issue of either API as the dump's record, but for what the two APIs tell apart (reactions, assignees, lock, closing time). */
export function toIssueBase(i: ApiIssue, now: string): Omit<IssueRecord, "closed"> & { created: string; updated: string } {
  const created = time(i.created_at, now);
  return {
    number: i.number,
    poster_id: i.user.id,
    poster_name: userName(i.user),
    poster_email: i.user.email ?? "",
    title: i.title,
    content: i.body ?? "",
    milestone: i.milestone?.title ?? "",
    state: i.state === "closed" ? "closed" : "open",
    is_locked: false,
    created,
    updated: time(i.updated_at, created),
    labels: (i.labels ?? []).map(toLabel),
  };
}

/**
 * Gitea's milestone mapping: older servers (and Gogs) have no created/updated times, so the
 * closing time stands in, else the time of the migration; no due date is Gitea's year-9999 placeholder.
 */
export function toMilestone(m: ApiMilestone, now: string): MilestoneRecord {
  const closed = m.closed_at ? time(m.closed_at, now) : null;
  const created = time(m.created_at, closed ?? now);
  return {
    title: m.title,
    description: m.description ?? "",
    deadline: time(m.due_on, NO_DEADLINE),
    created,
    updated: time(m.updated_at, closed ?? created),
    closed,
    state: m.state === "closed" ? "closed" : "open",
  };
}

/**
 * Whether a list answer was the last page. The server's own paging says it best (a Link without
 * rel=next, or X-Total-Count reached); without either, a short page ends the list as in Gitea's
 * downloader, or — for APIs that do not page a list at all (Gogs) — the first page is all of it.
 */
export function isLastPage(answer: JsonAnswer<unknown[]>, seenBefore: number, limit: number, unpaged: "short-page" | "one-page"): boolean {
  const got = answer.data.length;
  if (got === 0) return true;
  if (answer.headers["Link"] !== undefined) return nextLink(answer.headers) === undefined;
  const total = answer.headers["X-Total-Count"];
  if (total !== undefined && /^\d+$/.test(total)) return seenBefore + got >= Number(total);
  return unpaged === "one-page" || got < limit;
}

/** The most pages of one list read, so a server that never says "last" cannot keep a migration going. */
export const MAX_LIST_PAGES = 1000;

/**
 * Every item of a list, `page` and `limit` in the query (`url` already has its own query or not).
 * A 404 is an empty list: the unit is missing at the source, which must not fail the migration.
 */
export async function allPages<T>(http: SourceHttp, url: string, limit: number, unpaged: "short-page" | "one-page" = "short-page"): Promise<T[]> {
  const out: T[] = [];
  const sep = url.includes("?") ? "&" : "?";
  let previousFirst: string | undefined;
  for (let page = 1; page <= MAX_LIST_PAGES; page++) {
    const answer = await http.json<T[]>(`${url}${sep}page=${page}&limit=${limit}`, { allow404: true });
    if (!answer) return out;
    if (!Array.isArray(answer.data)) throw new SourceError(`${new URL(url).pathname}: the answer is not a list`);
    // A list the server does not page comes back the same for every page: the first one was all of it.
    const first = JSON.stringify(answer.data[0]);
    if (page > 1 && first === previousFirst) return out;
    previousFirst = first;
    const seenBefore = out.length;
    out.push(...answer.data);
    if (isLastPage(answer, seenBefore, limit, unpaged)) return out;
  }
  throw new SourceError(`${new URL(url).pathname}: more than ${MAX_LIST_PAGES} pages`);
}
