import type { Env } from "../../env.ts";
import type {
  AssetRecord,
  CommentRecord,
  IssueRecord,
  PullRequestRecord,
  ReactionRecord,
  ReleaseRecord,
  ReviewRecord,
  ReviewState,
} from "../format.ts";
import {
  MAX_LIST_PAGES,
  allPages,
  apiAddress,
  authHeaders,
  isLastPage,
  time,
  toLabel,
  toIssueBase,
  toMilestone,
  underBase,
  userName,
  type ApiComment,
  type ApiIssue,
  type ApiLabel,
  type ApiMilestone,
  type ApiUser,
} from "./gitea-api.ts";
import { SourceHttp } from "./http.ts";
import { RateLimited, SourceError, type Downloader, type SourceOptions, type SourceRepo } from "./source.ts";

/**
 * The `gitea` service: another Gitea (or anything speaking its API v1, hearth included) read as
 * Gitea 1.25's GiteaDownloader reads it (services/migrations/gitea_downloader.go).
 */

interface ApiRepo {
  name: string;
  owner: ApiUser;
  private: boolean;
  description?: string;
  clone_url: string;
  html_url: string;
  default_branch?: string;
}

interface ApiReaction {
  user?: ApiUser | null;
  content: string;
}

interface ApiAttachment {
  id: number;
  name: string;
  size: number;
  download_count: number;
  created_at: string;
  browser_download_url: string;
}

interface ApiRelease {
  tag_name: string;
  target_commitish: string;
  name: string;
  body?: string;
  draft: boolean;
  prerelease: boolean;
  created_at: string;
  published_at?: string | null;
  author?: ApiUser | null;
  assets?: ApiAttachment[] | null;
}

interface ApiBranch {
  ref: string;
  sha: string;
  repo?: { name: string; owner?: ApiUser | null; clone_url?: string } | null;
}

/** A pull request: an issue's fields (its times optional in old servers' answers) and its branches and merge. */
interface ApiPull extends Omit<ApiIssue, "created_at" | "updated_at" | "pull_request"> {
  draft?: boolean;
  created_at?: string | null;
  updated_at?: string | null;
  merged?: boolean;
  merged_at?: string | null;
  merge_commit_sha?: string | null;
  head?: ApiBranch | null;
  base: ApiBranch;
}

interface ApiReview {
  id: number;
  user?: ApiUser | null;
  body?: string;
  commit_id?: string;
  state: string;
  official?: boolean;
  submitted_at?: string | null;
}

interface ApiReviewComment {
  id: number;
  body: string;
  user?: ApiUser | null;
  path: string;
  diff_hunk?: string;
  /** The new side's line (Gitea's LineNum). */
  position?: number;
  /** The old side's line (Gitea's OldLineNum). */
  original_position?: number;
  commit_id?: string;
  created_at: string;
  updated_at: string;
}

/**
 * Gitea's API names review states one way (COMMENT, REQUEST_CHANGES) and its dump format another;
 * Gitea's downloader passes them through and so restores a plain comment review as pending. Here
 * each is mapped to what it is.
 */
const REVIEW_STATE: Record<string, ReviewState> = {
  APPROVED: "APPROVED",
  PENDING: "PENDING",
  COMMENT: "COMMENTED",
  COMMENTED: "COMMENTED",
  REQUEST_CHANGES: "CHANGES_REQUESTED",
  CHANGES_REQUESTED: "CHANGES_REQUESTED",
  REQUEST_REVIEW: "REQUEST_REVIEW",
};

const HEX_SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/i;
/** A branch name the import may write under refs/heads (git's check-ref-format, the parts that matter here). */
const SAFE_REF = /^(?!-)(?!.*(\.\.|@\{|\/\/|\/\.|\.lock(\/|$)))[^\x00-\x20~^:?*[\\\x7f]+(?<![./])$/;

/** A commit id the import can trust, or none (the import refuses a review whose id is not one). */
const hexOrEmpty = (id: string | null | undefined): string => (id && HEX_SHA.test(id) ? id : "");

/** Pagination arrived in Gitea 1.12: an older server is read one page at a time until an empty one. */
function pagesSupported(version: string): boolean {
  const m = /^v?(\d+)\.(\d+)/.exec(version);
  if (!m) return false;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  return major > 1 || (major === 1 && minor >= 12);
}

export function giteaDownloader(env: Env, opts: SourceOptions): Downloader {
  const where = apiAddress(opts.cloneAddr, "last-two");
  const http = new SourceHttp(env, authHeaders(opts));
  const api = `${where.baseUrl}/api/v1`;
  const repoApi = `${api}/repos/${encodeURIComponent(where.owner)}/${encodeURIComponent(where.repo)}`;
  const now = new Date().toISOString();

  /** Gitea's NewGiteaDownloader: the server's version (paging) and its page size (`max_response_items`), once. */
  let setup: Promise<{ paged: boolean; maxPerPage: number }> | undefined;
  const server = () =>
    (setup ??= (async () => {
      const version = await http.json<{ version?: string }>(`${api}/version`, { allow404: true });
      const settings = await http.json<{ max_response_items?: number }>(`${api}/settings/api`, { allow404: true });
      const max = settings?.data.max_response_items;
      return { paged: pagesSupported(version?.data.version ?? ""), maxPerPage: typeof max === "number" && max > 0 ? max : 10 };
    })());

  const list = async <T>(url: string): Promise<T[]> => {
    const { maxPerPage } = await server();
    return allPages<T>(http, url, maxPerPage);
  };

  /** One page of issues or pull requests, as Gitea's GetIssues/GetPullRequests read them. */
  const onePage = async <T>(url: string, page: number, perPage: number): Promise<{ items: T[]; isEnd: boolean }> => {
    const { paged, maxPerPage } = await server();
    const limit = Math.min(perPage, maxPerPage);
    const answer = await http.must<T[]>(`${url}&page=${page}&limit=${limit}`);
    if (!Array.isArray(answer.data)) throw new SourceError(`${new URL(url).pathname}: the answer is not a list`);
    const isEnd = paged ? isLastPage(answer, (page - 1) * limit, limit, "short-page") : answer.data.length === 0;
    return { items: answer.data, isEnd };
  };

  /**
   * Reactions are an extra the migration can do without: Gitea warns and carries on when they
   * cannot be read, and so does this (a rate limit still stops it, as every other request).
   * An issue's reactions come in pages, a comment's in one unpaged list.
   */
  const reactions = async (url: string, paged: boolean): Promise<ReactionRecord[]> => {
    try {
      const rs = paged ? await list<ApiReaction>(url) : ((await http.json<ApiReaction[]>(url, { allow404: true }))?.data ?? []);
      return rs.filter((r) => r.user).map((r) => ({ user_id: r.user!.id, user_name: userName(r.user), content: r.content }));
    } catch (err) {
      if (err instanceof RateLimited || !(err instanceof SourceError)) throw err;
      return [];
    }
  };

  return {
    service: "gitea",

    async repo(): Promise<SourceRepo> {
      await server();
      const { data: r } = await http.must<ApiRepo>(repoApi);
      return {
        name: r.name,
        owner: userName(r.owner),
        description: r.description ?? "",
        isPrivate: r.private,
        defaultBranch: r.default_branch ?? "",
        originalUrl: r.html_url,
        cloneUrl: r.clone_url,
        // Gitea's FormatCloneURL: the token as oauth2's password, else the user name and password.
        cloneCredentials: opts.authToken
          ? { username: "oauth2", password: opts.authToken }
          : { username: opts.authUsername, password: opts.authPassword },
      };
    },

    async topics() {
      // Gitea's SDK reads one page; a server with a small page size would cut the list short, so every page is read.
      const { maxPerPage } = await server();
      const out: string[] = [];
      for (let page = 1; page <= MAX_LIST_PAGES; page++) {
        const answer = await http.json<{ topics?: string[] }>(`${repoApi}/topics?page=${page}&limit=${maxPerPage}`, { allow404: true });
        const topics = answer?.data.topics ?? [];
        // A server that does not page topics sends the same list again.
        if (page > 1 && topics.length > 0 && topics[0] === out[0]) break;
        const seenBefore = out.length;
        out.push(...topics);
        if (!answer || isLastPage({ data: topics, headers: answer.headers }, seenBefore, maxPerPage, "short-page")) break;
      }
      return out;
    },

    async milestones() {
      return (await list<ApiMilestone>(`${repoApi}/milestones?state=all`)).map((m) => toMilestone(m, now));
    },

    async labels() {
      return (await list<ApiLabel>(`${repoApi}/labels`)).map(toLabel);
    },

    async releases(): Promise<ReleaseRecord[]> {
      return (await list<ApiRelease>(`${repoApi}/releases`)).map((r) => {
        const created = time(r.created_at, now);
        return {
          tag_name: r.tag_name,
          target_commitish: r.target_commitish,
          name: r.name,
          body: r.body ?? "",
          draft: r.draft,
          prerelease: r.prerelease,
          publisher_id: r.author?.id ?? 0,
          publisher_name: userName(r.author),
          publisher_email: r.author?.email ?? "",
          created,
          published: time(r.published_at, created),
          assets: (r.assets ?? []).map(
            (a): AssetRecord => ({
              id: a.id,
              name: a.name,
              content_type: null,
              size: a.size,
              download_count: a.download_count,
              created: time(a.created_at, created),
              updated: time(a.created_at, created),
              download_url: a.browser_download_url,
            }),
          ),
        };
      });
    },

    async downloadAsset(asset, file) {
      const url = asset.download_url ?? "";
      const maxBytes = env.settings.attachment.maxSize * 1024 * 1024;
      // The credentials go only to the source itself (a private repository's attachments need them);
      // an address elsewhere is fetched without them, under the same host rules.
      await http.download(url, file, maxBytes, underBase(url, where.baseUrl) ? authHeaders(opts) : {});
    },

    async issues(page, perPage) {
      const { items, isEnd } = await onePage<ApiIssue>(`${repoApi}/issues?state=all&type=issues`, page, perPage);
      const out: IssueRecord[] = [];
      for (const i of items) {
        if (i.pull_request) continue;
        const base = toIssueBase(i, now);
        out.push({
          ...base,
          is_locked: i.is_locked ?? false,
          closed: i.closed_at ? time(i.closed_at, base.created) : null,
          reactions: await reactions(`${repoApi}/issues/${i.number}/reactions`, true),
          assignees: (i.assignees ?? []).map(userName).filter(Boolean),
        });
      }
      return { items: out, isEnd };
    },

    async comments(n) {
      const out: CommentRecord[] = [];
      for (const c of await list<ApiComment>(`${repoApi}/issues/${n}/comments`)) {
        const created = time(c.created_at, now);
        out.push({
          issue_index: n,
          index: c.id,
          poster_id: c.user?.id ?? 0,
          poster_name: userName(c.user),
          poster_email: c.user?.email ?? "",
          content: c.body,
          created,
          updated: time(c.updated_at, created),
          reactions: await reactions(`${repoApi}/issues/comments/${c.id}/reactions`, false),
        });
      }
      return out;
    },

    async pullRequests(page, perPage) {
      const { items, isEnd } = await onePage<ApiPull>(`${repoApi}/pulls?state=all`, page, perPage);
      const out: PullRequestRecord[] = [];
      for (const p of items) {
        const created = time(p.created_at, now);
        const head = p.head ?? { ref: "", sha: "" };
        const pull: PullRequestRecord = {
          number: p.number,
          title: p.title,
          poster_id: p.user.id,
          poster_name: userName(p.user),
          poster_email: p.user.email ?? "",
          content: p.body ?? "",
          milestone: p.milestone?.title ?? "",
          state: p.state === "closed" ? "closed" : "open",
          created,
          updated: time(p.updated_at, created),
          // Gitea: a merged request that carries no closing time was closed by its merge.
          closed: p.closed_at || p.merged_at ? time(p.closed_at ?? p.merged_at, created) : null,
          labels: (p.labels ?? []).map(toLabel),
          merged: p.merged ?? false,
          merged_time: p.merged_at ? time(p.merged_at, created) : null,
          merge_commit_sha: p.merge_commit_sha ?? "",
          is_locked: p.is_locked ?? false,
          is_draft: p.draft ?? false,
          head: {
            ref: head.ref,
            sha: head.sha,
            repo_name: head.repo?.name ?? "",
            owner_name: userName(head.repo?.owner),
            clone_url: head.repo?.clone_url ?? "",
          },
          base: { ref: p.base.ref, sha: p.base.sha, repo_name: where.repo, owner_name: where.owner },
          assignees: (p.assignees ?? []).map(userName).filter(Boolean),
          reactions: await reactions(`${repoApi}/issues/${p.number}/reactions`, true),
          foreignindex: p.number,
        };
        out.push(ensureSafe(pull, where.baseUrl));
      }
      return { items: out, isEnd };
    },

    async reviews(n) {
      const out: ReviewRecord[] = [];
      for (const r of await list<ApiReview>(`${repoApi}/pulls/${n}/reviews`)) {
        // A team's review request has no reviewer: Gitea skips it rather than pin it on someone.
        if (!r.user) continue;
        const state = REVIEW_STATE[r.state];
        if (!state) continue;
        // Gitea's API answers a review's code comments in one list, unpaged.
        const comments = (await http.json<ApiReviewComment[]>(`${repoApi}/pulls/${n}/reviews/${r.id}/comments`, { allow404: true }))?.data ?? [];
        const createdAt = time(r.submitted_at, now);
        out.push({
          id: r.id,
          issue_index: n,
          reviewer_id: r.user.id,
          reviewer_name: userName(r.user),
          official: r.official ?? false,
          commit_id: hexOrEmpty(r.commit_id),
          content: r.body ?? "",
          created_at: createdAt,
          state,
          comments: comments.map((c) => {
            const at = time(c.created_at, createdAt);
            return {
              id: c.id,
              content: c.body,
              tree_path: c.path,
              diff_hunk: c.diff_hunk ?? "",
              // Gitea's convention: a line of the old side is negative.
              line: (c.original_position ?? 0) > 0 ? -c.original_position! : (c.position ?? 0),
              commit_id: hexOrEmpty(c.commit_id),
              poster_id: c.user?.id ?? r.user!.id,
              created_at: at,
              updated_at: time(c.updated_at, at),
            };
          }),
        });
      }
      return out;
    },

    pullHeadRef: (n) => `refs/pull/${n}/head`,
  };
}

/**
 * Gitea's CheckAndEnsureSafePR: what the source says about a pull request's head repository and
 * commits is kept only when it points back at the source and has the shape
 * it claims, so a hostile server cannot make the import fetch from elsewhere.
 */
function ensureSafe(p: PullRequestRecord, baseUrl: string): PullRequestRecord {
  const out = { ...p, head: { ...p.head }, ensured_safe: true };
  if (out.head.clone_url && !underBase(out.head.clone_url, baseUrl)) out.head.clone_url = "";
  if (out.merge_commit_sha && !HEX_SHA.test(out.merge_commit_sha)) out.merge_commit_sha = "";
  if (out.head.sha && !HEX_SHA.test(out.head.sha)) out.head.sha = "";
  if (out.head.ref && !SAFE_REF.test(out.head.ref)) out.head.ref = "";
  return out;
}
