import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { makeTestApp } from "../support/app.ts";
import { authUrl, gitOk } from "../support/git.ts";
import { pullSyncIdle } from "../../src/services/pull/push-sync.ts";

/**
 * Pull requests and reviews through `hearth dump-repo` / `hearth restore-repo` (Gitea's
 * pull_request.yml, reviews/{n}.yml and the heads as `refs/pull/{n}/head` in git/): real CLI
 * processes on the work directory of a listening hearth, whose API then shows what was restored.
 */

const REPO = join(import.meta.dir, "../..");
const t = makeTestApp("", { listen: true });
const out = mkdtempSync(join(tmpdir(), "hearth-dump-pr-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

async function hearth(args: string[]) {
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

async function fails(args: string[]): Promise<string> {
  const r = await hearth(args);
  expect(r.code).not.toBe(0);
  expect(r.stderr).toMatch(/^hearth: [^\n]+\n$/);
  return r.stderr.slice("hearth: ".length, -1);
}

await t.user("root", { admin: true });
const alice = await t.user("alice", { password: "alice-pass" });
const bob = await t.user("bob");
const aliceToken = t.token(alice);
const bobToken = t.token(bob);
const api = (repo: string, rest = "") => `/api/v1/repos/alice/${repo}${rest}`;
const gitDir = (repo: string) => join(t.settings.repository.root, "alice", `${repo}.git`);
const refOf = async (repo: string, ref: string) => (await gitOk(["--git-dir", gitDir(repo), "rev-parse", "--verify", "--quiet", ref]).catch(() => "")).trim();

async function commit(dir: string, files: Record<string, string>, message: string) {
  for (const [name, content] of Object.entries(files)) {
    await Bun.write(join(dir, name), content);
    await gitOk(["add", name], { cwd: dir });
  }
  await gitOk(["commit", "-q", "-m", message], { cwd: dir });
}

// alice/proj: issue #1, then pull request #2 (open, `feature`, reviewed by bob with a code comment)
// and #3 (`done`, merged, its branch deleted), and a comment on #2.
await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "proj", auto_init: true }, 201);
await t.ok("PUT", api("proj", "/collaborators/bob"), aliceToken, { permission: "write" }, 204);
const work = join(mkdtempSync(join(tmpdir(), "hearth-dump-pr-w-")), "w");
await gitOk(["clone", "-q", authUrl(t.baseUrl, "alice/proj.git", "alice", "alice-pass"), work]);
await commit(work, { "base.txt": "one\ntwo\nthree\nfour\n" }, "setup");
await gitOk(["checkout", "-q", "-b", "feature"], { cwd: work });
await commit(work, { "base.txt": "one\nTWO\nthree\nfour\n", "new.txt": "new\n" }, "feature");
await gitOk(["checkout", "-q", "-b", "done", "main"], { cwd: work });
await commit(work, { "done.txt": "done\n" }, "done");
await gitOk(["push", "-q", "origin", "main", "feature", "done"], { cwd: work });

const issue = await t.ok("POST", api("proj", "/issues"), aliceToken, { title: "An issue" }, 201);
const open = await t.ok("POST", api("proj", "/pulls"), aliceToken, { head: "feature", base: "main", title: "Feature", body: "Please pull" }, 201);
const done = await t.ok("POST", api("proj", "/pulls"), aliceToken, { head: "done", base: "main", title: "Done" }, 201);
await t.ok("POST", api("proj", `/issues/${open.number}/comments`), bobToken, { body: "a remark" }, 201);
const review = await t.ok(
  "POST",
  api("proj", `/pulls/${open.number}/reviews`),
  bobToken,
  { event: "REQUEST_CHANGES", body: "please fix", comments: [{ path: "base.txt", new_position: 2, body: "why capitals?" }] },
  200,
);
await pullSyncIdle(t.env);
await t.ok("POST", api("proj", `/pulls/${done.number}/merge`), aliceToken, { Do: "merge", delete_branch_after_merge: true });
const sourceOpen = await t.ok("GET", api("proj", `/pulls/${open.number}`), aliceToken);
const sourceDone = await t.ok("GET", api("proj", `/pulls/${done.number}`), aliceToken);
const sourceCodeComments = (await t.ok("GET", api("proj", `/pulls/${open.number}/reviews/${review.id}/comments`), aliceToken)) as any[];

const dumpDir = join(out, "dump");
const dumped = join(dumpDir, "alice", "proj");
const load = (dir: string, file: string) => parse(readFileSync(join(dir, file), "utf8"));

describe("dump-repo", () => {
  test("pull_request.yml holds Gitea's PullRequest records with their numbers, branches and heads", async () => {
    expect(issue.number).toBe(1);
    expect([open.number, done.number]).toEqual([2, 3]);
    expect(sourceDone.merged).toBe(true);
    expect(await refOf("proj", "refs/heads/done")).toBe("");

    const stdout = await ok(["dump-repo", "--repo_dir", dumpDir, "--owner_name", "alice", "--repo_name", "proj"]);
    expect(stdout).toContain(": 0 milestones, 0 labels, 1 issues, 1 comments, 2 pull requests, 1 reviews, 0 releases\n");
    expect(load(dumped, "repo.yml")).toMatchObject({ pulls: true });
    expect((load(dumped, "issue.yml") as any[]).map((i) => i.number)).toEqual([1]);
    const list = load(dumped, "pull_request.yml") as Record<string, any>[];
    expect(list.map((p) => [p.number, p.title, p.state, p.merged, p.head.ref, p.base.ref])).toEqual([
      [2, "Feature", "open", false, "feature", "main"],
      [3, "Done", "closed", true, "done", "main"],
    ]);
    expect(list[0]).toMatchObject({ content: "Please pull", poster_name: "alice", poster_id: alice.id, is_draft: false, ensured_safe: true });
    expect(list[0]!.head.sha).toBe(sourceOpen.head.sha);
    expect(list[1]!.head.sha).toBe(sourceDone.head.sha);
    expect(list[1]!.merge_commit_sha).toBe(sourceDone.merge_commit_sha);
    expect(list[1]!.merged_time).toBeString();
    // The heads travel in the git data, the merged request's too although its branch is gone.
    const dumpRef = async (n: number) => (await gitOk(["--git-dir", join(dumped, "git"), "rev-parse", `refs/pull/${n}/head`])).trim();
    expect(await dumpRef(2)).toBe(sourceOpen.head.sha);
    expect(await dumpRef(3)).toBe(sourceDone.head.sha);
    expect((load(dumped, "comments/2.yml") as any[]).map((c) => [c.issue_index, c.poster_name, c.content])).toEqual([[2, "bob", "a remark"]]);

    const reviews = load(dumped, "reviews/2.yml") as Record<string, any>[];
    expect(reviews.map((r) => [r.issue_index, r.reviewer_name, r.state, r.content])).toEqual([[2, "bob", "CHANGES_REQUESTED", "please fix"]]);
    expect(reviews[0]!.comments.map((c: any) => [c.tree_path, c.line, c.content, c.poster_id])).toEqual([["base.txt", 2, "why capitals?", bob.id]]);
    expect(reviews[0]!.comments[0].diff_hunk).toContain("+TWO");
  });

  test("--units without pull_requests leaves them out", async () => {
    const dir = join(out, "no-pulls");
    await ok(["dump-repo", "--repo_dir", dir, "--owner_name", "alice", "--repo_name", "proj", "--units", "issues,comments"]);
    const base = join(dir, "alice", "proj");
    expect(existsSync(join(base, "pull_request.yml"))).toBe(false);
    expect(existsSync(join(base, "reviews"))).toBe(false);
    expect(existsSync(join(base, "comments", "2.yml"))).toBe(false);
    expect(load(base, "repo.yml")).toMatchObject({ pulls: false, issues: true });
  });
});

describe("restore-repo", () => {
  test("the pull requests come back with their numbers, branches, states, heads, merge and review", async () => {
    const stdout = await ok(["restore-repo", "--repo_dir", dumped, "--owner_name", "alice", "--repo_name", "copy"]);
    expect(stdout).toBe("Restored alice/copy: 2 branches, 0 milestones, 0 labels, 1 issues, 1 comments, 2 pull requests, 1 reviews, 0 releases\n");

    const pulls = (await t.ok("GET", api("copy", "/pulls?state=all&sort=oldest"), aliceToken)) as any[];
    expect(pulls.map((p) => [p.number, p.title, p.state, p.merged, p.head.ref, p.base.ref, p.head.sha])).toEqual([
      [2, "Feature", "open", false, "feature", "main", sourceOpen.head.sha],
      // Gitea's API names the head ref when the head branch is gone, as it is for the merged request.
      [3, "Done", "closed", true, sourceDone.head.ref, "main", sourceDone.head.sha],
    ]);
    expect(sourceDone.head.ref).toBe("refs/pull/3/head");
    expect(await refOf("copy", "refs/pull/2/head")).toBe(sourceOpen.head.sha);
    expect(await refOf("copy", "refs/pull/3/head")).toBe(sourceDone.head.sha);

    const copyOpen = await t.ok("GET", api("copy", "/pulls/2"), aliceToken);
    expect(copyOpen).toMatchObject({ body: "Please pull", user: { login: "alice" }, mergeable: true, merge_base: sourceOpen.merge_base });
    const copyDone = await t.ok("GET", api("copy", "/pulls/3"), aliceToken);
    expect(copyDone).toMatchObject({ merged: true, merge_commit_sha: sourceDone.merge_commit_sha, merged_at: sourceDone.merged_at });
    // The request's commits and files come from the restored head.
    const files = (await t.ok("GET", api("copy", "/pulls/2/files"), aliceToken)) as any[];
    expect(files.map((f) => f.filename).sort()).toEqual(["base.txt", "new.txt"]);

    const comments = (await t.ok("GET", api("copy", "/issues/2/comments"), aliceToken)) as any[];
    expect(comments.map((c) => [c.user.login, c.body])).toEqual([["bob", "a remark"]]);
    const reviews = (await t.ok("GET", api("copy", "/pulls/2/reviews"), aliceToken)) as any[];
    expect(reviews.map((r) => [r.user.login, r.state, r.body, r.comments_count])).toEqual([["bob", "REQUEST_CHANGES", "please fix", 1]]);
    const codeComments = (await t.ok("GET", api("copy", `/pulls/2/reviews/${reviews[0].id}/comments`), aliceToken)) as any[];
    expect(codeComments.map((c) => [c.path, c.body, c.user.login, c.position, c.diff_hunk])).toEqual(
      sourceCodeComments.map((c) => [c.path, c.body, c.user.login, c.position, c.diff_hunk]),
    );

    const repo = await t.ok("GET", api("copy"), aliceToken);
    expect([repo.open_issues_count, repo.open_pr_counter]).toEqual([1, 1]);
    // Issues and pull requests share the number sequence, which continues after the restored ones.
    expect((await t.ok("POST", api("copy", "/issues"), aliceToken, { title: "next" }, 201)).number).toBe(4);
  });

  test("a bad pull_request.yml is refused with nothing written", async () => {
    const bad = (name: string, edit: (list: Record<string, any>[]) => void, file = "pull_request.yml") => {
      const dir = join(out, name);
      cpSync(dumped, dir, { recursive: true });
      const list = load(dir, file) as Record<string, any>[];
      edit(list);
      writeFileSync(join(dir, file), stringify(list));
      return dir;
    };
    const cases: [string, string][] = [
      [bad("state", (l) => (l[1]!.state = "merged")), `pull_request.yml: item 1: field "state": must be equal to one of the allowed values`],
      [bad("head", (l) => (l[0]!.head.sha = "1".repeat(40))), `pull_request.yml: item 0: field "head.sha": commit ${"1".repeat(40)} is not in git/`],
      [bad("number", (l) => (l[0]!.number = 1)), `pull_request.yml: item 0: field "number": duplicate number 1 (issues and pull requests share numbers) (and 2 more problems)`],
      [bad("base", (l) => delete l[0]!.base), `pull_request.yml: item 0: field "base": must have required property 'base'`],
      [bad("merged-open", (l) => (l[1]!.state = "open")), `pull_request.yml: item 1: field "state": a merged pull request must be closed`],
      [bad("review", (l) => (l[0]!.issue_index = 3), "reviews/2.yml"), `reviews/2.yml: item 0: field "issue_index": must be 2, the file's pull request`],
    ];
    for (const [dir, message] of cases) {
      expect(await fails(["restore-repo", "--repo_dir", dir, "--owner_name", "alice", "--repo_name", "bad"])).toBe(message);
      expect((await t.json("GET", api("bad"), { token: aliceToken })).status).toBe(404);
      expect(existsSync(gitDir("bad"))).toBe(false);
    }
  });
});
