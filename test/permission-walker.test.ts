import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { apiOperations } from "../src/http/api/v1/index.ts";
import type { Access, AnyOperation } from "../src/http/route.ts";
import { repoAccessNeedsDoer, type RepoAccess } from "../src/services/access/repo-access.ts";
import { createUser } from "../src/services/user/account.ts";
import type { UserRow } from "../src/db/schema/index.ts";
import { makeTestApp } from "./support/app.ts";
import { gitClient } from "./support/git.ts";
import { populateRepo, type RepoFixture } from "./support/fixtures.ts";

/**
 * The permission walker for writes (issue 13, point 2), beside the scope walker of
 * architecture.test.ts: every operation that changes data (POST, PUT, PATCH, DELETE) and declares
 * the resource it works on (`access.repo`, `org`, `user`, `package`) is called by doers one level below what
 * its declaration needs, each of whom must get Gitea's refusal, and the database and the git refs
 * must be exactly as they were before the call.
 *
 * The cases are derived from the declaration alone (never from a list of operations), so every
 * route converted to declared access is walked the day it is converted. Path parameters name real
 * things of the fixture wherever the walker knows them (the issue, the hook, the branch...): if a
 * refusal were missing, the handler would act on something that exists and the snapshot would show it.
 */

const API = "/api/v1";
const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

// ---------------------------------------------------------------------------------------------
// The levels, derived from a declaration.

/** The signed-in doers of the fixture, by their part in it. */
type Role =
  | "alice" // owns the repositories priv, pub and arch
  | "reader" // collaborator with read on them
  | "writer" // collaborator with write
  | "repoadmin" // collaborator with admin
  | "stranger" // signed in, related to nothing
  | "restricted" // a restricted account, related to nothing
  | "orgowner" // created the organizations acme and secret (owner team)
  | "orgmember" // in a read team of both
  | "bob" // a plain account, the `:username` of user paths
  | "hidden"; // a private account
type Doer = Role | "anonymous";
/** priv: a private repository; pub: a public one; arch: a private archived one (all alice's, all populated). */
type RepoName = "priv" | "pub" | "arch";
/** acme: a public organization; secret: a private one. */
type OrgName = "acme" | "secret";
type UserName = "bob" | "hidden";
/** The owners of the fixture's package (`walker-pkg` 1.0, alice's linked to pub): public alice, the acme organization, private hidden. */
type PackageOwner = "alice" | "acme" | "hidden";

interface Case {
  /** The level walked, as reported: the declaration and the doer one level below it. */
  level: string;
  doer: Doer;
  /** The doer calls with a `public-only` token (holding every scope) instead of an `all` one. */
  publicOnly?: true;
  repo?: RepoName;
  org?: OrgName;
  user?: UserName;
  /** The owner of the packages of a `/packages/:owner` path. */
  pkgOwner?: PackageOwner;
  status: number;
  /** Gitea's message for the refusal; 404s are checked by status alone. */
  message?: string | RegExp;
}

const TOKEN_REQUIRED = "token is required";
const WRITE_REFUSED = "user should have a permission to write to a repo";
const ADMIN_REFUSED = "user should be an owner or a collaborator with admin write of a repository";
const OWNER_REFUSED = "user should be the owner of the repo";
const SITE_ADMIN_REFUSED = "user should be the site admin";
const SELF_REFUSED = "doer should be the site admin or be same as the contextUser";
const PACKAGE_REFUSED = "reqPackageAccess";
const PUBLIC_ONLY = (noun: string) => new RegExp(`^token scope is limited to public ${noun}$`);

/** The weakest collaborator who passes every repository check but `notArchived`. */
function repoPasser(need: RepoAccess): Role {
  if (need.owner) return "alice";
  if (need.admin) return "repoadmin";
  if (need.write) return "writer";
  return "reader";
}

/**
 * What an anonymous caller gets, from the first check that needs a doer in the runner's order:
 * sign-in (401) before the resources; a repository or organization that needs a doer answers 401
 * once found; Gitea's reqSelfOrAdmin answers 403 to anyone who is not the account. Undefined when
 * nothing in the declaration needs a doer (then the handler decides, and the walker cannot).
 */
function anonymousRefusal(access: Access): Pick<Case, "status" | "message"> | undefined {
  if (access.signIn !== false) return { status: 401, message: TOKEN_REQUIRED };
  if (access.repo) return repoAccessNeedsDoer(access.repo) ? { status: 401, message: TOKEN_REQUIRED } : undefined;
  if (access.org) return access.org === "member" || access.org === "owner" ? { status: 401, message: TOKEN_REQUIRED } : undefined;
  if (access.user?.selfOrAdmin) return { status: 403, message: SELF_REFUSED };
  return undefined;
}

/**
 * The cases of one operation. The runner checks sign-in, then the repository, the organization and
 * the account, in that order, so a level of a later resource is walked with a doer who passes the
 * earlier ones (and skipped where no single fixture doer can).
 */
function casesFor(access: Access): Case[] {
  const cases: Case[] = [];
  const anonymous = anonymousRefusal(access);
  // Public targets, so that anonymous callers find the resource and meet the sign-in refusal.
  if (anonymous) cases.push({ level: "anonymous", doer: "anonymous", repo: "pub", org: "acme", user: "bob", ...anonymous });

  if (access.signIn === "admin") {
    // The site-admin check comes before every resource: a non-admin never reaches them.
    cases.push({ level: "signIn admin: a non-admin", doer: "stranger", status: 403, message: SITE_ADMIN_REFUSED });
    return cases;
  }

  const repo = access.repo;
  if (repo) {
    if (repo.owner) cases.push({ level: "repo.owner: a repository admin", doer: "repoadmin", repo: "priv", status: 403, message: OWNER_REFUSED });
    else if (repo.admin) cases.push({ level: "repo.admin: a writer", doer: "writer", repo: "priv", status: 403, message: ADMIN_REFUSED });
    else if (repo.write) cases.push({ level: "repo.write: a reader", doer: "reader", repo: "priv", status: 403, message: WRITE_REFUSED });
    if (anonymous) {
      // A private repository is not found before anyone asks for a doer, unless sign-in is declared.
      const status = access.signIn === false ? 404 : 401;
      cases.push({ level: "anonymous", doer: "anonymous", repo: "priv", status, message: status === 401 ? TOKEN_REQUIRED : undefined });
    }
    if (repo.notArchived) {
      const message = repo.notArchived === "editor" ? "repo is not allowed to edit" : "{alice}/arch is archived";
      cases.push({ level: "notArchived: archived", doer: repoPasser(repo), repo: "arch", status: 423, message });
    }
    cases.push({ level: "public-only token", doer: "alice", publicOnly: true, repo: "priv", status: 403, message: PUBLIC_ONLY("(repos|issues|notifications)") });
    cases.push({ level: "restricted user", doer: "restricted", repo: "priv", status: 404 });
  }

  const org = access.org;
  // With a repository declared too, the repository's levels above are the refusals that count.
  if (org && !repo) {
    if (org === "owner") cases.push({ level: "org.owner: a member", doer: "orgmember", org: "acme", status: 403, message: "Must be an organization owner" });
    if (org === "member") cases.push({ level: "org.member: a non-member", doer: "stranger", org: "acme", status: 403, message: "Must be an organization member" });
    if (org !== "exists") {
      // A private organization is not found by those outside it, before any role is asked for.
      if (org !== "visible") cases.push({ level: `org.${org}: a non-member`, doer: "stranger", org: "secret", status: 404 });
      if (anonymous) {
        const status = access.signIn === false ? 404 : 401;
        cases.push({ level: "anonymous", doer: "anonymous", org: "secret", status, message: status === 401 ? TOKEN_REQUIRED : undefined });
      }
    }
    cases.push({ level: "public-only token", doer: "orgowner", publicOnly: true, org: "secret", status: 403, message: PUBLIC_ONLY("orgs") });
    if (org !== "exists") cases.push({ level: "restricted user", doer: "restricted", org: "secret", status: 404 });
  }

  const user = access.user;
  if (user && !(repo && org)) {
    // Someone who passes the repository or organization of the path, but is not the account.
    const other: Role = repo ? repoPasser(repo) : org ? "orgowner" : "stranger";
    const where = { repo: repo ? ("priv" as const) : undefined, org: org ? ("acme" as const) : undefined };
    if (user.selfOrAdmin) cases.push({ level: "user.selfOrAdmin: another user", doer: other, ...where, user: "bob", status: 403, message: SELF_REFUSED });
    if (user.visible) {
      cases.push({ level: "user.visible: a private account", doer: other, ...where, user: "hidden", status: 404 });
      if (!repo && !org) {
        cases.push({ level: "public-only token", doer: "hidden", publicOnly: true, user: "hidden", status: 403, message: PUBLIC_ONLY("users") });
        cases.push({ level: "restricted user", doer: "restricted", user: "hidden", status: 404 });
      }
    }
  }

  const pkg = access.package;
  // The owner of the packages is the path's `:owner`: with a repository declared too, there would be one owner for both.
  if (pkg && !repo && !org && !user) {
    if (pkg === "write") {
      cases.push({ level: "package.write: another user", doer: "stranger", pkgOwner: "alice", status: 403, message: PACKAGE_REFUSED });
      cases.push({ level: "package.write: an organization member without the package unit", doer: "orgmember", pkgOwner: "acme", status: 403, message: PACKAGE_REFUSED });
    }
    // Gitea's determineAccessMode: a public-only token does not reach a private owner, even its own packages.
    cases.push({ level: "public-only token", doer: "hidden", publicOnly: true, pkgOwner: "hidden", status: 403, message: PACKAGE_REFUSED });
    cases.push({ level: "restricted user", doer: "restricted", pkgOwner: "alice", status: 403, message: PACKAGE_REFUSED });
  }
  return cases;
}

const walked = apiOperations
  .filter((op) => WRITES.has(op.method) && (op.access.repo || op.access.org || op.access.user || op.access.package))
  .map((op) => ({ op, cases: casesFor(op.access) }));

/** Operations walked per level, for the report: a reader sees the coverage, and it grows as routes migrate. */
const perLevel = new Map<string, number>();
for (const { cases } of walked) {
  for (const level of new Set(cases.map((c) => c.level))) perLevel.set(level, (perLevel.get(level) ?? 0) + 1);
}
const coverage = [...perLevel].map(([level, n]) => `${level} ${n}`).join(", ");

// ---------------------------------------------------------------------------------------------
// The fixture: built once, and again (under new names) after any walk that changed something, so
// an earlier success cannot hide behind a resource it deleted.

const t = makeTestApp();
// A second, read-only connection to the same file: it sees what the server has committed.
const sqlite = new Database(t.settings.database.path, { readonly: true });
afterAll(() => sqlite.close());
const root = await t.user("walker-root", { admin: true });
const rootToken = t.token(root);

interface OrgFixture {
  name: string;
  team: number;
  hook: number;
  label: number;
}

interface World {
  names: Record<Role, string>;
  tokens: Record<Role, string>;
  publicOnlyTokens: Record<Role, string>;
  repos: Record<RepoName, RepoFixture>;
  orgs: Record<OrgName, OrgFixture>;
}

let generation = 0;

async function buildWorld(): Promise<World> {
  const prefix = generation++ === 0 ? "" : `g${generation}-`;
  const roles: Role[] = ["alice", "reader", "writer", "repoadmin", "stranger", "restricted", "orgowner", "orgmember", "bob", "hidden"];
  const names = Object.fromEntries(roles.map((r) => [r, `${prefix}${r}`])) as Record<Role, string>;
  const rows = {} as Record<Role, UserRow>;
  for (const role of roles) {
    rows[role] = await createUser(t.env, {
      username: names[role],
      email: `${names[role]}@example.com`,
      password: "password123",
      mustChangePassword: false,
      restricted: role === "restricted",
      visibility: role === "hidden" ? "private" : undefined,
    });
  }
  const tokens = Object.fromEntries(roles.map((r) => [r, t.token(rows[r])])) as Record<Role, string>;
  const publicOnlyTokens = Object.fromEntries(roles.map((r) => [r, t.token(rows[r], ["all", "public-only"])])) as Record<Role, string>;

  const repos = {
    priv: await populateRepo(t, tokens.alice, names.alice, "priv", { private: true }),
    pub: await populateRepo(t, tokens.alice, names.alice, "pub"),
    arch: await populateRepo(t, tokens.alice, names.alice, "arch", { private: true }),
  };
  const collaborators: [Role, string][] = [
    ["reader", "read"],
    ["writer", "write"],
    ["repoadmin", "admin"],
  ];
  for (const repo of Object.values(repos)) {
    for (const [role, permission] of collaborators) {
      await t.ok("PUT", `${API}/repos/${names.alice}/${repo.name}/collaborators/${names[role]}`, tokens.alice, { permission }, 204);
    }
  }
  await t.ok("PATCH", `${API}/repos/${names.alice}/arch`, tokens.alice, { archived: true }, 200);

  const org = async (key: OrgName, visibility: string): Promise<OrgFixture> => {
    const name = `${prefix}${key}`;
    const ok = (method: string, path: string, body?: unknown, status = 201) => t.ok(method, `${API}/orgs/${name}${path}`, tokens.orgowner, body, status);
    await t.ok("POST", `${API}/orgs`, tokens.orgowner, { username: name, visibility }, 201);
    const team = await ok("POST", "/teams", { name: "devs", permission: "read", units: ["repo.code"] });
    await t.ok("PUT", `${API}/teams/${team.id}/members/${names.orgmember}`, tokens.orgowner, undefined, 204);
    const hook = await ok("POST", "/hooks", { type: "gitea", config: { url: "http://hearth.invalid/hook", content_type: "json" }, active: false });
    const label = await ok("POST", "/labels", { name: "org-bug", color: "#00ff00" });
    return { name, team: team.id, hook: hook.id, label: label.id };
  };
  const orgs = { acme: await org("acme", "public"), secret: await org("secret", "private") };
  // A generic package of each package owner, alice's linked to her public repository.
  const publish = async (owner: string, token: string) => {
    const res = await t.request("PUT", `/api/packages/${owner}/generic/walker-pkg/1.0/walker.bin`, { token, body: "walker", headers: { "Content-Type": "application/octet-stream" } });
    if (res.status !== 201) throw new Error(`publishing ${owner}'s walker-pkg: ${res.status}`);
  };
  await publish(names.alice, tokens.alice);
  await publish(orgs.acme.name, tokens.orgowner);
  await publish(names.hidden, tokens.hidden);
  await t.ok("POST", `${API}/packages/${names.alice}/generic/walker-pkg/-/link/${repos.pub.name}`, tokens.alice, undefined, 201);
  // Nothing the fixture set off may still be writing when the first snapshot is taken.
  await t.env.queue.idle();
  return { names, tokens, publicOnlyTokens, repos, orgs };
}

let world = await buildWorld();

// ---------------------------------------------------------------------------------------------
// Paths: the case's resources where the declaration names them, the fixture's things elsewhere.

function paramValue(op: AnyOperation, c: Case, w: World, name: string): string {
  const repo = w.repos[c.repo ?? "priv"];
  const org = w.orgs[c.org ?? "acme"];
  const path = op.path;
  if (path.startsWith("/packages/")) {
    const owner = c.pkgOwner ?? "alice";
    if (name === "owner") return owner === "acme" ? w.orgs.acme.name : w.names[owner];
    if (name === "type") return "generic";
    if (name === "name") return "walker-pkg";
    if (name === "version") return "1.0";
    if (name === "repo_name") return w.repos.pub.name;
  }
  switch (name) {
    case "owner":
      return repo.owner;
    case "repo":
      return repo.name;
    case "org":
      return org.name;
    case "username":
      return w.names[c.user ?? "bob"];
    case "index":
      return String(op.access.pull || path.includes("/pulls/") ? repo.pull : repo.issue);
    case "collaborator":
      return w.names.reader;
    case "user":
      return w.names.bob;
    case "team":
      return "devs";
    case "sha":
      return repo.head;
    case "name":
      return repo.branch;
    case "secretname":
      return "SECRET";
    case "variablename":
      return "VAR";
    case "id": {
      const onOrg = path.startsWith("/orgs/");
      if (path.includes("/hooks/:id")) return String(onOrg ? org.hook : repo.hook);
      if (path.includes("/labels/:id")) return String(onOrg ? org.label : repo.label);
      if (path.includes("/milestones/:id")) return String(repo.milestone);
      if (path.includes("/releases/:id")) return String(repo.release);
      if (path.includes("/comments/:id")) return String(repo.comment);
      if (path.includes("/teams/:id")) return String(org.team);
      return "1";
    }
    default:
      // Ids the fixture does not make (attachments, positions, uuids): any value; access comes first.
      return "1";
  }
}

function wildcardValue(op: AnyOperation, repo: RepoFixture): string {
  const p = op.path;
  if (p.includes("/branches/")) return repo.branch;
  if (p.includes("/tags/")) return repo.tag;
  if (p.includes("/contents/")) return op.method === "POST" ? "walker-new.txt" : "README.md";
  return "main";
}

function pathFor(op: AnyOperation, c: Case, w: World): string {
  let path = op.path.replace(/:([A-Za-z_]\w*)/g, (_, name: string) => encodeURIComponent(paramValue(op, c, w, name)));
  if (path.endsWith("/*")) path = path.slice(0, -1) + wildcardValue(op, w.repos[c.repo ?? "priv"]);
  return API + path;
}

// ---------------------------------------------------------------------------------------------
// "The change did not happen": every table's rows and every bare repository's refs, hashed.

/**
 * Columns a refused request may change, because it is the request itself, not the operation:
 * authenticating with a token stamps its last use (as Gitea does), whatever the answer.
 */
const BOOKKEEPING: Record<string, string[]> = { access_token: ["updated_unix"] };

/**
 * One `SELECT` per table, of every column but the bookkeeping ones. sqlite_sequence is in: it
 * shows a row inserted and deleted again (a queue item enqueued and already run).
 */
const TABLE_QUERIES = (
  sqlite.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_stat%' ESCAPE '\\'").all() as { name: string }[]
).map(
  ({ name }) => {
    const columns = (sqlite.query(`PRAGMA table_info("${name}")`).all() as { name: string }[])
      .map((c) => c.name)
      .filter((c) => !BOOKKEEPING[name]?.includes(c));
    return { name, sql: `SELECT ${columns.map((c) => `"${c}"`).join(", ")} FROM "${name}"` };
  },
);
const json = (rows: unknown) => JSON.stringify(rows, (_, v) => (typeof v === "bigint" ? v.toString() : v));

/**
 * A hash per table and the value of every ref of every bare repository (HEAD included): comparing
 * two tells which tables and refs a request changed.
 */
function snapshot(): Map<string, string | bigint | number> {
  const out = new Map<string, string | bigint | number>();
  for (const { name, sql } of TABLE_QUERIES) out.set(`table ${name}`, Bun.hash(json(sqlite.query(sql).values())));
  const gitRoot = t.settings.repository.root;
  if (existsSync(gitRoot)) {
    for (const gitDir of bareRepos(gitRoot)) {
      for (const [ref, value] of refsOf(gitDir)) out.set(`git ${relative(gitRoot, gitDir)} ${ref}`, value);
    }
  }
  return out;
}

function bareRepos(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (!statSync(p).isDirectory()) return [];
    return name.endsWith(".git") ? [p] : bareRepos(p);
  });
}

/**
 * The refs of a bare repository as git reads them: packed-refs overlaid by loose refs. Read from
 * the files rather than by running git once per repository and request, and by value rather than
 * by file, because the housekeeper's `git pack-refs` moves loose refs into packed-refs at any time
 * without changing what they point at.
 */
function refsOf(gitDir: string): Map<string, string> {
  const refs = new Map<string, string>();
  const read = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : "");
  refs.set("HEAD", read(join(gitDir, "HEAD")).trim());
  for (const line of read(join(gitDir, "packed-refs")).split("\n")) {
    // Comments, and the peeled `^sha` lines that follow an annotated tag, are not refs.
    if (!line || line.startsWith("#") || line.startsWith("^")) continue;
    const [sha, ref] = line.split(" ");
    if (sha && ref) refs.set(ref, sha);
  }
  const loose = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) loose(p);
      // A `.lock` is a ref being written by git: the ref itself is what counts.
      else if (!name.endsWith(".lock")) refs.set(relative(gitDir, p), read(p).trim());
    }
  };
  if (existsSync(join(gitDir, "refs"))) loose(join(gitDir, "refs"));
  return refs;
}

function changes(before: Map<string, unknown>, after: Map<string, unknown>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => before.get(k) !== after.get(k)).sort();
}

// ---------------------------------------------------------------------------------------------
// The walk.

/** Runs one case; returns what went wrong, if anything. */
async function walk(op: AnyOperation, c: Case): Promise<string | undefined> {
  const w = world;
  const path = pathFor(op, c, w);
  const token = c.doer === "anonymous" ? undefined : (c.publicOnly ? w.publicOnlyTokens : w.tokens)[c.doer];
  // Background work of earlier requests settles first, and whatever this one set off lands before
  // the second look (a webhook or notification for a refused change is a change too).
  await t.env.queue.idle();
  const before = snapshot();
  const r = await t.json(op.method, path, { token, body: op.body ? {} : undefined });
  await t.env.queue.idle();
  const changed = changes(before, snapshot());
  const message = typeof c.message === "string" ? c.message.replace("{alice}", w.names.alice) : c.message;
  const problems: string[] = [];
  if (r.status !== c.status) problems.push(`status ${r.status}, want ${c.status}`);
  else if (message !== undefined) {
    const got = String(r.body?.message);
    if (typeof message === "string" ? got !== message : !message.test(got)) problems.push(`message ${JSON.stringify(got)}, want ${message}`);
  }
  if (changed.length) {
    problems.push(`changed ${changed.join(", ")}`);
    // The fixture is no longer what later cases assume: they get a fresh one.
    world = await buildWorld();
  }
  if (!problems.length) return undefined;
  const who = `${c.doer}${c.publicOnly ? " (public-only token)" : ""}`;
  return `${op.method} ${path} (${op.operationId}) [${c.level}] as ${who}: ${problems.join("; ")}; body ${JSON.stringify(r.body)}`;
}

describe("permission walker: writes refused one level below their declared access, and nothing changed", () => {
  console.log(`permission walker: ${walked.length} write operations with declared resource access; per level: ${coverage}`);

  test(`walks ${walked.length} operations (${coverage})`, () => {
    // Branches and tags were converted first; more join as their routes declare access.
    expect(walked.length).toBeGreaterThanOrEqual(6);
    for (const { op, cases } of walked) expect({ op: op.operationId, cases: cases.length }).not.toEqual({ op: op.operationId, cases: 0 });
  });

  test("the snapshot sees a change when there is one (database and refs)", async () => {
    const w = world;
    const base = `${API}/repos/${w.names.alice}/pub`;
    let before = snapshot();
    await t.ok("POST", `${base}/labels`, w.tokens.writer, { name: "walker-control", color: "#0000ff" }, 201);
    expect(changes(before, snapshot()).some((k) => k.startsWith("table "))).toBe(true);
    before = snapshot();
    await t.ok("POST", `${base}/branches`, w.tokens.writer, { new_branch_name: "walker-control", old_branch_name: "main" }, 201);
    expect(changes(before, snapshot()).some((k) => k.startsWith("git "))).toBe(true);
  });

  test("the snapshot does not mistake the housekeeper's pack-refs for a change", async () => {
    await t.env.queue.idle();
    const before = snapshot();
    const gitDir = join(t.settings.repository.root, world.names.alice, "priv.git");
    expect((await gitClient(["--git-dir", gitDir, "pack-refs", "--all"])).code).toBe(0);
    expect(changes(before, snapshot())).toEqual([]);
  });

  for (const { op, cases } of walked) {
    test(`${op.method} ${op.path} (${op.operationId}): ${[...new Set(cases.map((c) => c.level))].join(", ")}`, async () => {
      const failures: string[] = [];
      for (const c of cases) {
        const failure = await walk(op, c);
        if (failure) failures.push(failure);
      }
      expect(failures).toEqual([]);
      // A failing case rebuilds the fixture (a second or two): the report must not turn into a timeout.
    }, 60_000);
  }
});
