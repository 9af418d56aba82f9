import type { Env } from "../../env.ts";
import {
  NO_DEADLINE,
  type AssetRecord,
  type CommentRecord,
  type IssueRecord,
  type LabelRecord,
  type MilestoneRecord,
  type PullRequestRecord,
  type ReleaseRecord,
  type ReviewCommentRecord,
  type ReviewRecord,
} from "../format.ts";
import { SourceHttp, nextLink } from "./http.ts";
import { GHOST, branchRecord, commentLine, labelRecord, reactionRecords, reviewState, type GhComment, type GhIssue, type GhLabel, type GhMilestone, type GhPull, type GhReaction, type GhRelease, type GhRepo, type GhReview, type GhReviewComment, type GhUser } from "./github-records.ts";
import { SourceError, type Downloader, type Page, type SourceOptions, type SourceRepo } from "./source.ts";

/**
 * The `github` service (Gitea's GithubDownloaderV3): GitHub's REST API v3, on github.com or on a
 * GitHub Enterprise server (`{scheme}://{host}/api/v3`). Lists are read 100 at a time following the
 * Link header; the rate limit GitHub announces is waited out by SourceHttp.
 */

/** GitHub's largest page (Gitea's maxPerPage). */
const MAX_PER_PAGE = 100;

/** GitHub's API root for a repository address: api.github.com for github.com, `/api/v3` on an Enterprise server. */
export function githubApiBase(cloneAddr: string): string {
  const u = new URL(cloneAddr);
  const host = u.hostname.toLowerCase();
  if (host === "github.com" || host === "www.github.com") return "https://api.github.com";
  return `${u.protocol}//${u.host}/api/v3`;
}

/** Owner and name from `/{owner}/{name}(.git)`, as Gitea's factory reads the address. */
function ownerAndName(cloneAddr: string): { owner: string; name: string } {
  const fields = new URL(cloneAddr).pathname.split("/");
  const owner = decodeURIComponent(fields[1] ?? "");
  const name = decodeURIComponent(fields[2] ?? "").replace(/\.git$/, "");
  if (!owner || !name) throw new SourceError(`${cloneAddr} does not name a GitHub repository (/{owner}/{repo})`);
  return { owner, name };
}

/** `url` with these query parameters set. */
function withQuery(url: string, params: Record<string, string | number>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, String(v));
  return u.href;
}

export function githubDownloader(env: Env, opts: SourceOptions): Downloader {
  const { owner, name } = ownerAndName(opts.cloneAddr);
  const repoApi = `${githubApiBase(opts.cloneAddr)}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
  // Gitea's oauth2 transport sends the token as a bearer; without one, basic auth with the given name.
  const token = opts.authToken.split(",")[0]!.trim();
  const auth: Record<string, string> = token
    ? { Authorization: `Bearer ${token}` }
    : opts.authUsername || opts.authPassword
      ? { Authorization: `Basic ${Buffer.from(`${opts.authUsername}:${opts.authPassword}`).toString("base64")}` }
      : {};
  const http = new SourceHttp(env, { Accept: "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28", ...auth });
  /** The API address of each release asset, which serves the bytes of a private repository's assets too. */
  const assetApiUrls = new Map<number, string>();
  /** When each pull request last changed: the time its outstanding review requests are recorded at. */
  const pullUpdated = new Map<number, string>();
  /** Where the next issues page starts on GitHub: pages of pull requests only are read past (see `issues`). */
  let nextIssuePage = 1;

  /** Every item of a list, page after page while the Link header names a next one; a 404 is an empty list. */
  async function listAll<T>(url: string): Promise<T[]> {
    const out: T[] = [];
    let next: string | undefined = withQuery(url, { per_page: MAX_PER_PAGE });
    while (next) {
      const page: { data: T[]; headers: Record<string, string> } | undefined = await http.json<T[]>(next, { allow404: true });
      if (!page) return out;
      if (!Array.isArray(page.data)) throw new SourceError(`${new URL(next).pathname}: the answer is not a list`);
      out.push(...page.data);
      next = nextLink(page.headers);
    }
    return out;
  }

  const reactionsOf = async (url: string) => reactionRecords(await listAll<GhReaction>(url));

  async function issueRecord(i: GhIssue): Promise<IssueRecord> {
    const user = i.user ?? GHOST;
    const record: IssueRecord = {
      number: i.number,
      poster_id: user.id,
      poster_name: user.login,
      title: i.title,
      content: i.body ?? "",
      state: i.state,
      is_locked: i.locked ?? false,
      created: i.created_at,
      updated: i.updated_at,
      closed: i.closed_at ?? null,
      labels: (i.labels ?? []).map(labelRecord),
      reactions: await reactionsOf(`${repoApi}/issues/${i.number}/reactions`),
      assignees: (i.assignees ?? []).map((a) => a.login),
    };
    if (user.email) record.poster_email = user.email;
    if (i.milestone?.title) record.milestone = i.milestone.title;
    return record;
  }

  async function pullRecord(p: GhPull): Promise<PullRequestRecord> {
    const user = p.user ?? GHOST;
    const record: PullRequestRecord = {
      number: p.number,
      title: p.title,
      poster_id: user.id,
      poster_name: user.login,
      content: p.body ?? "",
      state: p.state,
      created: p.created_at,
      updated: p.updated_at,
      closed: p.closed_at ?? null,
      labels: (p.labels ?? []).map(labelRecord),
      merged: Boolean(p.merged_at),
      merged_time: p.merged_at ?? null,
      head: branchRecord(p.head),
      base: branchRecord(p.base),
      assignees: (p.assignees ?? []).map((a) => a.login),
      is_locked: Boolean(p.active_lock_reason) || (p.locked ?? false),
      reactions: await reactionsOf(`${repoApi}/issues/${p.number}/reactions`),
      foreignindex: p.number,
      is_draft: p.draft ?? false,
    };
    if (user.email) record.poster_email = user.email;
    if (p.milestone?.title) record.milestone = p.milestone.title;
    if (p.merged_at && p.merge_commit_sha) record.merge_commit_sha = p.merge_commit_sha;
    return record;
  }

  async function reviewComments(pullNumber: number, reviewId: number): Promise<ReviewCommentRecord[]> {
    const list = await listAll<GhReviewComment>(`${repoApi}/pulls/${pullNumber}/reviews/${reviewId}/comments`);
    const out: ReviewCommentRecord[] = [];
    for (const c of list) {
      const line = commentLine(c);
      // A comment whose line cannot be worked out names no place in the diff; the import needs one.
      if (line === 0) continue;
      const record: ReviewCommentRecord = {
        id: c.id,
        content: c.body ?? "",
        tree_path: c.path,
        diff_hunk: c.diff_hunk ?? "",
        line,
        commit_id: c.commit_id ?? "",
        poster_id: (c.user ?? GHOST).id,
        reactions: await reactionsOf(`${repoApi}/pulls/comments/${c.id}/reactions`),
        created_at: c.created_at,
        updated_at: c.updated_at,
      };
      if (c.in_reply_to_id) record.in_reply_to = c.in_reply_to_id;
      if (c.position) record.position = c.position;
      out.push(record);
    }
    return out;
  }

  function releaseRecord(r: GhRelease): ReleaseRecord {
    const author = r.author ?? GHOST;
    return {
      tag_name: r.tag_name,
      target_commitish: r.target_commitish ?? "",
      name: r.name ?? "",
      body: r.body ?? "",
      draft: r.draft ?? false,
      prerelease: r.prerelease ?? false,
      publisher_id: author.id,
      publisher_name: author.login,
      publisher_email: author.email ?? "",
      assets: (r.assets ?? []).map((a): AssetRecord => {
        assetApiUrls.set(a.id, a.url);
        return {
          id: a.id,
          name: a.name,
          content_type: a.content_type ?? null,
          size: a.size,
          download_count: a.download_count ?? 0,
          created: a.created_at,
          updated: a.updated_at,
          download_url: a.browser_download_url,
          originalurl: a.browser_download_url,
        };
      }),
      created: r.created_at,
      // A draft has not been published: Gitea records its creation time then.
      published: r.published_at ?? r.created_at,
    };
  }

  return {
    service: "github",

    async repo(): Promise<SourceRepo> {
      const { data } = await http.must<GhRepo>(repoApi);
      return {
        name: data.name || name,
        owner: data.owner?.login || owner,
        description: data.description ?? "",
        isPrivate: data.private ?? false,
        defaultBranch: data.default_branch ?? "",
        originalUrl: data.html_url || opts.cloneAddr,
        cloneUrl: data.clone_url || opts.cloneAddr,
        cloneCredentials: token ? { username: "oauth2", password: token } : { username: opts.authUsername, password: opts.authPassword },
      };
    },

    async topics() {
      const answer = await http.json<{ names?: string[] }>(`${repoApi}/topics`, { allow404: true });
      return answer?.data.names ?? [];
    },

    async milestones(): Promise<MilestoneRecord[]> {
      const list = await listAll<GhMilestone>(withQuery(`${repoApi}/milestones`, { state: "all" }));
      return list.map((m) => ({
        title: m.title,
        description: m.description ?? "",
        deadline: m.due_on ?? NO_DEADLINE,
        created: m.created_at,
        updated: m.updated_at ?? m.created_at,
        closed: m.closed_at ?? null,
        state: m.state ?? "open",
      }));
    },

    async labels(): Promise<LabelRecord[]> {
      return (await listAll<GhLabel>(`${repoApi}/labels`)).map(labelRecord);
    },

    async releases() {
      return (await listAll<GhRelease>(`${repoApi}/releases`)).map(releaseRecord);
    },

    async downloadAsset(asset, file) {
      // The asset's API address answers with the bytes (or a redirect to them) when asked for
      // application/octet-stream, for private repositories too; the browser address is the fallback.
      const url = assetApiUrls.get(asset.id) ?? asset.download_url;
      if (!url) throw new SourceError(`release asset ${asset.name} has no address`);
      await http.download(url, file, env.settings.attachment.maxSize * 1024 * 1024, auth);
    },

    /**
     * GitHub lists pull requests among issues; they are dropped here. A page holding only pull
     * requests would come back empty, which ends the reading, so such pages are read past and the
     * next call carries on from where this one stopped (pages are asked for in order, from 1).
     */
    async issues(page: number, perPage: number): Promise<Page<IssueRecord>> {
      if (page === 1) nextIssuePage = 1;
      const size = Math.min(perPage, MAX_PER_PAGE);
      for (;;) {
        const url = withQuery(`${repoApi}/issues`, { state: "all", sort: "created", direction: "asc", per_page: size, page: nextIssuePage++ });
        const answer = await http.json<GhIssue[]>(url, { allow404: true });
        if (!answer) return { items: [], isEnd: true };
        const isEnd = !nextLink(answer.headers) || answer.data.length < size;
        const items: IssueRecord[] = [];
        for (const i of answer.data) if (!i.pull_request) items.push(await issueRecord(i));
        if (items.length || isEnd) return { items, isEnd };
      }
    },

    async comments(issueNumber: number): Promise<CommentRecord[]> {
      const list = await listAll<GhComment>(withQuery(`${repoApi}/issues/${issueNumber}/comments`, { sort: "created", direction: "asc" }));
      const out: CommentRecord[] = [];
      for (const c of list) {
        const user = c.user ?? GHOST;
        const record: CommentRecord = {
          issue_index: issueNumber,
          index: c.id,
          poster_id: user.id,
          poster_name: user.login,
          created: c.created_at,
          updated: c.updated_at,
          content: c.body ?? "",
          reactions: await reactionsOf(`${repoApi}/issues/comments/${c.id}/reactions`),
        };
        if (user.email) record.poster_email = user.email;
        out.push(record);
      }
      return out;
    },

    async pullRequests(page: number, perPage: number): Promise<Page<PullRequestRecord>> {
      const size = Math.min(perPage, MAX_PER_PAGE);
      const url = withQuery(`${repoApi}/pulls`, { state: "all", sort: "created", direction: "asc", per_page: size, page });
      const answer = await http.json<GhPull[]>(url, { allow404: true });
      if (!answer) return { items: [], isEnd: true };
      const items: PullRequestRecord[] = [];
      for (const p of answer.data) {
        pullUpdated.set(p.number, p.updated_at);
        items.push(await pullRecord(p));
      }
      return { items, isEnd: !nextLink(answer.headers) || answer.data.length < size };
    },

    async reviews(pullNumber: number): Promise<ReviewRecord[]> {
      const out: ReviewRecord[] = [];
      for (const r of await listAll<GhReview>(`${repoApi}/pulls/${pullNumber}/reviews`)) {
        // A pending review is its author's draft: GitHub shows it to nobody else and gives it no time.
        if (!r.submitted_at) continue;
        const user = r.user ?? GHOST;
        out.push({
          id: r.id,
          issue_index: pullNumber,
          reviewer_id: user.id,
          reviewer_name: user.login,
          official: false,
          commit_id: r.commit_id ?? "",
          content: r.body ?? "",
          created_at: r.submitted_at,
          state: reviewState(r.state),
          comments: await reviewComments(pullNumber, r.id),
        });
      }
      // Reviews asked for and not given yet (Gitea's REQUEST_REVIEW); requested teams have no reviewer to record.
      const requested = await http.json<{ users?: GhUser[] }>(`${repoApi}/pulls/${pullNumber}/requested_reviewers`, { allow404: true });
      const askedAt = pullUpdated.get(pullNumber);
      for (const user of requested?.data.users ?? []) {
        if (!askedAt) break;
        out.push({
          issue_index: pullNumber,
          reviewer_id: user.id,
          reviewer_name: user.login,
          official: false,
          commit_id: "",
          content: "",
          created_at: askedAt,
          state: "REQUEST_REVIEW",
        });
      }
      return out;
    },

    pullHeadRef: (n) => `refs/pull/${n}/head`,
  };
}
