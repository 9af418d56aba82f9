import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { parse, stringify } from "yaml";
import { makeTestApp } from "../support/app.ts";
import {
  comments,
  CommentType,
  issueAssignees,
  issueLabels,
  issues,
  labels,
  milestones,
  reactions,
  type RepoRow,
} from "../../src/db/schema/index.ts";
import { getRepoByOwner } from "../../src/models/repo.ts";
import { runGit } from "../../src/git/exec.ts";

/**
 * `hearth dump-repo` and `hearth restore-repo` as an administrator runs them: real CLI processes on
 * the work directory of an in-process hearth (same database and repositories), whose API then shows
 * what was restored. The tracker rows are inserted directly, so these tests stand on the dump format
 * alone and not on the issue endpoints.
 */

const REPO = join(import.meta.dir, "../..");
const t = makeTestApp();
const out = mkdtempSync(join(tmpdir(), "hearth-dump-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

async function hearth(args: string[]): Promise<Result> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("HEARTH")) env[k] = v;
  const proc = Bun.spawn([process.execPath, "src/main.ts", ...args], {
    cwd: REPO,
    env: { ...env, HEARTH_WORK_DIR: t.dir, HEARTH__LOG__LEVEL: "none" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

async function ok(args: string[]): Promise<string> {
  const r = await hearth(args);
  if (r.code !== 0) throw new Error(`hearth ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

/** A failure with exactly one `hearth: reason` line; returns the reason. */
async function fails(args: string[]): Promise<string> {
  const r = await hearth(args);
  expect(r.code).not.toBe(0);
  expect(r.stdout).toBe("");
  expect(r.stderr).toMatch(/^hearth: [^\n]+\n$/);
  return r.stderr.slice("hearth: ".length, -1);
}

const root = await t.user("root", { admin: true });
const alice = await t.user("alice");
const bob = await t.user("bob");
const aliceToken = t.token(alice);
const rootToken = t.token(root);

async function api(method: string, path: string, body?: unknown, status = 200) {
  const r = await t.json(method, path, { token: rootToken, body });
  expect({ path, status: r.status }).toEqual({ path, status });
  return r.body;
}

expect((await t.json("POST", "/api/v1/user/repos", { token: aliceToken, body: { name: "proj", auto_init: true } })).status).toBe(201);
await api("PUT", "/api/v1/repos/alice/proj/topics", { topics: ["tooling", "yaml"] }, 204);
const proj = getRepoByOwner(t.env.db, alice.id, "proj") as RepoRow;
const projGit = join(t.settings.repository.root, "alice", "proj.git");
// A tag and a second branch, so the git round trip has more than one ref of each kind.
await runGit(["tag", "v1.0", "main"], { gitDir: projGit });
await runGit(["branch", "feature", "main"], { gitDir: projGit });

// ---- the tracker of alice/proj ----
const db = t.env.db;
const T = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const [m1, m2] = db
  .insert(milestones)
  .values([
    { repoId: proj.id, name: "v1", content: "first\nrelease", deadlineUnix: T("2030-01-31T12:00:00Z"), createdUnix: T("2024-01-01T00:00:00Z"), updatedUnix: T("2024-01-02T00:00:00Z") },
    { repoId: proj.id, name: "v0", content: "", isClosed: true, closedDateUnix: T("2024-03-01T08:00:00Z"), createdUnix: T("2023-06-01T00:00:00Z"), updatedUnix: T("2024-03-01T08:00:00Z") },
    { repoId: proj.id, name: "someday", content: "no due date", createdUnix: T("2024-02-01T00:00:00Z"), updatedUnix: T("2024-02-01T00:00:00Z") },
  ])
  .returning()
  .all() as unknown as [{ id: number }, { id: number }];
const [bug, kind] = db
  .insert(labels)
  .values([
    { repoId: proj.id, name: "bug", color: "#ee0701", description: "Something is broken", createdUnix: 1, updatedUnix: 1 },
    { repoId: proj.id, name: "kind/feature", color: "#84b6eb", exclusive: true, createdUnix: 1, updatedUnix: 1 },
    { repoId: proj.id, name: "docs", color: "#000000", createdUnix: 1, updatedUnix: 1 },
  ])
  .returning()
  .all() as unknown as [{ id: number }, { id: number }];
const [i1, i2] = db
  .insert(issues)
  .values([
    { repoId: proj.id, index: 1, posterId: alice.id, title: "Crash on start", content: "It crashes:\n\n```\npanic\n```", milestoneId: m1.id, createdUnix: T("2024-01-05T10:00:00Z"), updatedUnix: T("2024-01-06T10:00:00Z") },
    { repoId: proj.id, index: 2, posterId: bob.id, title: "Old bug", content: "", milestoneId: m2.id, isClosed: true, isLocked: true, ref: "refs/heads/feature", closedUnix: T("2024-02-01T00:00:00Z"), createdUnix: T("2024-01-10T00:00:00Z"), updatedUnix: T("2024-02-01T00:00:00Z") },
    { repoId: proj.id, index: 3, posterId: -1, originalAuthor: "octocat", originalAuthorId: 583231, title: "Imported: yes", content: "true", createdUnix: T("2020-05-05T05:05:05Z"), updatedUnix: T("2020-05-05T05:05:05Z") },
  ])
  .returning()
  .all() as unknown as [{ id: number }, { id: number }];
db.insert(issueLabels).values([{ issueId: i1.id, labelId: bug.id }, { issueId: i1.id, labelId: kind.id }, { issueId: i2.id, labelId: bug.id }]).run();
db.insert(issueAssignees).values([{ issueId: i1.id, assigneeId: bob.id }, { issueId: i1.id, assigneeId: alice.id }]).run();
const [c1] = db
  .insert(comments)
  .values([
    { issueId: i1.id, posterId: bob.id, content: "Same here.\nOn 1.2 too.", createdUnix: T("2024-01-05T11:00:00Z"), updatedUnix: T("2024-01-05T12:00:00Z") },
    { issueId: i1.id, posterId: alice.id, content: "Fixed in main.", createdUnix: T("2024-01-06T10:00:00Z"), updatedUnix: T("2024-01-06T10:00:00Z") },
    // A timeline event: not a comment of Gitea's dump format, so it stays behind.
    { issueId: i2.id, type: CommentType.Close, posterId: bob.id, createdUnix: T("2024-02-01T00:00:00Z"), updatedUnix: T("2024-02-01T00:00:00Z") },
  ])
  .returning()
  .all() as unknown as [{ id: number }];
db.insert(reactions)
  .values([
    { issueId: i1.id, type: "+1", userId: bob.id, createdUnix: 1 },
    { issueId: i1.id, type: "heart", userId: -1, originalAuthor: "octocat", originalAuthorId: 583231, createdUnix: 1 },
    { issueId: i1.id, commentId: c1.id, type: "laugh", userId: alice.id, createdUnix: 1 },
  ])
  .run();

const dumpDir = join(out, "dump");
const dumped = join(dumpDir, "alice", "proj");
const load = (dir: string, file: string) => parse(readFileSync(join(dir, file), "utf8"));

/** Every YAML file of a dump, parsed, by relative path. */
function yamlFiles(dir: string, sub = ""): Record<string, unknown> {
  const files: Record<string, unknown> = {};
  for (const name of readdirSync(join(dir, sub)).sort()) {
    const rel = sub ? `${sub}/${name}` : name;
    if (name.endsWith(".yml")) files[rel] = load(dir, rel);
    else if (name === "comments") Object.assign(files, yamlFiles(dir, rel));
  }
  return files;
}

function objectFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? objectFiles(join(dir, e.name)) : /^[0-9a-f]{38}$|\.pack$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

const refsOf = async (gitDir: string) =>
  (await runGit(["for-each-ref", "--format=%(refname) %(objectname)", "refs/heads", "refs/tags"], { gitDir })).stdout.toString();

describe("dump-repo", () => {
  test("writes Gitea's layout: repo.yml, topic.yml, milestone.yml, label.yml, issue.yml, comments/{n}.yml, pull_request.yml, release.yml, git/", async () => {
    const stdout = await ok(["dump-repo", "--repo_dir", dumpDir, "--owner_name", "alice", "--repo_name", "proj"]);
    expect(stdout).toBe(`Dumped alice/proj to ${dumped}: 3 milestones, 3 labels, 3 issues, 2 comments, 0 pull requests, 0 reviews, 0 releases\n`);
    expect(readdirSync(dumped).sort()).toEqual(["comments", "git", "issue.yml", "label.yml", "milestone.yml", "pull_request.yml", "release.yml", "repo.yml", "topic.yml"]);
    expect(readdirSync(join(dumped, "comments"))).toEqual(["1.yml"]);
    expect(load(dumped, "pull_request.yml")).toEqual([]);
    expect(load(dumped, "release.yml")).toEqual([]);
    expect(load(dumped, "topic.yml")).toEqual({ topics: ["tooling", "yaml"] });
    expect(load(dumped, "repo.yml")).toMatchObject({ name: "proj", owner: "alice", is_private: false, default_branch: "main", service_type: 3, issues: true, pulls: true });
    expect(await refsOf(join(dumped, "git"))).toBe(await refsOf(projGit));
  });

  test("milestone.yml: a list of objects with exactly the seven fields", () => {
    const list = load(dumped, "milestone.yml") as Record<string, unknown>[];
    for (const m of list) expect(Object.keys(m)).toEqual(["title", "description", "deadline", "created", "updated", "closed", "state"]);
    const [v1, v0, someday] = list.map((m) => ({ ...m, deadline: Date.parse(m.deadline as string), created: Date.parse(m.created as string), closed: m.closed && Date.parse(m.closed as string) }));
    expect(v1).toMatchObject({ title: "v1", description: "first\nrelease", deadline: Date.parse("2030-01-31T12:00:00Z"), closed: null, state: "open" });
    expect(v0).toMatchObject({ title: "v0", state: "closed", closed: Date.parse("2024-03-01T08:00:00Z"), created: Date.parse("2023-06-01T00:00:00Z") });
    // No due date is Gitea's year-9999 deadline.
    expect(someday!.deadline).toBe(Date.parse("9999-12-31T23:59:59Z"));
  });

  test("issue.yml, label.yml and comments carry Gitea's keys", () => {
    const [first, second, third] = load(dumped, "issue.yml") as Record<string, any>[];
    expect(Object.keys(first!)).toEqual([
      "number", "poster_id", "poster_name", "poster_email", "title", "content", "ref", "milestone", "state", "is_locked",
      "created", "updated", "closed", "labels", "reactions", "assignees",
    ]);
    expect(first).toMatchObject({
      number: 1, poster_id: alice.id, poster_name: "alice", title: "Crash on start", milestone: "v1", state: "open", is_locked: false, closed: null,
      labels: [{ name: "bug", color: "ee0701", description: "Something is broken" }, { name: "kind/feature", color: "84b6eb", description: "" }],
      reactions: [{ user_id: bob.id, user_name: "bob", content: "+1" }, { user_id: 583231, user_name: "octocat", content: "heart" }],
      assignees: ["alice", "bob"],
    });
    expect(second).toMatchObject({ number: 2, poster_name: "bob", state: "closed", is_locked: true, ref: "refs/heads/feature", milestone: "v0" });
    // Text that looks like YAML scalars stays text.
    expect(third).toMatchObject({ number: 3, poster_id: 583231, poster_name: "octocat", title: "Imported: yes", content: "true" });
    expect(load(dumped, "label.yml")).toEqual([
      { name: "bug", exclusive: false, color: "ee0701", description: "Something is broken" },
      { name: "kind/feature", exclusive: true, color: "84b6eb", description: "" },
      { name: "docs", exclusive: false, color: "000000", description: "" },
    ]);
    const cs = load(dumped, "comments/1.yml") as Record<string, any>[];
    expect(cs.map((c) => [c.issue_index, c.comment_type, c.poster_name, c.content])).toEqual([
      [1, "comment", "bob", "Same here.\nOn 1.2 too."],
      [1, "comment", "alice", "Fixed in main."],
    ]);
    expect(cs[0]!.reactions).toEqual([{ user_id: alice.id, user_name: "alice", content: "laugh" }]);
  });

  test("refusals: a non-empty repo_dir, an unknown repository or unit, missing flags", async () => {
    const [notEmpty, unknown, unit, unavailable, flag] = await Promise.all([
      fails(["dump-repo", "--repo_dir", dumpDir, "--owner_name", "alice", "--repo_name", "proj"]),
      fails(["dump-repo", "--repo_dir", join(out, "x1"), "--owner_name", "alice", "--repo_name", "nope"]),
      fails(["dump-repo", "--repo_dir", join(out, "x2"), "--owner_name", "alice", "--repo_name", "proj", "--units", "issues,bogus"]),
      fails(["dump-repo", "--repo_dir", join(out, "x3"), "--owner_name", "alice", "--repo_name", "proj", "--units", "release_assets,wiki"]),
      fails(["dump-repo", "--repo_dir", join(out, "x4"), "--owner_name", "alice"]),
    ]);
    expect(notEmpty).toBe(`repo_dir "${dumpDir}" is not empty`);
    expect(unknown).toBe("repository alice/nope does not exist");
    expect(unit).toBe("invalid unit: bogus");
    expect(unavailable).toBe("unit wiki is not available: hearth has no wiki yet");
    expect(flag).toBe("flag --repo_name is required");
    for (const d of ["x1", "x2", "x3", "x4"]) expect(existsSync(join(out, d))).toBe(false);
  });
});

describe("restore-repo", () => {
  test("dump → restore → dump gives back the same files and git refs", async () => {
    const stdout = await ok(["restore-repo", "--repo_dir", dumped, "--owner_name", "alice", "--repo_name", "copy"]);
    expect(stdout).toBe("Restored alice/copy: 2 branches, 3 milestones, 3 labels, 3 issues, 2 comments, 0 pull requests, 0 reviews, 0 releases\n");
    const again = join(out, "again");
    await ok(["dump-repo", "-r", again, "--owner_name", "alice", "--repo_name", "copy"]);
    const a = yamlFiles(dumped);
    const b = yamlFiles(join(again, "alice", "copy"));
    // Only the repository's own name and address differ, and a comment's `index`, which is its id in the source.
    for (const f of [a, b]) {
      for (const key of ["name", "clone_addr", "original_url"]) delete (f["repo.yml"] as Record<string, unknown>)[key];
      for (const c of f["comments/1.yml"] as Record<string, unknown>[]) delete c.index;
    }
    expect(b).toEqual(a);
    expect(await refsOf(join(t.settings.repository.root, "alice", "copy.git"))).toBe(await refsOf(projGit));
  });

  test("the restored repository answers through the API like the original", async () => {
    const repo = await api("GET", "/api/v1/repos/alice/copy");
    expect(repo).toMatchObject({ empty: false, default_branch: "main", open_issues_count: 2, description: "" });
    const first = await api("GET", "/api/v1/repos/alice/copy/issues/1");
    expect(first).toMatchObject({ title: "Crash on start", state: "open", comments: 2, milestone: { title: "v1", open_issues: 1 } });
    expect(first.labels.map((l: { name: string }) => l.name)).toEqual(["bug", "kind/feature"]);
    expect(first.assignees.map((u: { login: string }) => u.login).sort()).toEqual(["alice", "bob"]);
    const third = await api("GET", "/api/v1/repos/alice/copy/issues/3");
    expect(third).toMatchObject({ original_author: "octocat", original_author_id: 583231 });
    expect(third.user.login).toBe("Ghost");
    const branches = await api("GET", "/api/v1/repos/alice/copy/branches");
    expect(branches.map((b: { name: string }) => b.name).sort()).toEqual(["feature", "main"]);
    // The number sequence goes on after the restored issues.
    const next = await t.json("POST", "/api/v1/repos/alice/copy/issues", { token: aliceToken, body: { title: "After restore" } });
    expect(next.status).toBe(201);
    expect(next.body.number).toBe(4);
  });

  test("--units restores only what it names", async () => {
    await ok(["restore-repo", "-r", dumped, "--owner_name", "alice", "--repo_name", "labels-only", "--units", "labels"]);
    const repo = getRepoByOwner(db, alice.id, "labels-only")!;
    const count = (table: typeof labels | typeof milestones | typeof issues) =>
      db.select({ n: sql<number>`count(*)` }).from(table).where(eq(table.repoId, repo.id)).get()!.n;
    expect([count(labels), count(milestones), count(issues)]).toEqual([3, 0, 0]);
  });

  test("an existing empty repository is filled; a non-empty one is refused", async () => {
    expect((await t.json("POST", "/api/v1/user/repos", { token: aliceToken, body: { name: "blank" } })).status).toBe(201);
    expect(await ok(["restore-repo", "-r", dumped, "--owner_name", "alice", "--repo_name", "blank"])).toBe(
      "Restored alice/blank (existing empty repository): 2 branches, 3 milestones, 3 labels, 3 issues, 2 comments, 0 pull requests, 0 reviews, 0 releases\n",
    );
    expect(await fails(["restore-repo", "-r", dumped, "--owner_name", "alice", "--repo_name", "proj"])).toBe(
      "repository alice/proj already exists and is not empty",
    );
  });
});

describe("invalid migration files are refused with nothing written", () => {
  let n = 0;
  /** A copy of the good dump with one file changed by `edit`. */
  function brokenDump(file: string, edit: (data: any) => void): string {
    const dir = join(out, `broken${++n}`);
    cpSync(dumped, dir, { recursive: true });
    const data = load(dir, file);
    edit(data);
    writeFileSync(join(dir, file), stringify(data));
    return dir;
  }
  const rowCount = () => ({
    milestones: db.select({ n: sql<number>`count(*)` }).from(milestones).get()!.n,
    labels: db.select({ n: sql<number>`count(*)` }).from(labels).get()!.n,
    issues: db.select({ n: sql<number>`count(*)` }).from(issues).get()!.n,
    comments: db.select({ n: sql<number>`count(*)` }).from(comments).get()!.n,
  });

  async function refused(dir: string, name: string): Promise<string> {
    const before = rowCount();
    const reason = await fails(["restore-repo", "-r", dir, "--owner_name", "alice", "--repo_name", name]);
    expect(rowCount()).toEqual(before);
    expect(getRepoByOwner(db, alice.id, name)).toBeUndefined();
    expect(existsSync(join(t.settings.repository.root, "alice", `${name}.git`))).toBe(false);
    return reason;
  }

  test("milestone.yml: extra field, missing field, wrong state, bad date", async () => {
    const reasons = await Promise.all([
      refused(brokenDump("milestone.yml", (l) => (l[1].color = "red")), "bad1"),
      refused(brokenDump("milestone.yml", (l) => delete l[0].closed), "bad2"),
      refused(brokenDump("milestone.yml", (l) => (l[2].state = "opened")), "bad3"),
      refused(brokenDump("milestone.yml", (l) => (l[0].created = "2024-02-30T10:00:00Z")), "bad4"),
      refused(brokenDump("milestone.yml", (l) => (l[1].closed = "yesterday")), "bad5"),
      refused(brokenDump("milestone.yml", (l) => (l[0].deadline = null)), "bad6"),
    ]);
    expect(reasons).toEqual([
      'milestone.yml: item 1: field "color": must NOT have additional properties',
      "milestone.yml: item 0: field \"closed\": must have required property 'closed'",
      'milestone.yml: item 2: field "state": must be equal to one of the allowed values',
      'milestone.yml: item 0: field "created": must match format "date-time"',
      'milestone.yml: item 1: field "closed": must match format "date-time" or must be null',
      'milestone.yml: item 0: field "deadline": must be string',
    ]);
  });

  test("issue.yml, label.yml and comments: schema and cross-file problems", async () => {
    const reasons = await Promise.all([
      refused(brokenDump("issue.yml", (l) => (l[0].labels[0].priority = "high")), "bad7"),
      refused(brokenDump("issue.yml", (l) => (l[1].state = "merged")), "bad8"),
      refused(brokenDump("issue.yml", (l) => delete l[2].poster_id), "bad9"),
      refused(brokenDump("issue.yml", (l) => (l[0].reactions[0] = { user_id: 1 })), "bad10"),
      refused(brokenDump("issue.yml", (l) => (l[1].milestone = "v9")), "bad11"),
      refused(brokenDump("issue.yml", (l) => (l[2].number = 1)), "bad12"),
      refused(brokenDump("label.yml", (l) => (l[2].color = "not-a-color")), "bad13"),
      refused(brokenDump("comments/1.yml", (l) => (l[1].created = "2024-01-06")), "bad14"),
      refused(brokenDump("release.yml", (l) => l.push({ tag_name: "v1", publisher_id: 1, publisher_name: "root", created: "2024-01-01T00:00:00Z", draft: "no" })), "bad15"),
      refused(brokenDump("milestone.yml", (l) => ((l[0].extra = 1), (l[1].state = "x"))), "bad16"),
    ]);
    expect(reasons).toEqual([
      'issue.yml: item 0: field "labels[0].priority": must NOT have additional properties',
      'issue.yml: item 1: field "state": must be equal to one of the allowed values',
      "issue.yml: item 2: field \"poster_id\": must have required property 'poster_id'",
      "issue.yml: item 0: field \"reactions[0].content\": must have required property 'content'",
      'issue.yml: item 1: field "milestone": milestone "v9" is not in milestone.yml',
      'issue.yml: item 2: field "number": duplicate number 1',
      'label.yml: item 2: field "color": invalid color "not-a-color"',
      'comments/1.yml: item 1: field "created": must match format "date-time"',
      'release.yml: item 0: field "draft": must be boolean',
      'milestone.yml: item 0: field "extra": must NOT have additional properties (and 1 more problem)',
    ]);
  });

  test("not a dump, broken YAML, a git failure after validation (the new repository is removed)", async () => {
    const empty = join(out, "empty");
    cpSync(join(dumped, "git"), join(empty, "git"), { recursive: true });
    const yamlDir = join(out, "badyaml");
    cpSync(dumped, yamlDir, { recursive: true });
    writeFileSync(join(yamlDir, "milestone.yml"), "- title: a\n  title: b\n");
    const gitDir = join(out, "badgit");
    cpSync(dumped, gitDir, { recursive: true });
    // Every object of the mirror garbled: the files and the refs are fine, the fetch fails.
    for (const f of objectFiles(join(gitDir, "git", "objects"))) writeFileSync(f, "garbage");
    const [notDump, badYaml, badGit] = await Promise.all([refused(empty, "bad20"), refused(yamlDir, "bad21"), refused(gitDir, "bad22")]);
    expect(notDump).toBe("repo.yml: missing: not a repository dump");
    expect(badYaml).toStartWith("milestone.yml: not valid YAML: Map keys must be unique");
    expect(badGit).toStartWith("git fetch failed");
  });
});

describe("embedded schemas", () => {
  test("the copies in src/services/migration/schemas match the shared reference", () => {
    const shared = join(import.meta.dir, "../../../shared/reference/migration-schemas");
    const ours = join(import.meta.dir, "../../src/services/migration/schemas");
    if (!existsSync(shared)) return; // a checkout without ../shared has only our copies to go by
    const names = readdirSync(shared).filter((n) => n.endsWith(".json")).sort();
    expect(readdirSync(ours).sort()).toEqual(names);
    for (const n of names) expect(JSON.parse(readFileSync(join(ours, n), "utf8"))).toEqual(JSON.parse(readFileSync(join(shared, n), "utf8")));
  });
});
