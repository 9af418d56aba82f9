import { afterAll } from "bun:test";
import { gitHttpBackend } from "./git-cgi.ts";

/**
 * A stand-in GitLab on 127.0.0.1 for migration tests: the REST API v4 endpoints Gitea's GitLab
 * downloader reads, answering in the shapes docs.gitlab.com documents (the example responses of
 * the Projects, Issues, Merge requests, Merge request approvals, Discussions, Emoji reactions,
 * Resource state events, Labels, Milestones and Releases pages), paged as GitLab pages (page and
 * per_page, X-Total/X-Total-Pages/X-Next-Page/X-Prev-Page and Link) with its RateLimit-* headers.
 * Every API call needs the token (PRIVATE-TOKEN or a Bearer header), else `401 Unauthorized`.
 * The git data is a bare repository under `gitRoot` served by `git http-backend` (CGI), signed in
 * with HTTP basic auth whose password is the token (GitLab's `oauth2:<token>`).
 *
 * The test describes the project with the seed types below; the fake renders them.
 */

export interface SeedUser {
  id: number;
  username: string;
  name: string;
}
export interface SeedNote {
  id: number;
  author: SeedUser;
  body: string;
  at: string;
  system?: boolean;
}
/** A thread of notes; one note alone is an individual note (a plain comment). */
export interface SeedThread {
  notes: SeedNote[];
}
export interface SeedAward {
  id: number;
  name: string;
  user: SeedUser;
  at: string;
}
export interface SeedStateEvent {
  id: number;
  user: SeedUser;
  at: string;
  state: "closed" | "reopened" | "merged";
}
interface SeedItem {
  iid: number;
  title: string;
  description: string;
  author: SeedUser;
  created_at: string;
  updated_at: string;
  closed_at?: string;
  labels?: string[];
  /** A milestone's title. */
  milestone?: string;
  awards?: SeedAward[];
  threads?: SeedThread[];
  stateEvents?: SeedStateEvent[];
}
export interface SeedIssue extends SeedItem {
  state: "opened" | "closed";
  discussion_locked?: boolean;
}
export interface SeedMergeRequest extends SeedItem {
  state: "opened" | "closed" | "locked" | "merged";
  source_branch: string;
  target_branch: string;
  sha: string;
  base_sha: string;
  merge_commit_sha?: string;
  merged_at?: string;
  merged_by?: SeedUser;
  draft?: boolean;
  approved_by?: SeedUser[];
}
export interface SeedLabel {
  id: number;
  name: string;
  color: string;
  description: string;
}
export interface SeedMilestone {
  id: number;
  iid: number;
  title: string;
  description: string;
  state: "active" | "closed";
  due_date?: string;
  created_at: string;
  updated_at: string;
}
export interface SeedRelease {
  tag_name: string;
  name: string;
  description: string;
  created_at: string;
  released_at: string;
  author: SeedUser;
  commit_id: string;
  /** Files the fake serves, or a link to `url` elsewhere (its bytes are then ignored). */
  links: { id: number; name: string; bytes: Uint8Array; url?: string }[];
}
export interface GitlabSeed {
  project: {
    id: number;
    /** The group path, subgroups included: `acme/tools`. */
    namespace: string;
    path: string;
    name: string;
    description: string;
    visibility: "public" | "internal" | "private";
    default_branch: string;
    topics: string[];
    created_at: string;
  };
  labels: SeedLabel[];
  milestones: SeedMilestone[];
  issues: SeedIssue[];
  mergeRequests: SeedMergeRequest[];
  releases: SeedRelease[];
}

export interface FakeGitlab {
  /** `http://127.0.0.1:port` and the prefix (no trailing slash). */
  url: string;
  /** The project's address to migrate from: `{url}/{namespace}/{path}.git`. */
  cloneAddr: string;
  /** Every request's method, path and query, in order. */
  requests: string[];
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });

/** GitLab's words for an unknown resource. */
const notFound = (what = "404 Not found") => json({ message: what }, 404);

/** GitLab's default and largest page sizes (docs: REST API, offset-based pagination). */
const DEFAULT_PER_PAGE = 20;
const MAX_PER_PAGE = 100;

const RATE_LIMIT = 2000;

export interface FakeGitlabOptions {
  token: string;
  /** Holds the bare repository at `{namespace}/{path}.git` (with `refs/merge-requests/{iid}/head` for each merge request). */
  gitRoot: string;
  /** A GitLab served below a path (`/gitlab`): everything else on the host is 404. */
  prefix?: string;
  /** A user whose name and password the password grant (`POST /oauth/token`) trades for `token`. */
  user?: { username: string; password: string };
}

/** Starts the fake; it stops when the test file ends. */
export function fakeGitlab(seed: GitlabSeed, opts: FakeGitlabOptions): FakeGitlab {
  const prefix = opts.prefix ?? "";
  const requests: string[] = [];
  let used = 0;
  const p = seed.project;
  const fullPath = `${p.namespace}/${p.path}`;

  const server: ReturnType<typeof Bun.serve> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req): Promise<Response> {
      const url = new URL(req.url);
      requests.push(`${req.method} ${url.pathname}${url.search}`);
      // go-gitlab asks for the token at the host's root, whatever the API's prefix.
      if (url.pathname === "/oauth/token" && req.method === "POST") return passwordGrant(await req.text(), opts);
      if (!url.pathname.startsWith(`${prefix}/`)) return new Response("Not Found\n", { status: 404 });
      const path = url.pathname.slice(prefix.length);
      if (path.startsWith(`/${fullPath}.git/`)) return gitHttp(req, url, path, opts);
      used++;
      const limits = rateLimitHeaders(used);
      if (!signedIn(req, opts.token)) return json({ message: "401 Unauthorized" }, 401, limits);
      const res: Response = path.startsWith("/api/v4/") ? api(url, path, base, seed) : uploads(path, fullPath, seed);
      for (const [k, v] of Object.entries(limits)) res.headers.set(k, v);
      return res;
    },
  });
  afterAll(() => server.stop(true));
  const base: string = `http://127.0.0.1:${server.port}${prefix}`;
  return { url: base, cloneAddr: `${base}/${fullPath}.git`, requests };
}

/** Doorkeeper's password grant (docs: api/oauth2.md, "Resource owner password credentials flow"). */
function passwordGrant(body: string, opts: FakeGitlabOptions): Response {
  const form = new URLSearchParams(body);
  const ok = opts.user && form.get("grant_type") === "password" && form.get("username") === opts.user.username && form.get("password") === opts.user.password;
  if (!ok) {
    return json({ error: "invalid_grant", error_description: "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client." }, 400, {});
  }
  return json({ access_token: opts.token, token_type: "Bearer", expires_in: 7200, refresh_token: "r", scope: "api", created_at: Math.floor(Date.now() / 1000) }, 200, {});
}

function signedIn(req: Request, token: string): boolean {
  return req.headers.get("private-token") === token || req.headers.get("authorization") === `Bearer ${token}`;
}

/** GitLab.com's rate-limit headers (docs: GitLab.com settings, rate limits). */
function rateLimitHeaders(used: number): Record<string, string> {
  const reset = Math.ceil(Date.now() / 60_000) * 60;
  return {
    "RateLimit-Limit": String(RATE_LIMIT),
    "RateLimit-Observed": String(used),
    "RateLimit-Remaining": String(Math.max(1, RATE_LIMIT - used)),
    "RateLimit-Reset": String(reset),
    "RateLimit-ResetTime": new Date(reset * 1000).toUTCString(),
  };
}

/** One page of `list` with GitLab's pagination headers. */
function paged(url: URL, list: unknown[]): Response {
  const perPage = Math.min(MAX_PER_PAGE, Math.max(1, Number(url.searchParams.get("per_page")) || DEFAULT_PER_PAGE));
  const page = Math.max(1, Number(url.searchParams.get("page")) || 1);
  const totalPages = Math.max(1, Math.ceil(list.length / perPage));
  const link = (n: number) => {
    const u = new URL(url);
    u.searchParams.set("page", String(n));
    u.searchParams.set("per_page", String(perPage));
    return u.href;
  };
  const rels = [
    ...(page > 1 ? [`<${link(page - 1)}>; rel="prev"`] : []),
    ...(page < totalPages ? [`<${link(page + 1)}>; rel="next"`] : []),
    `<${link(1)}>; rel="first"`,
    `<${link(totalPages)}>; rel="last"`,
  ];
  return json(list.slice((page - 1) * perPage, page * perPage), 200, {
    "X-Page": String(page),
    "X-Per-Page": String(perPage),
    "X-Total": String(list.length),
    "X-Total-Pages": String(totalPages),
    "X-Next-Page": page < totalPages ? String(page + 1) : "",
    "X-Prev-Page": page > 1 ? String(page - 1) : "",
    Link: rels.join(", "),
  });
}

function api(url: URL, path: string, base: string, seed: GitlabSeed): Response {
  const parts = path.slice("/api/v4/".length).split("/").map(decodeURIComponent);
  if (parts.length === 1 && parts[0] === "version") return json({ version: "16.7.0-ee", revision: "3fe364fe754" });
  if (parts[0] !== "projects" || parts.length < 2) return notFound("404 Not Found");
  const p = seed.project;
  // Addressed by id, or by the URL-encoded path (one segment here, its slashes as %2F).
  if (parts[1] !== String(p.id) && parts[1] !== `${p.namespace}/${p.path}`) return notFound("404 Project Not Found");
  const view = new GitlabViews(base, seed);
  const rest = parts.slice(2);
  const [kind, iidText, sub] = rest;
  if (rest.length === 0) return json(view.project());
  if (rest.length === 1) {
    switch (kind) {
      case "milestones":
        return paged(url, seed.milestones.filter((m) => ["all", null].includes(url.searchParams.get("state")) || m.state === url.searchParams.get("state")).map((m) => view.milestone(m)));
      case "labels":
        return paged(url, seed.labels.map((l) => view.label(l)));
      case "releases":
        // Sorted by released_at, newest first (GitLab's default order).
        return paged(url, [...seed.releases].sort((a, b) => b.released_at.localeCompare(a.released_at)).map((r) => view.release(r)));
      case "issues":
        return paged(url, itemsFor(url, seed.issues).map((i) => view.issue(i)));
      case "merge_requests": {
        const simple = url.searchParams.get("view") === "simple";
        return paged(url, itemsFor(url, seed.mergeRequests).map((m) => (simple ? view.simpleMergeRequest(m) : view.mergeRequest(m))));
      }
    }
    return notFound();
  }
  const items: SeedItem[] | undefined = kind === "issues" ? seed.issues : kind === "merge_requests" ? seed.mergeRequests : undefined;
  const item = items?.find((i) => String(i.iid) === iidText);
  if (!item || rest.length > 3) return notFound();
  const noun = kind === "issues" ? "Issue" : "MergeRequest";
  if (rest.length === 2) return json(kind === "issues" ? view.issue(item as SeedIssue) : view.mergeRequest(item as SeedMergeRequest));
  switch (sub) {
    case "award_emoji":
      return paged(url, (item.awards ?? []).map((a) => view.award(a, item, noun)));
    case "discussions":
      return paged(url, (item.threads ?? []).map((t) => view.discussion(t, item, noun)));
    case "resource_state_events":
      return paged(url, (item.stateEvents ?? []).map((e) => view.stateEvent(e, item, noun)));
    case "approvals":
      if (kind === "merge_requests") return json(view.approvals(item as SeedMergeRequest));
  }
  return notFound();
}

/** A list's `state` filter (`all` or none: everything) and `sort` by creation (`desc` unless asked). */
function itemsFor<T extends SeedItem & { state: string }>(url: URL, list: T[]): T[] {
  const state = url.searchParams.get("state");
  const kept = !state || state === "all" ? [...list] : list.filter((i) => i.state === state);
  kept.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.iid - b.iid);
  return url.searchParams.get("sort") === "asc" ? kept : kept.reverse();
}

/** A release link's bytes, where the link's URL points (`/{project}/uploads/{secret}/{name}`). */
function uploads(path: string, fullPath: string, seed: GitlabSeed): Response {
  for (const r of seed.releases) {
    for (const l of r.links) {
      if (path === uploadPath(fullPath, l.id, l.name)) {
        return new Response(l.bytes, { headers: { "Content-Type": "application/octet-stream" } });
      }
    }
  }
  return notFound();
}

const uploadPath = (fullPath: string, id: number, name: string) => `/${fullPath}/uploads/${id.toString(16).padStart(32, "0")}/${encodeURIComponent(name)}`;

/** The documented JSON of each resource, from the seed. */
class GitlabViews {
  private readonly webBase: string;
  constructor(
    private readonly base: string,
    private readonly seed: GitlabSeed,
  ) {
    this.webBase = `${base}/${seed.project.namespace}/${seed.project.path}`;
  }

  user(u: SeedUser) {
    return {
      id: u.id,
      username: u.username,
      name: u.name,
      state: "active",
      locked: false,
      avatar_url: `https://www.gravatar.com/avatar/${u.id.toString(16).padStart(32, "0")}?s=80&d=identicon`,
      web_url: `${this.base}/${u.username}`,
    };
  }

  project() {
    const p = this.seed.project;
    const groupName = p.namespace.split("/").at(-1)!;
    return {
      id: p.id,
      description: p.description,
      description_html: `<p data-sourcepos="1:1-1:${p.description.length}" dir="auto">${p.description}</p>`,
      name: p.name,
      name_with_namespace: `${p.namespace.split("/").join(" / ")} / ${p.name}`,
      path: p.path,
      path_with_namespace: `${p.namespace}/${p.path}`,
      created_at: p.created_at,
      updated_at: p.created_at,
      default_branch: p.default_branch,
      tag_list: p.topics,
      topics: p.topics,
      ssh_url_to_repo: `git@127.0.0.1:${p.namespace}/${p.path}.git`,
      http_url_to_repo: `${this.webBase}.git`,
      web_url: this.webBase,
      readme_url: `${this.webBase}/-/blob/${p.default_branch}/README.md`,
      forks_count: 0,
      avatar_url: null,
      star_count: 0,
      last_activity_at: p.created_at,
      namespace: {
        id: 7,
        name: groupName,
        path: groupName,
        kind: "group",
        full_path: p.namespace,
        parent_id: p.namespace.includes("/") ? 6 : null,
        avatar_url: null,
        web_url: `${this.base}/groups/${p.namespace}`,
      },
      container_registry_image_prefix: `registry.example.com/${p.namespace}/${p.path}`,
      _links: {
        self: `${this.base}/api/v4/projects/${p.id}`,
        issues: `${this.base}/api/v4/projects/${p.id}/issues`,
        merge_requests: `${this.base}/api/v4/projects/${p.id}/merge_requests`,
        repo_branches: `${this.base}/api/v4/projects/${p.id}/repository/branches`,
        labels: `${this.base}/api/v4/projects/${p.id}/labels`,
        events: `${this.base}/api/v4/projects/${p.id}/events`,
        members: `${this.base}/api/v4/projects/${p.id}/members`,
        cluster_agents: `${this.base}/api/v4/projects/${p.id}/cluster_agents`,
      },
      packages_enabled: true,
      empty_repo: false,
      archived: false,
      visibility: p.visibility,
      resolve_outdated_diff_discussions: false,
      issues_enabled: true,
      merge_requests_enabled: true,
      wiki_enabled: true,
      jobs_enabled: true,
      snippets_enabled: false,
      creator_id: 1,
      open_issues_count: this.seed.issues.filter((i) => i.state === "opened").length,
      public_jobs: true,
      shared_with_groups: [],
      only_allow_merge_if_pipeline_succeeds: false,
      request_access_enabled: false,
      merge_method: "merge",
      squash_option: "default_off",
    };
  }

  milestone(m: SeedMilestone) {
    const p = this.seed.project;
    return {
      id: m.id,
      iid: m.iid,
      project_id: p.id,
      title: m.title,
      description: m.description,
      state: m.state,
      created_at: m.created_at,
      updated_at: m.updated_at,
      due_date: m.due_date ?? null,
      start_date: null,
      expired: false,
      web_url: `${this.webBase}/-/milestones/${m.iid}`,
    };
  }

  label(l: SeedLabel) {
    const count = (list: SeedItem[], open: (i: SeedItem) => boolean) => list.filter((i) => (i.labels ?? []).includes(l.name) && open(i)).length;
    return {
      id: l.id,
      name: l.name,
      color: l.color,
      text_color: "#FFFFFF",
      description: l.description,
      description_html: l.description,
      open_issues_count: count(this.seed.issues, (i) => (i as SeedIssue).state === "opened"),
      closed_issues_count: count(this.seed.issues, (i) => (i as SeedIssue).state === "closed"),
      open_merge_requests_count: count(this.seed.mergeRequests, (i) => (i as SeedMergeRequest).state === "opened"),
      subscribed: false,
      priority: null,
      is_project_label: true,
    };
  }

  release(r: SeedRelease) {
    const full = `${this.seed.project.namespace}/${this.seed.project.path}`;
    const archive = (format: string) => ({ format, url: `${this.webBase}/-/archive/${r.tag_name}/${this.seed.project.path}-${r.tag_name}.${format}` });
    return {
      tag_name: r.tag_name,
      description: r.description,
      name: r.name,
      created_at: r.created_at,
      released_at: r.released_at,
      upcoming_release: false,
      author: this.user(r.author),
      commit: {
        id: r.commit_id,
        short_id: r.commit_id.slice(0, 8),
        title: "Release commit",
        created_at: r.created_at,
        parent_ids: [],
        message: "Release commit",
        author_name: r.author.name,
        author_email: `${r.author.username}@example.com`,
        authored_date: r.created_at,
        committer_name: r.author.name,
        committer_email: `${r.author.username}@example.com`,
        committed_date: r.created_at,
      },
      milestones: [],
      commit_path: `/${full}/-/commit/${r.commit_id}`,
      tag_path: `/${full}/-/tags/${r.tag_name}`,
      assets: {
        count: 4 + r.links.length,
        sources: ["zip", "tar.gz", "tar.bz2", "tar"].map(archive),
        links: r.links.map((l) => ({
          id: l.id,
          name: l.name,
          url: l.url ?? `${this.base}${uploadPath(full, l.id, l.name)}`,
          direct_asset_url: `${this.webBase}/-/releases/${r.tag_name}/downloads/${l.name}`,
          link_type: "other",
        })),
        evidence_file_path: `${this.webBase}/-/releases/${r.tag_name}/evidence.json`,
      },
      evidences: [],
      _links: {
        self: `${this.webBase}/-/releases/${r.tag_name}`,
        edit_url: `${this.webBase}/-/releases/${r.tag_name}/edit`,
      },
    };
  }

  private milestoneOf(title: string | undefined) {
    const m = this.seed.milestones.find((x) => x.title === title);
    return m ? this.milestone(m) : null;
  }

  private references(sigil: string, iid: number) {
    const full = `${this.seed.project.namespace}/${this.seed.project.path}`;
    return { short: `${sigil}${iid}`, relative: `${sigil}${iid}`, full: `${full}${sigil}${iid}` };
  }

  private upvotes(i: SeedItem, name: string) {
    return (i.awards ?? []).filter((a) => a.name === name).length;
  }

  private notesCount(i: SeedItem) {
    return (i.threads ?? []).flatMap((t) => t.notes).filter((n) => !n.system).length;
  }

  issue(i: SeedIssue) {
    const p = this.seed.project;
    return {
      id: 1000 + i.iid,
      iid: i.iid,
      project_id: p.id,
      title: i.title,
      description: i.description,
      state: i.state,
      created_at: i.created_at,
      updated_at: i.updated_at,
      closed_at: i.closed_at ?? null,
      closed_by: i.closed_at ? this.user(i.stateEvents?.find((e) => e.state === "closed")?.user ?? i.author) : null,
      labels: i.labels ?? [],
      milestone: this.milestoneOf(i.milestone),
      assignees: [],
      author: this.user(i.author),
      type: "ISSUE",
      assignee: null,
      user_notes_count: this.notesCount(i),
      merge_requests_count: 0,
      upvotes: this.upvotes(i, "thumbsup"),
      downvotes: this.upvotes(i, "thumbsdown"),
      due_date: null,
      confidential: false,
      discussion_locked: i.discussion_locked ?? null,
      issue_type: "issue",
      web_url: `${this.webBase}/-/issues/${i.iid}`,
      time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
      task_completion_status: { count: 0, completed_count: 0 },
      has_tasks: false,
      _links: {
        self: `${this.base}/api/v4/projects/${p.id}/issues/${i.iid}`,
        notes: `${this.base}/api/v4/projects/${p.id}/issues/${i.iid}/notes`,
        award_emoji: `${this.base}/api/v4/projects/${p.id}/issues/${i.iid}/award_emoji`,
        project: `${this.base}/api/v4/projects/${p.id}`,
        closed_as_duplicate_of: null,
      },
      references: this.references("#", i.iid),
      severity: "UNKNOWN",
      moved_to_id: null,
      service_desk_reply_to: null,
    };
  }

  /** The list's `view=simple` shape. */
  simpleMergeRequest(m: SeedMergeRequest) {
    return {
      id: 2000 + m.iid,
      iid: m.iid,
      project_id: this.seed.project.id,
      title: m.title,
      description: m.description,
      state: m.state,
      created_at: m.created_at,
      updated_at: m.updated_at,
      web_url: `${this.webBase}/-/merge_requests/${m.iid}`,
    };
  }

  mergeRequest(m: SeedMergeRequest) {
    const p = this.seed.project;
    const merged = m.state === "merged";
    return {
      id: 2000 + m.iid,
      iid: m.iid,
      project_id: p.id,
      title: m.title,
      description: m.description,
      state: m.state,
      created_at: m.created_at,
      updated_at: m.updated_at,
      merged_by: merged && m.merged_by ? this.user(m.merged_by) : null,
      merge_user: merged && m.merged_by ? this.user(m.merged_by) : null,
      merged_at: m.merged_at ?? null,
      prepared_at: m.created_at,
      closed_by: m.state === "closed" ? this.user(m.author) : null,
      closed_at: m.closed_at ?? null,
      target_branch: m.target_branch,
      source_branch: m.source_branch,
      user_notes_count: this.notesCount(m),
      upvotes: this.upvotes(m, "thumbsup"),
      downvotes: this.upvotes(m, "thumbsdown"),
      author: this.user(m.author),
      assignees: [],
      assignee: null,
      reviewers: (m.approved_by ?? []).map((u) => this.user(u)),
      source_project_id: p.id,
      target_project_id: p.id,
      labels: m.labels ?? [],
      draft: m.draft ?? false,
      work_in_progress: m.draft ?? false,
      milestone: this.milestoneOf(m.milestone),
      merge_when_pipeline_succeeds: false,
      merge_status: merged ? "can_be_merged" : "checking",
      detailed_merge_status: merged ? "not_open" : "mergeable",
      sha: m.sha,
      merge_commit_sha: m.merge_commit_sha ?? null,
      squash_commit_sha: null,
      discussion_locked: null,
      should_remove_source_branch: null,
      force_remove_source_branch: false,
      allow_collaboration: false,
      allow_maintainer_to_push: false,
      reference: `!${m.iid}`,
      references: this.references("!", m.iid),
      web_url: `${this.webBase}/-/merge_requests/${m.iid}`,
      time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
      squash: false,
      squash_on_merge: false,
      task_completion_status: { count: 0, completed_count: 0 },
      has_conflicts: false,
      blocking_discussions_resolved: true,
      subscribed: false,
      changes_count: "1",
      latest_build_started_at: null,
      latest_build_finished_at: null,
      first_deployed_to_production_at: null,
      pipeline: null,
      head_pipeline: null,
      diff_refs: { base_sha: m.base_sha, head_sha: m.sha, start_sha: m.base_sha },
      merge_error: null,
      first_contribution: false,
      user: { can_merge: true },
      approvals_before_merge: null,
    };
  }

  award(a: SeedAward, item: SeedItem, noun: string) {
    return {
      id: a.id,
      name: a.name,
      user: this.user(a.user),
      created_at: a.at,
      updated_at: a.at,
      awardable_id: (noun === "Issue" ? 1000 : 2000) + item.iid,
      awardable_type: noun,
    };
  }

  discussion(t: SeedThread, item: SeedItem, noun: string) {
    const individual = t.notes.length === 1;
    return {
      id: t.notes[0]!.id.toString(16).padStart(40, "0"),
      individual_note: individual,
      notes: t.notes.map((n) => ({
        id: n.id,
        type: individual ? null : "DiscussionNote",
        body: n.body,
        attachment: null,
        author: this.user(n.author),
        created_at: n.at,
        updated_at: n.at,
        system: n.system ?? false,
        noteable_id: (noun === "Issue" ? 1000 : 2000) + item.iid,
        noteable_type: noun,
        project_id: this.seed.project.id,
        noteable_iid: item.iid,
        resolvable: false,
        confidential: false,
        internal: false,
      })),
    };
  }

  stateEvent(e: SeedStateEvent, item: SeedItem, noun: string) {
    return {
      id: e.id,
      user: this.user(e.user),
      created_at: e.at,
      resource_type: noun,
      resource_id: (noun === "Issue" ? 1000 : 2000) + item.iid,
      state: e.state,
    };
  }

  approvals(m: SeedMergeRequest) {
    const approvedBy = m.approved_by ?? [];
    return {
      id: 2000 + m.iid,
      iid: m.iid,
      project_id: this.seed.project.id,
      title: m.title,
      description: m.description,
      state: m.state,
      created_at: m.created_at,
      updated_at: m.updated_at,
      merge_status: "can_be_merged",
      approvals_required: 1,
      approvals_left: Math.max(0, 1 - approvedBy.length),
      approved_by: approvedBy.map((u) => ({ user: this.user(u) })),
    };
  }
}

/** Smart HTTP through `git http-backend`, behind GitLab's basic auth (any user name, the token as password). */
async function gitHttp(req: Request, url: URL, path: string, opts: FakeGitlabOptions): Promise<Response> {
  const auth = req.headers.get("authorization") ?? "";
  const [user, password] = auth.startsWith("Basic ") ? Buffer.from(auth.slice(6), "base64").toString().split(/:(.*)/s) : [];
  if (password !== opts.token) {
    return new Response("HTTP Basic: Access denied\n", { status: 401, headers: { "WWW-Authenticate": 'Basic realm="GitLab"' } });
  }
  return gitHttpBackend(req, { projectRoot: opts.gitRoot, pathInfo: path, remoteUser: user ?? "" });
}
