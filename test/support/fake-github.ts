import { join } from "node:path";
import { gitHttpBackend } from "./git-cgi.ts";

/**
 * A GitHub Enterprise server on loopback for migration tests: the REST v3 endpoints Gitea's GitHub
 * downloader reads, under `/api/v3`, answering with the shapes docs.github.com documents for them
 * (field names and nesting of its examples: simple-user, repository, label, milestone, issue,
 * issue-comment, reaction, pull-request-simple, pull-request-review, review-comment, release,
 * release-asset), paged by `per_page`/`page` with a Link header, with the rate-limit headers, and
 * signed in by one token (401 "Bad credentials" for any other). The git data is served by
 * `git http-backend` over `{gitRoot}/{owner}/{name}.git`, prepared by the test.
 *
 * The test describes the repository briefly (`GhSeed`); the fake writes out GitHub's JSON.
 */

export interface SeedReaction {
  user: string;
  content: string;
}
export interface SeedComment {
  user: string;
  body: string;
  created: string;
  reactions?: SeedReaction[];
}
export interface SeedIssue {
  number: number;
  title: string;
  body: string;
  user: string;
  created: string;
  closed?: string;
  labels?: string[];
  milestone?: string;
  locked?: boolean;
  assignees?: string[];
  reactions?: SeedReaction[];
  comments?: SeedComment[];
}
export interface SeedReviewComment {
  user: string;
  body: string;
  path: string;
  line: number;
  side: "LEFT" | "RIGHT";
  /** The hunk up to the commented line, as GitHub cuts it. */
  diffHunk: string;
  position: number;
  /**
   * Leave out the optional line fields (side, line, original_line, start_*), as the list of a
   * review's comments is seen to do: the hunk is then all there is to place the comment.
   */
  omitLine?: boolean;
}
export interface SeedReview {
  user: string;
  state: "APPROVED" | "CHANGES_REQUESTED" | "COMMENTED" | "DISMISSED" | "PENDING";
  body: string;
  commitId: string;
  submitted: string | null;
  comments?: SeedReviewComment[];
}
export interface SeedPull extends SeedIssue {
  head: { ref: string; sha: string; user?: string; repo?: string };
  base: { ref: string; sha: string };
  merged?: string;
  mergeCommitSha?: string;
  draft?: boolean;
  reviews?: SeedReview[];
  /** Reviews asked of these people and not given yet. */
  requestedReviewers?: string[];
}
export interface SeedRelease {
  tag: string;
  target: string;
  name: string;
  body: string;
  user: string;
  created: string;
  published: string | null;
  draft?: boolean;
  prerelease?: boolean;
  assets?: { name: string; contentType: string; bytes: Uint8Array }[];
}
export interface GhSeed {
  owner: string;
  name: string;
  description: string;
  private: boolean;
  defaultBranch: string;
  topics: string[];
  labels: { name: string; color: string; description: string }[];
  milestones: { title: string; description: string; state: "open" | "closed"; created: string; closed?: string; dueOn?: string }[];
  issues: SeedIssue[];
  pulls: SeedPull[];
  releases: SeedRelease[];
}

export interface FakeGitHub {
  /** `http://127.0.0.1:{port}/` */
  url: string;
  /** The repository's address as a user pastes it. */
  repoUrl: string;
  /** Every request's method, path and query, in order. */
  requests: string[];
  /**
   * The first page of issues is answered with the quota spent (X-RateLimit-Remaining 0) and a reset
   * a second or two ahead; API requests that arrive before the reset are refused with GitHub's 403
   * and counted here.
   */
  rateLimit: { announced: boolean; refusedEarly: number };
  stop(): void;
}

type Json = Record<string, unknown>;

const PER_PAGE_DEFAULT = 30;
const PER_PAGE_MAX = 100;
const REACTION_NAMES = ["+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes"];
const DOCS = "https://docs.github.com/rest";

export function startFakeGitHub(seed: GhSeed, opts: { token: string; gitRoot: string }): FakeGitHub {
  const state: FakeGitHub["rateLimit"] = { announced: false, refusedEarly: 0 };
  const requests: string[] = [];
  let limitedUntil = 0;

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    fetch: async (req) => {
      const u = new URL(req.url);
      requests.push(`${req.method} ${u.pathname}${u.search}`);
      if (u.pathname.startsWith("/api/v3/")) return api(req, u);
      const gitPrefix = `/${seed.owner}/${seed.name}.git/`;
      if (u.pathname.startsWith(gitPrefix)) return gitHttp(req, u);
      const download = `/${seed.owner}/${seed.name}/releases/download/`;
      if (u.pathname.startsWith(download)) return browserDownload(decodeURIComponent(u.pathname.slice(download.length)));
      return new Response("Not Found", { status: 404 });
    },
  });
  const origin = `http://127.0.0.1:${server.port}`;
  const apiBase = `${origin}/api/v3`;
  const repoApi = `${apiBase}/repos/${seed.owner}/${seed.name}`;
  const htmlBase = `${origin}/${seed.owner}/${seed.name}`;

  // ---- GitHub's JSON, as the documentation's examples lay it out ----

  const userIds = new Map<string, number>();
  const userId = (login: string) => {
    if (!userIds.has(login)) userIds.set(login, 583231 + userIds.size * 1000);
    return userIds.get(login)!;
  };
  const nodeId = (kind: string, id: number) => Buffer.from(`${kind}:${id}`).toString("base64");
  const simpleUser = (login: string): Json => ({
    login,
    id: userId(login),
    node_id: nodeId("User", userId(login)),
    avatar_url: `${origin}/avatars/${login}`,
    gravatar_id: "",
    url: `${apiBase}/users/${login}`,
    html_url: `${origin}/${login}`,
    type: "User",
    site_admin: false,
  });

  const labelJson = (name: string): Json => {
    const i = seed.labels.findIndex((l) => l.name === name);
    const l = seed.labels[i] ?? { name, color: "ededed", description: "" };
    return {
      id: 208045946 + i,
      node_id: nodeId("Label", 208045946 + i),
      url: `${repoApi}/labels/${encodeURIComponent(l.name)}`,
      name: l.name,
      description: l.description,
      color: l.color,
      default: false,
    };
  };

  const allIssues = (): (SeedIssue | SeedPull)[] => [...seed.issues, ...seed.pulls].sort((a, b) => a.number - b.number);
  const isPull = (i: SeedIssue | SeedPull): i is SeedPull => "head" in i;

  const milestoneJson = (title: string): Json => {
    const i = seed.milestones.findIndex((m) => m.title === title);
    const m = seed.milestones[i]!;
    const items = allIssues().filter((x) => x.milestone === title);
    return {
      url: `${repoApi}/milestones/${i + 1}`,
      html_url: `${htmlBase}/milestones/${encodeURIComponent(title)}`,
      labels_url: `${repoApi}/milestones/${i + 1}/labels`,
      id: 1002604 + i,
      node_id: nodeId("Milestone", 1002604 + i),
      number: i + 1,
      state: m.state,
      title: m.title,
      description: m.description,
      creator: simpleUser(seed.owner),
      open_issues: items.filter((x) => !x.closed).length,
      closed_issues: items.filter((x) => x.closed).length,
      created_at: m.created,
      updated_at: m.closed ?? m.created,
      closed_at: m.closed ?? null,
      due_on: m.dueOn ?? null,
    };
  };

  const reactionSummary = (url: string, list: SeedReaction[] = []): Json => {
    const out: Json = { url, total_count: list.length };
    for (const name of REACTION_NAMES) out[name] = list.filter((r) => r.content === name).length;
    return out;
  };

  // Comment and review comment ids, stable across requests: issue number × 1000 + position.
  const commentId = (issue: number, i: number) => 1_000_000 + issue * 1000 + i;
  const reviewId = (pull: number, i: number) => 80_000_000 + pull * 1000 + i;
  const reviewCommentId = (pull: number, review: number, i: number) => 10_000_000 + pull * 10_000 + review * 100 + i;

  const issueJson = (i: SeedIssue | SeedPull): Json => {
    const url = `${repoApi}/issues/${i.number}`;
    const pull = isPull(i);
    const out: Json = {
      id: 1347 + i.number,
      node_id: nodeId("Issue", 1347 + i.number),
      url,
      repository_url: repoApi,
      labels_url: `${url}/labels{/name}`,
      comments_url: `${url}/comments`,
      events_url: `${url}/events`,
      html_url: `${htmlBase}/${pull ? "pull" : "issues"}/${i.number}`,
      number: i.number,
      state: i.closed ? "closed" : "open",
      state_reason: i.closed ? "completed" : null,
      title: i.title,
      body: i.body,
      user: simpleUser(i.user),
      labels: (i.labels ?? []).map(labelJson),
      assignee: i.assignees?.[0] ? simpleUser(i.assignees[0]) : null,
      assignees: (i.assignees ?? []).map(simpleUser),
      milestone: i.milestone ? milestoneJson(i.milestone) : null,
      locked: i.locked ?? false,
      active_lock_reason: i.locked ? "too heated" : null,
      comments: i.comments?.length ?? 0,
      closed_at: i.closed ?? null,
      created_at: i.created,
      updated_at: i.closed ?? i.created,
      closed_by: i.closed ? simpleUser(seed.owner) : null,
      author_association: "COLLABORATOR",
      reactions: reactionSummary(`${url}/reactions`, i.reactions),
    };
    if (pull) {
      out.pull_request = {
        url: `${repoApi}/pulls/${i.number}`,
        html_url: `${htmlBase}/pull/${i.number}`,
        diff_url: `${htmlBase}/pull/${i.number}.diff`,
        patch_url: `${htmlBase}/pull/${i.number}.patch`,
        merged_at: i.merged ?? null,
      };
    }
    return out;
  };

  const repoJson = (): Json => ({
    id: 1296269,
    node_id: nodeId("Repository", 1296269),
    name: seed.name,
    full_name: `${seed.owner}/${seed.name}`,
    owner: simpleUser(seed.owner),
    private: seed.private,
    html_url: htmlBase,
    description: seed.description,
    fork: false,
    url: repoApi,
    git_url: `git://127.0.0.1/${seed.owner}/${seed.name}.git`,
    ssh_url: `git@127.0.0.1:${seed.owner}/${seed.name}.git`,
    clone_url: `${htmlBase}.git`,
    homepage: null,
    size: 108,
    default_branch: seed.defaultBranch,
    open_issues_count: allIssues().filter((i) => !i.closed).length,
    is_template: false,
    topics: seed.topics,
    has_issues: true,
    has_projects: true,
    has_wiki: true,
    has_pages: false,
    has_downloads: true,
    archived: false,
    disabled: false,
    visibility: seed.private ? "private" : "public",
    pushed_at: "2011-01-26T19:06:43Z",
    created_at: "2011-01-26T19:01:12Z",
    updated_at: "2011-01-26T19:14:43Z",
  });

  const branchJson = (b: SeedPull["head"]): Json => {
    const login = b.user ?? seed.owner;
    return {
      label: `${login}:${b.ref}`,
      ref: b.ref,
      sha: b.sha,
      user: simpleUser(login),
      repo: { ...repoJson(), name: b.repo ?? seed.name, owner: simpleUser(login) },
    };
  };

  const pullJson = (p: SeedPull): Json => {
    const url = `${repoApi}/pulls/${p.number}`;
    const issue = issueJson(p);
    return {
      url,
      id: 1 + p.number,
      node_id: nodeId("PullRequest", 1 + p.number),
      html_url: `${htmlBase}/pull/${p.number}`,
      diff_url: `${htmlBase}/pull/${p.number}.diff`,
      patch_url: `${htmlBase}/pull/${p.number}.patch`,
      issue_url: `${repoApi}/issues/${p.number}`,
      commits_url: `${url}/commits`,
      review_comments_url: `${url}/comments`,
      review_comment_url: `${repoApi}/pulls/comments{/number}`,
      comments_url: `${repoApi}/issues/${p.number}/comments`,
      statuses_url: `${repoApi}/statuses/${p.head.sha}`,
      number: p.number,
      state: issue.state,
      locked: issue.locked,
      title: p.title,
      user: issue.user,
      body: p.body,
      labels: issue.labels,
      milestone: issue.milestone,
      active_lock_reason: issue.active_lock_reason,
      created_at: issue.created_at,
      updated_at: issue.updated_at,
      closed_at: issue.closed_at,
      merged_at: p.merged ?? null,
      merge_commit_sha: p.mergeCommitSha ?? null,
      assignee: issue.assignee,
      assignees: issue.assignees,
      requested_reviewers: (p.requestedReviewers ?? []).map(simpleUser),
      requested_teams: [],
      head: branchJson(p.head),
      base: branchJson(p.base),
      _links: {
        self: { href: url },
        html: { href: `${htmlBase}/pull/${p.number}` },
        issue: { href: `${repoApi}/issues/${p.number}` },
        comments: { href: `${repoApi}/issues/${p.number}/comments` },
        review_comments: { href: `${url}/comments` },
        review_comment: { href: `${repoApi}/pulls/comments{/number}` },
        commits: { href: `${url}/commits` },
        statuses: { href: `${repoApi}/statuses/${p.head.sha}` },
      },
      author_association: "OWNER",
      auto_merge: null,
      draft: p.draft ?? false,
    };
  };

  const reactionJson = (r: SeedReaction, i: number): Json => ({
    id: 1 + i,
    node_id: nodeId("Reaction", 1 + i),
    user: simpleUser(r.user),
    content: r.content,
    created_at: "2016-05-20T20:09:31Z",
  });

  const commentJson = (issue: SeedIssue, c: SeedComment, i: number): Json => {
    const id = commentId(issue.number, i);
    return {
      id,
      node_id: nodeId("IssueComment", id),
      url: `${repoApi}/issues/comments/${id}`,
      html_url: `${htmlBase}/issues/${issue.number}#issuecomment-${id}`,
      body: c.body,
      user: simpleUser(c.user),
      created_at: c.created,
      updated_at: c.created,
      issue_url: `${repoApi}/issues/${issue.number}`,
      author_association: "COLLABORATOR",
      reactions: reactionSummary(`${repoApi}/issues/comments/${id}/reactions`, c.reactions),
    };
  };

  const reviewJson = (p: SeedPull, r: SeedReview, i: number): Json => {
    const id = reviewId(p.number, i);
    return {
      id,
      node_id: nodeId("PullRequestReview", id),
      user: simpleUser(r.user),
      body: r.body,
      state: r.state,
      html_url: `${htmlBase}/pull/${p.number}#pullrequestreview-${id}`,
      pull_request_url: `${repoApi}/pulls/${p.number}`,
      _links: { html: { href: `${htmlBase}/pull/${p.number}#pullrequestreview-${id}` }, pull_request: { href: `${repoApi}/pulls/${p.number}` } },
      // A pending review has no submitted_at (the documentation marks it optional).
      ...(r.submitted ? { submitted_at: r.submitted } : {}),
      commit_id: r.commitId,
      author_association: "COLLABORATOR",
    };
  };

  const reviewCommentJson = (p: SeedPull, r: SeedReview, ri: number, c: SeedReviewComment, i: number): Json => {
    const id = reviewCommentId(p.number, ri, i);
    const url = `${repoApi}/pulls/comments/${id}`;
    return {
      url,
      pull_request_review_id: reviewId(p.number, ri),
      id,
      node_id: nodeId("PullRequestReviewComment", id),
      diff_hunk: c.diffHunk,
      path: c.path,
      position: c.position,
      original_position: c.position,
      commit_id: r.commitId,
      original_commit_id: r.commitId,
      user: simpleUser(c.user),
      body: c.body,
      created_at: r.submitted,
      updated_at: r.submitted,
      html_url: `${htmlBase}/pull/${p.number}#discussion-r${id}`,
      pull_request_url: `${repoApi}/pulls/${p.number}`,
      author_association: "COLLABORATOR",
      _links: { self: { href: url }, html: { href: `${htmlBase}/pull/${p.number}#discussion-r${id}` }, pull_request: { href: `${repoApi}/pulls/${p.number}` } },
      reactions: reactionSummary(`${url}/reactions`),
      ...(c.omitLine ? {} : { start_line: null, original_start_line: null, start_side: null, line: c.line, original_line: c.line, side: c.side }),
    };
  };

  const assetId = (ri: number, ai: number) => 1 + ri * 100 + ai;
  const releaseJson = (r: SeedRelease, ri: number): Json => {
    const id = 1 + ri;
    return {
      url: `${repoApi}/releases/${id}`,
      html_url: `${htmlBase}/releases/tag/${r.tag}`,
      assets_url: `${repoApi}/releases/${id}/assets`,
      upload_url: `${origin}/api/uploads/repos/${seed.owner}/${seed.name}/releases/${id}/assets{?name,label}`,
      tarball_url: `${repoApi}/tarball/${r.tag}`,
      zipball_url: `${repoApi}/zipball/${r.tag}`,
      id,
      node_id: nodeId("Release", id),
      tag_name: r.tag,
      target_commitish: r.target,
      name: r.name,
      body: r.body,
      draft: r.draft ?? false,
      prerelease: r.prerelease ?? false,
      created_at: r.created,
      published_at: r.published,
      author: simpleUser(r.user),
      assets: (r.assets ?? []).map((a, ai) => assetJson(r, ri, ai)),
    };
  };
  const assetJson = (r: SeedRelease, ri: number, ai: number): Json => {
    const a = r.assets![ai]!;
    const id = assetId(ri, ai);
    return {
      url: `${repoApi}/releases/assets/${id}`,
      browser_download_url: `${htmlBase}/releases/download/${r.tag}/${encodeURIComponent(a.name)}`,
      id,
      node_id: nodeId("ReleaseAsset", id),
      name: a.name,
      label: "",
      state: "uploaded",
      content_type: a.contentType,
      size: a.bytes.length,
      download_count: 42,
      created_at: r.created,
      updated_at: r.created,
      uploader: simpleUser(r.user),
    };
  };

  // ---- the API ----

  const rateHeaders = (remaining: number, reset: number): Record<string, string> => ({
    "X-RateLimit-Limit": "5000",
    "X-RateLimit-Remaining": String(remaining),
    "X-RateLimit-Reset": String(reset),
    "X-RateLimit-Used": String(5000 - remaining),
    "X-RateLimit-Resource": "core",
  });
  const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
    Response.json(body, { status, headers: { ...rateHeaders(4999, Math.floor(Date.now() / 1000) + 3600), ...headers } });
  const notFound = () => json({ message: "Not Found", documentation_url: DOCS }, 404);

  /** The token of `Authorization: token X`, `Bearer X`, or the password of basic auth (git's way). */
  function tokenOf(req: Request): string | undefined {
    const h = req.headers.get("authorization") ?? "";
    const m = /^(?:token|bearer)\s+(.+)$/i.exec(h);
    if (m) return m[1]!.trim();
    const b = /^basic\s+(.+)$/i.exec(h);
    if (b) return Buffer.from(b[1]!, "base64").toString().split(":").slice(1).join(":");
    return undefined;
  }

  /** One page of `items` as GitHub pages a list: per_page (30, at most 100) and page, with a Link header. */
  function paged(u: URL, items: unknown[], headers: Record<string, string> = {}): Response {
    const perPage = Math.min(Math.max(Number(u.searchParams.get("per_page")) || PER_PAGE_DEFAULT, 1), PER_PAGE_MAX);
    const page = Math.max(Number(u.searchParams.get("page")) || 1, 1);
    const last = Math.max(Math.ceil(items.length / perPage), 1);
    const link = (n: number, rel: string) => {
      const to = new URL(u.href);
      to.searchParams.set("per_page", String(perPage));
      to.searchParams.set("page", String(n));
      return `<${to.href}>; rel="${rel}"`;
    };
    const links: string[] = [];
    if (page > 1) links.push(link(page - 1, "prev"));
    if (page < last) links.push(link(page + 1, "next"), link(last, "last"));
    if (page > 1) links.push(link(1, "first"));
    const extra: Record<string, string> = links.length ? { Link: links.join(", ") } : {};
    return json(items.slice((page - 1) * perPage, page * perPage), 200, { ...extra, ...headers });
  }

  function api(req: Request, u: URL): Response {
    const now = Date.now();
    if (now < limitedUntil) {
      state.refusedEarly++;
      return json({ message: "API rate limit exceeded for user ID 1.", documentation_url: DOCS }, 403, rateHeaders(0, Math.floor(limitedUntil / 1000)));
    }
    const token = tokenOf(req);
    if (token === undefined) return json({ message: "Requires authentication", documentation_url: DOCS }, 401);
    if (token !== opts.token) return json({ message: "Bad credentials", documentation_url: DOCS }, 401);

    const prefix = `/api/v3/repos/${seed.owner}/${seed.name}`;
    if (u.pathname !== prefix && !u.pathname.startsWith(`${prefix}/`)) return notFound();
    const parts = u.pathname.slice(prefix.length).split("/").filter(Boolean);
    const [a, b, c, d, e] = parts;
    const issue = (n: string | undefined) => allIssues().find((i) => String(i.number) === n);
    const pull = (n: string | undefined) => seed.pulls.find((p) => String(p.number) === n);

    if (parts.length === 0) return json(repoJson());
    if (a === "topics" && !b) return json({ names: seed.topics });
    if (a === "labels" && !b) return paged(u, seed.labels.map((l) => labelJson(l.name)));
    if (a === "milestones" && !b) {
      const want = u.searchParams.get("state") ?? "open";
      return paged(u, seed.milestones.filter((m) => want === "all" || m.state === want).map((m) => milestoneJson(m.title)));
    }
    if (a === "issues" && !b) {
      const want = u.searchParams.get("state") ?? "open";
      const items = allIssues()
        .filter((i) => want === "all" || (want === "closed") === Boolean(i.closed))
        .sort((x, y) => (u.searchParams.get("direction") === "asc" ? 1 : -1) * x.created.localeCompare(y.created));
      if (!state.announced) {
        // The quota runs out with this page, to come back at the next whole second.
        state.announced = true;
        const reset = Math.floor(now / 1000) + 1;
        limitedUntil = reset * 1000;
        return paged(u, items.map(issueJson), rateHeaders(0, reset));
      }
      return paged(u, items.map(issueJson));
    }
    if (a === "issues" && b === "comments" && c && d === "reactions") {
      const found = allIssues().flatMap((i) => (i.comments ?? []).map((cm, k) => ({ id: commentId(i.number, k), cm })));
      const hit = found.find((x) => String(x.id) === c);
      return hit ? paged(u, (hit.cm.reactions ?? []).map(reactionJson)) : notFound();
    }
    if (a === "issues" && b && c === "reactions" && !d) {
      const i = issue(b);
      return i ? paged(u, (i.reactions ?? []).map(reactionJson)) : notFound();
    }
    if (a === "issues" && b && c === "comments" && !d) {
      const i = issue(b);
      return i ? paged(u, (i.comments ?? []).map((cm, k) => commentJson(i, cm, k))) : notFound();
    }
    if (a === "pulls" && !b) {
      const want = u.searchParams.get("state") ?? "open";
      const items = [...seed.pulls]
        .filter((p) => want === "all" || (want === "closed") === Boolean(p.closed))
        .sort((x, y) => (u.searchParams.get("direction") === "asc" ? 1 : -1) * x.created.localeCompare(y.created));
      return paged(u, items.map(pullJson));
    }
    if (a === "pulls" && b === "comments" && c && d === "reactions") return paged(u, []);
    if (a === "pulls" && b && c === "requested_reviewers" && !d) {
      const p = pull(b);
      return p ? json({ users: (p.requestedReviewers ?? []).map(simpleUser), teams: [] }) : notFound();
    }
    if (a === "pulls" && b && c === "reviews" && !d) {
      const p = pull(b);
      return p ? paged(u, (p.reviews ?? []).map((r, k) => reviewJson(p, r, k))) : notFound();
    }
    if (a === "pulls" && b && c === "reviews" && d && e === "comments") {
      const p = pull(b);
      const ri = (p?.reviews ?? []).findIndex((_, k) => String(reviewId(p!.number, k)) === d);
      if (!p || ri < 0) return notFound();
      const r = p.reviews![ri]!;
      return paged(u, (r.comments ?? []).map((cm, k) => reviewCommentJson(p, r, ri, cm, k)));
    }
    if (a === "releases" && !b) return paged(u, seed.releases.map(releaseJson));
    if (a === "releases" && b === "assets" && c && !d) {
      for (const [ri, r] of seed.releases.entries()) {
        for (const [ai, asset] of (r.assets ?? []).entries()) {
          if (String(assetId(ri, ai)) !== c) continue;
          // Asked for the bytes, GitHub answers with a redirect to the file's storage.
          if (req.headers.get("accept") === "application/octet-stream") {
            return new Response(null, { status: 302, headers: { Location: `${htmlBase}/releases/download/${r.tag}/${encodeURIComponent(asset.name)}` } });
          }
          return json(assetJson(r, ri, ai));
        }
      }
      return notFound();
    }
    return notFound();
  }

  function browserDownload(rest: string): Response {
    const slash = rest.indexOf("/");
    const r = seed.releases.find((x) => x.tag === rest.slice(0, slash));
    const asset = r?.assets?.find((x) => x.name === rest.slice(slash + 1));
    if (!asset) return new Response("Not Found", { status: 404 });
    return new Response(asset.bytes, { headers: { "Content-Type": "application/octet-stream" } });
  }

  // ---- git over HTTP: git http-backend as a CGI program ----

  async function gitHttp(req: Request, u: URL): Promise<Response> {
    if (tokenOf(req) !== opts.token) {
      return new Response("Invalid username or password.", { status: 401, headers: { "WWW-Authenticate": 'Basic realm="GitHub"' } });
    }
    return gitHttpBackend(req, { projectRoot: opts.gitRoot, pathInfo: decodeURIComponent(u.pathname), remoteUser: "git" });
  }

  return {
    url: `${origin}/`,
    repoUrl: htmlBase,
    requests,
    rateLimit: state,
    stop: () => server.stop(true),
  };
}

/** Where the test puts the bare repository the fake serves. */
export const fakeGitHubRepoDir = (gitRoot: string, owner: string, name: string): string => join(gitRoot, owner, `${name}.git`);
