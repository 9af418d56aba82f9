import { writeFileSync } from "node:fs";
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
  type ReviewRecord,
} from "../format.ts";
import { SourceHttp, type JsonAnswer } from "./http.ts";
import { isSha, normalizeColor, noteComment, reactionsOf, stateComment, type GlApprovals, type GlAward, type GlDiscussion, type GlIssue, type GlLabel, type GlMergeRequest, type GlMilestone, type GlProject, type GlRelease, type GlStateEvent } from "./gitlab-records.ts";
import { SourceError, type Downloader, type Page, type SourceOptions, type SourceRepo } from "./source.ts";

/**
 * The `gitlab` service (Gitea's GitlabDownloader): GitLab's REST API v4 at
 * `{scheme}://{host}[/{prefix}]/api/v4`. The project is found by its URL-encoded path (subgroups
 * allowed), then addressed by its id. GitLab numbers issues and merge requests separately while
 * Gitea (and hearth) share one number space, so merge request `!n` becomes pull request
 * `maxIssueIid + n`, as Gitea's gitlabIIDResolver does; comments, reviews and the head ref of a
 * renumbered pull request are read back under the merge request's own iid.
 */

/** GitLab's largest page (Gitea's maxPerPage). */
const MAX_PER_PAGE = 100;
/** Pages of one list read at most, as write-dump's own bound: 100 000 items. */
const MAX_PAGES = 1000;

/** Gitea's hasBaseURL: `url` lies under `base`. */
function hasBaseUrl(url: string, base: string): boolean {
  return url.startsWith(base.endsWith("/") ? base : `${base}/`);
}

/**
 * The page after `page`: GitLab's X-Next-Page (empty on the last page), else X-Total-Pages (left
 * out above 10 000 items), else a short page ends the list.
 */
function nextPage(headers: Record<string, string>, page: number, count: number, perPage: number): number | undefined {
  const next = headers["X-Next-Page"];
  if (next !== undefined) return /^\d+$/.test(next) && Number(next) > page ? Number(next) : undefined;
  const total = headers["X-Total-Pages"];
  if (total !== undefined && /^\d+$/.test(total)) return page < Number(total) ? page + 1 : undefined;
  return count < perPage ? undefined : page + 1;
}

/** A token as Gitea's gitlab.NewClient sends it; a user name and password are traded for one first (signIn). */
function authHeaders(opts: SourceOptions): Record<string, string> {
  return opts.authToken ? { "PRIVATE-TOKEN": opts.authToken } : {};
}

export function gitlabDownloader(env: Env, opts: SourceOptions): Downloader {
  const headers = authHeaders(opts);
  const http = new SourceHttp(env, headers);
  const address = new URL(opts.cloneAddr);

  let found: Promise<{ baseUrl: string; project: GlProject }> | undefined;
  /** The OAuth token a user name and password were traded for; git signs in with it too. */
  let oauthToken = "";

  /**
   * Gitea's gitlab.NewBasicAuthClient: GitLab's API takes no password, so the user name and
   * password are traded for an OAuth token at the host's `/oauth/token` (the password grant),
   * which every request then carries as a Bearer token.
   */
  async function signIn(): Promise<void> {
    if (opts.authToken || !opts.authPassword) return;
    const { data } = await http.postForm<{ access_token?: string }>(`${address.origin}/oauth/token`, {
      grant_type: "password",
      username: opts.authUsername,
      password: opts.authPassword,
    });
    if (!data.access_token) throw new SourceError("Authentication failed: GitLab gave no token for the user name and password");
    oauthToken = data.access_token;
    http.signInWith({ Authorization: `Bearer ${oauthToken}` });
  }
  /** Gitea's gitlabIIDResolver: the largest issue iid read so far offsets merge request numbers. */
  let maxIssueIid = 0;
  /** Pull request number → merge request iid, for the reads that address a merge request. */
  const mergeRequestOf = new Map<number, number>();

  /**
   * Finds the GitLab under the address (Gitea's NewGitlabDownloader): `/api/v4/version` at the
   * host, else one path segment deeper each time (GitLab served below a prefix) while two
   * segments are left for the project; a 401 there still says "GitLab is here".
   */
  async function locate(): Promise<{ baseUrl: string; project: GlProject }> {
    await signIn();
    const parts = address.pathname.replace(/\.git$/, "").split("/").filter(Boolean);
    let prefix = "";
    while (parts.length >= 2) {
      if (await answersVersion(`${address.origin}${prefix}/api/v4/version`)) break;
      prefix += `/${parts.shift()}`;
      if (parts.length < 2) throw new SourceError(`${opts.cloneAddr}: no GitLab API found at this address`);
    }
    const baseUrl = `${address.origin}${prefix}`;
    const { data: project } = await http.must<GlProject>(`${baseUrl}/api/v4/projects/${encodeURIComponent(parts.join("/"))}`);
    return { baseUrl, project };
  }

  async function answersVersion(url: string): Promise<boolean> {
    try {
      return (await http.json(url, { allow404: true })) !== undefined;
    } catch (err) {
      // SourceHttp words a 401 so; the version endpoint refusing the caller still proves the API is there.
      if (err instanceof SourceError && err.message.startsWith("Authentication failed")) return true;
      throw err;
    }
  }

  const project = () => (found ??= locate());
  const api = async (path: string, query: Record<string, string | number> = {}) => {
    const { baseUrl, project: p } = await project();
    const q = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
    return `${baseUrl}/api/v4/projects/${p.id}${path}${q.size ? `?${q}` : ""}`;
  };

  /** One page; a list the project does not have (404: the feature is off) is an empty last page. */
  async function page<T>(path: string, query: Record<string, string | number>, pageNo: number, perPage: number): Promise<{ items: T[]; next?: number }> {
    const answer: JsonAnswer<T[]> | undefined = await http.json<T[]>(await api(path, { ...query, page: pageNo, per_page: perPage }), { allow404: true });
    if (!answer) return { items: [] };
    if (!Array.isArray(answer.data)) throw new SourceError(`${path}: the answer is not a list`);
    return { items: answer.data, next: nextPage(answer.headers, pageNo, answer.data.length, perPage) };
  }

  async function listAll<T>(path: string, query: Record<string, string | number> = {}): Promise<T[]> {
    const out: T[] = [];
    for (let p: number | undefined = 1, n = 0; p !== undefined; n++) {
      if (n >= MAX_PAGES) throw new SourceError(`${path}: more than ${MAX_PAGES} pages`);
      const got: { items: T[]; next?: number } = await page<T>(path, query, p, MAX_PER_PAGE);
      out.push(...got.items);
      p = got.items.length ? got.next : undefined;
    }
    return out;
  }

  /** The merge request a pull request number stands for, or the issue's own iid. */
  const target = (n: number) => {
    const iid = mergeRequestOf.get(n);
    return iid === undefined ? { kind: "issues", iid: n } : { kind: "merge_requests", iid };
  };

  return {
    service: "gitlab",

    async repo(): Promise<SourceRepo> {
      const { project: p } = await project();
      return {
        name: p.name,
        owner: p.owner?.username || (p.namespace?.kind === "user" ? (p.namespace.path ?? "") : ""),
        description: p.description ?? "",
        isPrivate: p.visibility === "internal" || p.visibility === "private",
        defaultBranch: p.default_branch ?? "",
        originalUrl: p.web_url,
        cloneUrl: p.http_url_to_repo,
        cloneCredentials: opts.authToken || oauthToken
          ? { username: "oauth2", password: opts.authToken || oauthToken }
          : { username: opts.authUsername, password: opts.authPassword },
      };
    },

    async topics(): Promise<string[]> {
      const { project: p } = await project();
      return p.topics ?? p.tag_list ?? [];
    },

    async milestones(): Promise<MilestoneRecord[]> {
      return (await listAll<GlMilestone>("/milestones", { state: "all" })).map((m) => {
        const closed = m.state === "closed";
        return {
          title: m.title,
          description: m.description ?? "",
          // GitLab's due date is a day; Gitea reads it as that day's midnight, UTC.
          deadline: m.due_date && /^\d{4}-\d{2}-\d{2}$/.test(m.due_date) ? `${m.due_date}T00:00:00Z` : NO_DEADLINE,
          created: m.created_at,
          updated: m.updated_at || m.created_at,
          // GitLab keeps no closing time: Gitea takes the last update's.
          closed: closed ? m.updated_at || m.created_at : null,
          state: closed ? "closed" : "open",
        };
      });
    },

    async labels(): Promise<LabelRecord[]> {
      return (await listAll<GlLabel>("/labels")).map((l) => ({ name: l.name, color: normalizeColor(l.color), description: l.description ?? "" }));
    },

    async releases(): Promise<ReleaseRecord[]> {
      return (await listAll<GlRelease>("/releases")).map((r) => ({
        tag_name: r.tag_name,
        target_commitish: r.commit?.id ?? "",
        name: r.name ?? "",
        body: r.description ?? "",
        draft: false,
        prerelease: false,
        publisher_id: r.author?.id ?? 0,
        publisher_name: r.author?.username ?? "",
        publisher_email: r.author?.email ?? "",
        assets: (r.assets?.links ?? []).map(
          (l): AssetRecord => ({
            id: l.id,
            name: l.name,
            // Gitea reads a link's "content type" from the archive list by position, which says nothing of the link.
            content_type: null,
            size: 0,
            download_count: 0,
            created: r.created_at,
            updated: r.created_at,
            download_url: l.url,
          }),
        ),
        created: r.created_at,
        published: r.released_at || r.created_at,
      }));
    },

    async downloadAsset(asset: AssetRecord, file: string): Promise<void> {
      const url = asset.download_url ?? "";
      const { baseUrl } = await project();
      // A link elsewhere than the GitLab is not fetched: Gitea keeps its address as the file's content.
      if (!hasBaseUrl(url, baseUrl)) {
        writeFileSync(file, url);
        return;
      }
      await http.download(url, file, env.settings.attachment.maxSize * 1024 * 1024, headers);
    },

    async issues(pageNo: number, perPage: number): Promise<Page<IssueRecord>> {
      const size = Math.min(perPage, MAX_PER_PAGE);
      const { items, next } = await page<GlIssue>("/issues", { state: "all", sort: "asc", order_by: "created_at" }, pageNo, size);
      const out: IssueRecord[] = [];
      for (const i of items) {
        if (mergeRequestOf.size) throw new Error("issues must all be read before merge requests are numbered");
        maxIssueIid = Math.max(maxIssueIid, i.iid);
        out.push({
          number: i.iid,
          poster_id: i.author.id,
          poster_name: i.author.username,
          title: i.title,
          content: i.description ?? "",
          ...(i.milestone ? { milestone: i.milestone.title } : {}),
          state: i.state === "closed" ? "closed" : "open",
          is_locked: !!i.discussion_locked,
          created: i.created_at,
          updated: i.updated_at,
          closed: i.closed_at ?? null,
          labels: (i.labels ?? []).map((name) => ({ name })),
          reactions: reactionsOf(await listAll<GlAward>(`/issues/${i.iid}/award_emoji`)),
        });
      }
      return { items: out, isEnd: next === undefined };
    },

    async comments(n: number): Promise<CommentRecord[]> {
      const { kind, iid } = target(n);
      const notes = (await listAll<GlDiscussion>(`/${kind}/${iid}/discussions`)).flatMap((d) => d.notes.map((note) => noteComment(n, note)));
      const events = (await listAll<GlStateEvent>(`/${kind}/${iid}/resource_state_events`)).flatMap((e) => stateComment(n, e) ?? []);
      // Oldest first across both lists (a stable sort keeps each list's own order on equal times).
      return [...notes, ...events].sort((a, b) => Date.parse(a.created) - Date.parse(b.created));
    },

    async pullRequests(pageNo: number, perPage: number): Promise<Page<PullRequestRecord>> {
      const size = Math.min(perPage, MAX_PER_PAGE);
      // The list leaves fields out (gitlab-org/gitlab#29620): each merge request is read again by itself, as Gitea does.
      const { items, next } = await page<{ iid: number }>("/merge_requests", { state: "all", view: "simple" }, pageNo, size);
      const out: PullRequestRecord[] = [];
      for (const { iid } of items) {
        const { data: mr } = await http.must<GlMergeRequest>(await api(`/merge_requests/${iid}`));
        const merged = mr.state === "merged";
        const closed = merged || mr.state === "closed";
        const number = maxIssueIid + mr.iid;
        mergeRequestOf.set(number, mr.iid);
        const { project: p } = await project();
        const mergeSha = mr.merge_commit_sha || mr.squash_commit_sha;
        out.push({
          number,
          foreignindex: mr.iid,
          title: mr.title,
          poster_id: mr.author.id,
          poster_name: mr.author.username,
          content: mr.description ?? "",
          ...(mr.milestone ? { milestone: mr.milestone.title } : {}),
          state: closed ? "closed" : "open",
          created: mr.created_at,
          updated: mr.updated_at,
          closed: mr.closed_at ?? (merged ? mr.updated_at : null),
          labels: (mr.labels ?? []).map((name) => ({ name })),
          merged,
          merged_time: merged ? mr.merged_at || mr.updated_at : null,
          // Gitea's CheckAndEnsureSafePR: a merge commit id that is not one is dropped.
          ...(isSha(mergeSha) ? { merge_commit_sha: mergeSha } : {}),
          head: { ref: mr.source_branch, sha: isSha(mr.sha) ? mr.sha : "", repo_name: p.name, owner_name: mr.author.username },
          base: {
            ref: mr.target_branch,
            sha: isSha(mr.diff_refs?.base_sha) ? mr.diff_refs!.base_sha! : "",
            repo_name: p.name,
            owner_name: mr.author.username,
          },
          is_locked: mr.state === "locked",
          is_draft: !!mr.draft,
          reactions: reactionsOf(await listAll<GlAward>(`/merge_requests/${mr.iid}/award_emoji`)),
          ensured_safe: true,
        });
      }
      return { items: out, isEnd: next === undefined };
    },

    async reviews(n: number): Promise<ReviewRecord[]> {
      // GitLab says who approved, not how anyone reviewed (Gitea's GetReviews reads /approvals only).
      const answer = await http.json<GlApprovals>(await api(`/merge_requests/${target(n).iid}/approvals`), { allow404: true });
      if (!answer) return [];
      const a = answer.data;
      const createdAt = a.created_at || a.updated_at || new Date().toISOString();
      return (a.approved_by ?? []).map(({ user }) => ({
        issue_index: n,
        reviewer_id: user.id,
        reviewer_name: user.username,
        official: false,
        commit_id: "",
        content: "",
        created_at: createdAt,
        state: "APPROVED",
      }));
    },

    pullHeadRef(n: number): string {
      return `refs/merge-requests/${target(n).iid}/head`;
    },
  };
}
