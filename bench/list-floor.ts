/**
 * The floor for bench/lists.ts: a bare Bun.serve over bun:sqlite answering the measured list
 * endpoints with the same page in Gitea's JSON shape (every field hearth sends, users, labels,
 * milestones, repositories nested, RFC 3339 dates, URLs, `X-Total-Count`, `Link`), from the same
 * database file, with statements prepared once and the cheapest queries the schema allows. No
 * authentication, no access checks, no validation: what is left is the work any server must do to
 * produce these bytes, so hearth's share of its rate is what hearth's own machinery costs.
 *
 *   bun bench/list-floor.ts --db PATH --port N --root-url http://127.0.0.1:PORT/ --viewer NAME
 */
import { Database } from "bun:sqlite";

const argv = process.argv.slice(2);
const arg = (name: string, def?: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1]! : def;
};
const ROOT = arg("root-url", "http://127.0.0.1:3000/")!;
const db = new Database(arg("db")!, { readonly: true });
db.exec("PRAGMA busy_timeout = 5000");
const viewer = db.query("SELECT * FROM user WHERE lower_name = ?").get(arg("viewer", "bench")!.toLowerCase()) as Row;

type Row = Record<string, any>;
const iso = (unix: number) => new Date(unix * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
const isoOrNull = (unix: number) => (unix ? iso(unix) : null);
const ids = (rows: Row[], key = "id") => JSON.stringify(rows.map((r) => r[key]));

const q = {
  userById: db.query("SELECT * FROM user WHERE id IN (SELECT value FROM json_each(?))"),
  repoByName: db.query("SELECT r.*, u.name AS owner_login FROM repository r JOIN user u ON u.id = r.owner_id WHERE u.lower_name = ? AND r.lower_name = ?"),
  reposByIds: db.query("SELECT * FROM repository WHERE id IN (SELECT value FROM json_each(?))"),
  issuePage: db.query("SELECT id FROM issue WHERE repo_id = ?1 AND is_closed = ?2 ORDER BY created_unix DESC, id DESC LIMIT ?3 OFFSET ?4"),
  pullPage: db.query("SELECT id FROM issue WHERE repo_id = ?1 AND is_pull = 1 AND is_closed = ?2 ORDER BY created_unix DESC, id DESC LIMIT ?3 OFFSET ?4"),
  searchPage: db.query("SELECT id FROM issue WHERE is_pull IN (0, 1) AND is_closed = ?1 ORDER BY created_unix DESC, id DESC LIMIT ?2 OFFSET ?3"),
  searchTotal: db.query("SELECT sum(num_issues - num_closed_issues + num_pulls - num_closed_pulls) AS n FROM repository"),
  issuesByIds: db.query("SELECT * FROM issue WHERE id IN (SELECT value FROM json_each(?))"),
  labelsOf: db.query(
    "SELECT il.issue_id, l.* FROM issue_label il JOIN label l ON l.id = il.label_id WHERE il.issue_id IN (SELECT value FROM json_each(?)) ORDER BY l.name",
  ),
  assigneesOf: db.query("SELECT * FROM issue_assignees WHERE issue_id IN (SELECT value FROM json_each(?)) ORDER BY id"),
  milestonesByIds: db.query("SELECT * FROM milestone WHERE id IN (SELECT value FROM json_each(?))"),
  pullsOf: db.query("SELECT * FROM pull_request WHERE issue_id IN (SELECT value FROM json_each(?))"),
  branch: db.query("SELECT commit_id FROM branch WHERE repo_id = ? AND name = ?"),
  commentPage: db.query("SELECT * FROM comment WHERE repo_id = ?1 AND type = 0 ORDER BY created_unix ASC, id ASC LIMIT ?2 OFFSET ?3"),
  issueNumbers: db.query("SELECT id, `index`, is_pull FROM issue WHERE id IN (SELECT value FROM json_each(?))"),
  repoSearch: db.query("SELECT * FROM repository ORDER BY lower_name ASC, id ASC LIMIT ? OFFSET ?"),
  repoCount: db.query("SELECT count(*) AS n FROM repository"),
  ownerRepos: db.query("SELECT * FROM repository WHERE owner_id = ? ORDER BY id ASC LIMIT ? OFFSET ?"),
  ownerRepoCount: db.query("SELECT count(*) AS n FROM repository WHERE owner_id = ?"),
  topicsOf: db.query("SELECT repo_id, name FROM repo_topic WHERE repo_id IN (SELECT value FROM json_each(?)) ORDER BY name"),
  notifPage: db.query("SELECT * FROM notification WHERE user_id = ? AND status IN (1, 3) ORDER BY updated_unix DESC, id DESC LIMIT ? OFFSET ?"),
  notifCount: db.query("SELECT count(*) AS n FROM notification WHERE user_id = ? AND status IN (1, 3)"),
  latestComment: db.query("SELECT issue_id, max(id) AS id FROM comment WHERE issue_id IN (SELECT value FROM json_each(?)) GROUP BY issue_id"),
  accountByName: db.query("SELECT * FROM user WHERE lower_name = ?"),
};

function users(idList: number[]): Map<number, Row> {
  return new Map((q.userById.all(JSON.stringify([...new Set(idList)])) as Row[]).map((u) => [u.id, u]));
}

function user(u: Row | undefined) {
  if (!u) return null;
  return {
    id: u.id,
    login: u.name,
    login_name: u.login_name,
    source_id: u.login_source,
    full_name: u.full_name,
    email: u.keep_email_private ? `${u.lower_name}@noreply.localhost` : u.email,
    avatar_url: `${ROOT}assets/img/avatar_default.png`,
    html_url: `${ROOT}${u.name}`,
    language: u.language,
    is_admin: !!u.is_admin,
    last_login: u.last_login_unix ? iso(u.last_login_unix) : "1970-01-01T00:00:00Z",
    created: iso(u.created_unix),
    restricted: !!u.is_restricted,
    active: !!u.is_active,
    prohibit_login: !!u.prohibit_login,
    location: u.location,
    website: u.website,
    description: u.description,
    visibility: ["public", "limited", "private"][u.visibility],
    followers_count: u.num_followers,
    following_count: u.num_following,
    starred_repos_count: u.num_stars,
    username: u.name,
  };
}

function repo(r: Row, owner: Row, topics: string[] = []) {
  const full = `${owner.name}/${r.name}`;
  return {
    id: r.id,
    owner: user(owner),
    name: r.name,
    full_name: full,
    description: r.description,
    empty: !!r.is_empty,
    private: !!r.is_private,
    fork: !!r.is_fork,
    template: !!r.is_template,
    mirror: false,
    size: Math.floor(r.size / 1024),
    language: "",
    languages_url: `${ROOT}api/v1/repos/${full}/languages`,
    html_url: `${ROOT}${full}`,
    url: `${ROOT}api/v1/repos/${full}`,
    link: "",
    ssh_url: "",
    clone_url: `${ROOT}${full}.git`,
    original_url: r.original_url,
    website: r.website,
    stars_count: r.num_stars,
    forks_count: r.num_forks,
    watchers_count: r.num_watches,
    open_issues_count: r.num_issues - r.num_closed_issues,
    open_pr_counter: r.num_pulls - r.num_closed_pulls,
    release_counter: r.num_releases,
    default_branch: r.default_branch,
    archived: !!r.is_archived,
    created_at: iso(r.created_unix),
    updated_at: iso(r.updated_unix),
    archived_at: iso(r.archived_unix),
    permissions: { admin: true, push: true, pull: true },
    has_code: !!r.has_code,
    has_issues: !!r.has_issues,
    internal_tracker: {
      enable_time_tracker: !!r.enable_time_tracker,
      allow_only_contributors_to_track_time: !!r.allow_only_contributors_to_track_time,
      enable_issue_dependencies: !!r.enable_issue_dependencies,
    },
    has_wiki: !!r.has_wiki,
    has_pull_requests: !!r.has_pull_requests,
    has_projects: !!r.has_projects,
    projects_mode: r.projects_mode,
    has_releases: !!r.has_releases,
    has_packages: !!r.has_packages,
    has_actions: !!r.has_actions,
    ignore_whitespace_conflicts: !!r.ignore_whitespace_conflicts,
    allow_merge_commits: !!r.allow_merge_commits,
    allow_rebase: !!r.allow_rebase,
    allow_rebase_explicit: !!r.allow_rebase_explicit,
    allow_squash_merge: !!r.allow_squash_merge,
    allow_fast_forward_only_merge: !!r.allow_fast_forward_only_merge,
    allow_rebase_update: !!r.allow_rebase_update,
    allow_manual_merge: !!r.allow_manual_merge,
    autodetect_manual_merge: !!r.autodetect_manual_merge,
    default_delete_branch_after_merge: !!r.default_delete_branch_after_merge,
    default_merge_style: r.default_merge_style,
    default_allow_maintainer_edit: !!r.default_allow_maintainer_edit,
    avatar_url: "",
    internal: false,
    mirror_interval: "",
    object_format_name: r.object_format_name,
    mirror_updated: "0001-01-01T00:00:00Z",
    topics,
    licenses: [],
  };
}

function repos(rows: Row[]) {
  const owners = users(rows.map((r) => r.owner_id));
  const topics = new Map<number, string[]>();
  for (const t of q.topicsOf.all(ids(rows)) as Row[]) topics.set(t.repo_id, [...(topics.get(t.repo_id) ?? []), t.name]);
  return rows.map((r) => repo(r, owners.get(r.owner_id)!, topics.get(r.id) ?? []));
}

/** Issues with their labels, milestone, assignees, poster and repository, as Gitea's Issue. */
function issues(idList: number[]) {
  const json = JSON.stringify(idList);
  const byId = new Map((q.issuesByIds.all(json) as Row[]).map((i) => [i.id, i]));
  const rows = idList.map((id) => byId.get(id)!);
  const labels = new Map<number, Row[]>();
  for (const l of q.labelsOf.all(json) as Row[]) labels.set(l.issue_id, [...(labels.get(l.issue_id) ?? []), l]);
  const assignees = new Map<number, number[]>();
  for (const a of q.assigneesOf.all(json) as Row[]) assignees.set(a.issue_id, [...(assignees.get(a.issue_id) ?? []), a.assignee_id]);
  const milestones = new Map((q.milestonesByIds.all(JSON.stringify(rows.map((i) => i.milestone_id).filter(Boolean))) as Row[]).map((m) => [m.id, m]));
  const pulls = new Map((q.pullsOf.all(json) as Row[]).map((p) => [p.issue_id, p]));
  const people = users([...rows.map((i) => i.poster_id), ...[...assignees.values()].flat()]);
  const repoRows = new Map((q.reposByIds.all(JSON.stringify([...new Set(rows.map((i) => i.repo_id))])) as Row[]).map((r) => [r.id, r]));
  const owners = users([...repoRows.values()].map((r) => r.owner_id));
  return rows.map((i) => {
    const r = repoRows.get(i.repo_id)!;
    const full = `${owners.get(r.owner_id)!.name}/${r.name}`;
    const m = milestones.get(i.milestone_id);
    const as = (assignees.get(i.id) ?? []).map((id) => user(people.get(id)));
    const p = pulls.get(i.id);
    return {
      id: i.id,
      url: `${ROOT}api/v1/repos/${full}/issues/${i.index}`,
      html_url: `${ROOT}${full}/${i.is_pull ? "pulls" : "issues"}/${i.index}`,
      number: i.index,
      user: user(people.get(i.poster_id)),
      original_author: i.original_author,
      original_author_id: i.original_author_id,
      title: i.name,
      body: i.content,
      ref: i.ref,
      assets: [],
      labels: (labels.get(i.id) ?? []).map((l) => ({
        id: l.id,
        name: l.name,
        exclusive: !!l.exclusive,
        is_archived: l.archived_unix > 0,
        color: l.color.replace(/^#/, ""),
        description: l.description,
        url: `${ROOT}api/v1/repos/${full}/labels/${l.id}`,
      })),
      milestone: m
        ? {
            id: m.id,
            title: m.name,
            description: m.content,
            state: m.is_closed ? "closed" : "open",
            open_issues: m.num_issues - m.num_closed_issues,
            closed_issues: m.num_closed_issues,
            created_at: iso(m.created_unix),
            updated_at: iso(m.updated_unix),
            closed_at: isoOrNull(m.closed_unix),
            due_on: isoOrNull(m.deadline_unix),
          }
        : null,
      assignee: as[0] ?? null,
      assignees: as.length ? as : null,
      state: i.is_closed ? "closed" : "open",
      is_locked: !!i.is_locked,
      comments: i.num_comments,
      created_at: iso(i.created_unix),
      updated_at: iso(i.updated_unix),
      closed_at: isoOrNull(i.closed_unix),
      due_date: isoOrNull(i.deadline_unix),
      time_estimate: i.time_estimate,
      pull_request: p ? { merged: !!p.has_merged, merged_at: isoOrNull(p.merged_unix), draft: false, html_url: `${ROOT}${full}/pulls/${i.index}` } : null,
      repository: { id: r.id, name: r.name, owner: owners.get(r.owner_id)!.name, full_name: full },
      pin_order: i.pin_order,
    };
  });
}

function page(url: URL) {
  const limit = Math.min(50, Math.max(1, Number(url.searchParams.get("limit") ?? 30)));
  const pageNo = Math.max(1, Number(url.searchParams.get("page") ?? 1));
  return { limit, page: pageNo, offset: (pageNo - 1) * limit };
}

/** Gitea's paging headers. */
function listResponse(url: URL, body: unknown, total: number, p: { limit: number; page: number }): Response {
  const last = Math.max(1, Math.ceil(total / p.limit));
  const link = (n: number, rel: string) => {
    const u = new URL(url);
    u.searchParams.set("page", String(n));
    return `<${ROOT}${u.pathname.slice(1)}${u.search}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (p.page < last) links.push(link(p.page + 1, "next"), link(last, "last"));
  if (p.page > 1) links.push(link(1, "first"), link(p.page - 1, "prev"));
  return new Response(JSON.stringify(body), {
    headers: {
      "Content-Type": "application/json;charset=utf-8",
      "X-Total-Count": String(total),
      Link: links.join(","),
      "Access-Control-Expose-Headers": "Link, X-Total-Count",
    },
  });
}

const closedOf = (url: URL) => (url.searchParams.get("state") === "closed" ? 1 : 0);

function repoIssues(url: URL, owner: string, name: string): Response {
  const r = q.repoByName.get(owner.toLowerCase(), name.toLowerCase()) as Row;
  const p = page(url);
  const closed = closedOf(url);
  const list = (q.issuePage.all(r.id, closed, p.limit, p.offset) as Row[]).map((x) => x.id);
  const total = closed ? r.num_closed_issues + r.num_closed_pulls : r.num_issues - r.num_closed_issues + r.num_pulls - r.num_closed_pulls;
  return listResponse(url, issues(list), total, p);
}

function repoPulls(url: URL, owner: string, name: string): Response {
  const r = q.repoByName.get(owner.toLowerCase(), name.toLowerCase()) as Row;
  const p = page(url);
  const closed = closedOf(url);
  const list = (q.pullPage.all(r.id, closed, p.limit, p.offset) as Row[]).map((x) => x.id);
  const base = issues(list);
  const [theRepo] = repos([r]);
  const pulls = new Map((q.pullsOf.all(JSON.stringify(list)) as Row[]).map((x) => [x.issue_id, x]));
  const baseSha = (q.branch.get(r.id, r.default_branch) as Row | null)?.commit_id ?? "";
  const heads = new Map<string, string>();
  const body = base.map((i) => {
    const pr = pulls.get(i.id)!;
    if (!heads.has(pr.head_branch)) heads.set(pr.head_branch, (q.branch.get(r.id, pr.head_branch) as Row | null)?.commit_id ?? "");
    const full = i.repository.full_name;
    return {
      id: pr.id,
      url: `${ROOT}${full}/pulls/${i.number}`,
      number: i.number,
      user: i.user,
      title: i.title,
      body: i.body,
      labels: i.labels,
      milestone: i.milestone,
      assignee: i.assignee,
      assignees: i.assignees,
      requested_reviewers: [],
      requested_reviewers_teams: [],
      state: i.state,
      draft: false,
      is_locked: i.is_locked,
      comments: i.comments,
      review_comments: 0,
      additions: null,
      deletions: null,
      changed_files: null,
      html_url: `${ROOT}${full}/pulls/${i.number}`,
      diff_url: `${ROOT}${full}/pulls/${i.number}.diff`,
      patch_url: `${ROOT}${full}/pulls/${i.number}.patch`,
      mergeable: pr.status === 2,
      merged: !!pr.has_merged,
      merged_at: isoOrNull(pr.merged_unix),
      merge_commit_sha: pr.merged_commit_id || null,
      merged_by: null,
      allow_maintainer_edit: !!pr.allow_maintainer_edit,
      base: { label: pr.base_branch, ref: pr.base_branch, sha: baseSha, repo_id: r.id, repo: theRepo },
      head: { label: pr.head_branch, ref: pr.head_branch, sha: heads.get(pr.head_branch), repo_id: r.id, repo: theRepo },
      merge_base: pr.merge_base,
      due_date: i.due_date,
      created_at: i.created_at,
      updated_at: i.updated_at,
      closed_at: i.closed_at,
      pin_order: i.pin_order,
    };
  });
  const total = closed ? r.num_closed_pulls : r.num_pulls - r.num_closed_pulls;
  return listResponse(url, body, total, p);
}

function issueSearch(url: URL): Response {
  const p = page(url);
  const list = (q.searchPage.all(closedOf(url), p.limit, p.offset) as Row[]).map((x) => x.id);
  return listResponse(url, issues(list), (q.searchTotal.get() as Row).n, p);
}

function repoComments(url: URL, owner: string, name: string): Response {
  const r = q.repoByName.get(owner.toLowerCase(), name.toLowerCase()) as Row;
  const p = page(url);
  const rows = q.commentPage.all(r.id, p.limit, p.offset) as Row[];
  const people = users(rows.map((c) => c.poster_id));
  const numbers = new Map((q.issueNumbers.all(ids(rows, "issue_id")) as Row[]).map((i) => [i.id, i]));
  const full = `${r.owner_login}/${r.name}`;
  const body = rows.map((c) => {
    const i = numbers.get(c.issue_id)!;
    return {
      id: c.id,
      html_url: `${ROOT}${full}/${i.is_pull ? "pulls" : "issues"}/${i.index}#issuecomment-${c.id}`,
      pull_request_url: i.is_pull ? `${ROOT}${full}/pulls/${i.index}` : "",
      issue_url: i.is_pull ? "" : `${ROOT}${full}/issues/${i.index}`,
      user: user(people.get(c.poster_id)),
      original_author: c.original_author,
      original_author_id: c.original_author_id,
      body: c.content,
      assets: [],
      created_at: iso(c.created_unix),
      updated_at: iso(c.updated_unix),
    };
  });
  return listResponse(url, body, r.num_comments, p);
}

function repoSearch(url: URL): Response {
  const p = page(url);
  const rows = q.repoSearch.all(p.limit, p.offset) as Row[];
  return listResponse(url, { ok: true, data: repos(rows) }, (q.repoCount.get() as Row).n, p);
}

function ownerRepos(url: URL, name: string): Response {
  const p = page(url);
  const owner = q.accountByName.get(name.toLowerCase()) as Row;
  const rows = q.ownerRepos.all(owner.id, p.limit, p.offset) as Row[];
  return listResponse(url, repos(rows), (q.ownerRepoCount.get(owner.id) as Row).n, p);
}

function notifications(url: URL): Response {
  const p = page(url);
  const rows = q.notifPage.all(viewer.id, p.limit, p.offset) as Row[];
  const issueRows = new Map((q.issuesByIds.all(ids(rows, "issue_id")) as Row[]).map((i) => [i.id, i]));
  const latest = new Map((q.latestComment.all(ids(rows, "issue_id")) as Row[]).map((c) => [c.issue_id, c.id]));
  const repoRows = q.reposByIds.all(JSON.stringify([...new Set(rows.map((n) => n.repo_id))])) as Row[];
  const repoJson = new Map(repos(repoRows).map((r) => [r.id, r]));
  const body = rows.map((n) => {
    const i = issueRows.get(n.issue_id)!;
    const r = repoJson.get(n.repo_id)!;
    const kind = i.is_pull ? "pulls" : "issues";
    const c = latest.get(i.id);
    return {
      id: n.id,
      repository: r,
      subject: {
        title: i.name,
        url: `${ROOT}api/v1/repos/${r.full_name}/issues/${i.index}`,
        latest_comment_url: c ? `${ROOT}api/v1/repos/${r.full_name}/issues/comments/${c}` : "",
        html_url: `${ROOT}${r.full_name}/${kind}/${i.index}`,
        latest_comment_html_url: c ? `${ROOT}${r.full_name}/${kind}/${i.index}#issuecomment-${c}` : "",
        type: i.is_pull ? "Pull" : "Issue",
        state: i.is_closed ? "closed" : "open",
      },
      unread: n.status === 1,
      pinned: n.status === 3,
      updated_at: iso(n.updated_unix),
      url: `${ROOT}api/v1/notifications/threads/${n.id}`,
    };
  });
  return listResponse(url, body, (q.notifCount.get(viewer.id) as Row).n, p);
}

const routes: [RegExp, (url: URL, ...m: string[]) => Response][] = [
  [/^\/api\/v1\/repos\/issues\/search$/, issueSearch],
  [/^\/api\/v1\/repos\/search$/, repoSearch],
  [/^\/api\/v1\/repos\/([^/]+)\/([^/]+)\/issues\/comments$/, repoComments],
  [/^\/api\/v1\/repos\/([^/]+)\/([^/]+)\/issues$/, repoIssues],
  [/^\/api\/v1\/repos\/([^/]+)\/([^/]+)\/pulls$/, repoPulls],
  [/^\/api\/v1\/(?:users|orgs)\/([^/]+)\/repos$/, ownerRepos],
  [/^\/api\/v1\/notifications$/, notifications],
];

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(arg("port", "0")),
  fetch(req) {
    const url = new URL(req.url);
    for (const [re, handle] of routes) {
      const m = re.exec(url.pathname);
      if (m) return handle(url, ...m.slice(1).map(decodeURIComponent));
    }
    return new Response("not found", { status: 404 });
  },
});
console.log(`listening on ${server.port}`);
