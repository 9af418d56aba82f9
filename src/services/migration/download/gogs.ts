import type { Env } from "../../env.ts";
import type { CommentRecord, IssueRecord } from "../format.ts";
import {
  MAX_LIST_PAGES,
  allPages,
  apiAddress,
  authHeaders,
  time,
  toLabel,
  toIssueBase,
  toMilestone,
  userName,
  type ApiComment,
  type ApiIssue,
  type ApiLabel,
  type ApiMilestone,
} from "./gitea-api.ts";
import { SourceHttp } from "./http.ts";
import { SourceError, type Downloader, type SourceOptions, type SourceRepo } from "./source.ts";

/**
 * The `gogs` service, as Gitea 1.25's GogsDownloader reads Gogs' API (services/migrations/gogs.go):
 * the repository, its milestones, labels, issues and their comments. Gogs' API has no topics,
 * releases, pull requests or reactions, so those units come out empty.
 */

interface ApiRepo {
  private: boolean;
  description?: string;
  clone_url: string;
  html_url: string;
  default_branch?: string;
}

/** Gogs' page size for issues is its own setting: the list is read until a page comes back empty. */
const LIMIT = 50;

export function gogsDownloader(env: Env, opts: SourceOptions): Downloader {
  const where = apiAddress(opts.cloneAddr, "first-two");
  const http = new SourceHttp(env, authHeaders(opts));
  const repoApi = `${where.baseUrl}/api/v1/repos/${encodeURIComponent(where.owner)}/${encodeURIComponent(where.repo)}`;
  const now = new Date().toISOString();

  /** All issues of one state, the pull requests Gogs mixes into the list left out. */
  const issuesIn = async (state: "open" | "closed"): Promise<ApiIssue[]> => {
    const out: ApiIssue[] = [];
    for (let page = 1; page <= MAX_LIST_PAGES; page++) {
      const answer = await http.must<ApiIssue[]>(`${repoApi}/issues?state=${state}&page=${page}&limit=${LIMIT}`);
      if (!Array.isArray(answer.data)) throw new SourceError(`${new URL(repoApi).pathname}/issues: the answer is not a list`);
      if (answer.data.length === 0) return out;
      out.push(...answer.data.filter((i) => !i.pull_request));
    }
    throw new SourceError(`${new URL(repoApi).pathname}/issues: more than ${MAX_LIST_PAGES} pages`);
  };

  /**
   * Gitea reads open issues, then closed ones, page by page; the dump is written from pages that
   * must not come back empty before the end, so both lists are read once and handed out in pages.
   */
  let everything: Promise<IssueRecord[]> | undefined;
  const allIssues = () =>
    (everything ??= (async () => [...(await issuesIn("open")), ...(await issuesIn("closed"))].map(toIssue))());

  const toIssue = (i: ApiIssue): IssueRecord => {
    const base = toIssueBase(i, now);
    // Gogs does not say when an issue was closed: Gitea takes its last update (a Gitea-API server's closed_at is better).
    return { ...base, closed: i.state === "closed" ? time(i.closed_at, base.updated) : null };
  };

  const none = async () => [];
  return {
    service: "gogs",

    async repo(): Promise<SourceRepo> {
      const { data: r } = await http.must<ApiRepo>(repoApi);
      return {
        // Gitea names the repository from the address, not from the answer.
        name: where.repo,
        owner: where.owner,
        description: r.description ?? "",
        isPrivate: r.private,
        defaultBranch: r.default_branch ?? "",
        originalUrl: r.html_url,
        cloneUrl: r.clone_url,
        // Gogs' FormatCloneURL: a token is the user name with an empty password.
        cloneCredentials: opts.authToken
          ? { username: opts.authToken, password: "" }
          : { username: opts.authUsername, password: opts.authPassword },
      };
    },

    topics: none,

    async milestones() {
      // Gogs lists every milestone; `state=all` asks the same of a Gitea-API server, whose default is open ones.
      return (await allPages<ApiMilestone>(http, `${repoApi}/milestones?state=all`, LIMIT, "one-page")).map((m) => toMilestone(m, now));
    },

    async labels() {
      return (await allPages<ApiLabel>(http, `${repoApi}/labels`, LIMIT, "one-page")).map(toLabel);
    },

    releases: none,
    async downloadAsset() {
      throw new SourceError("Gogs has no release assets");
    },

    async issues(page, perPage) {
      const all = await allIssues();
      const start = (page - 1) * perPage;
      return { items: all.slice(start, start + perPage), isEnd: start + perPage >= all.length };
    },

    async comments(n) {
      const out: CommentRecord[] = [];
      for (const c of await allPages<ApiComment>(http, `${repoApi}/issues/${n}/comments`, LIMIT, "one-page")) {
        // Gitea skips what Gogs records as an empty comment or one whose author is gone.
        if (!c.body || !c.user) continue;
        const created = time(c.created_at, now);
        out.push({
          issue_index: n,
          poster_id: c.user.id,
          poster_name: userName(c.user),
          poster_email: c.user.email ?? "",
          content: c.body,
          created,
          updated: time(c.updated_at, created),
        });
      }
      return out;
    },

    pullRequests: async () => ({ items: [], isEnd: true }),
    reviews: none,
    pullHeadRef: (n) => `refs/pull/${n}/head`,
  };
}
