import { describe, expect, test } from "bun:test";
import { mkdtempSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { fakeGitlab, type GitlabSeed, type SeedIssue, type SeedUser } from "../support/fake-gitlab.ts";
import { gitOk, localRepo } from "../support/git.ts";

/**
 * POST /repos/migrate with service "gitlab" against a stand-in GitLab (test/support/fake-gitlab.ts):
 * a project in a subgroup with 55 issues (two pages of the downloader's 50), two merge requests
 * (one merged and approved, one open whose source branch is gone but whose
 * refs/merge-requests/2/head remains), labels, milestones, a release with a linked file, topics.
 */

const TOKEN = "glpat-test-token-0123456789";
const maria: SeedUser = { id: 11, username: "maria", name: "Maria Rossi" };
const jonas: SeedUser = { id: 12, username: "jonas", name: "Jonas Berg" };
const at = (hour: number) => new Date(Date.UTC(2024, 0, 1, hour)).toISOString();
const ASSET = new TextEncoder().encode("widget binary \u0000\u0001\u0002 bytes\n");
/** A release link away from the GitLab: never fetched (nothing listens there). */
const ELSEWHERE = "http://127.0.0.2:9/downloads/widget.tar.gz";

/** The source's git data: main (A, then the merge M of feature's B), an unmerged topic commit C kept only as MR 2's head. */
async function sourceRepository(gitRoot: string) {
  const work = await localRepo("main");
  const rev = async (ref: string) => (await gitOk(["rev-parse", ref], { cwd: work })).trim();
  const A = await rev("HEAD");
  await gitOk(["checkout", "-q", "-b", "feature"], { cwd: work });
  await Bun.write(join(work, "feature.txt"), "feature\n");
  await gitOk(["add", "."], { cwd: work });
  await gitOk(["commit", "-qm", "add feature"], { cwd: work });
  const B = await rev("HEAD");
  await gitOk(["checkout", "-q", "main"], { cwd: work });
  await gitOk(["merge", "-q", "--no-ff", "-m", "Merge branch 'feature' into 'main'", "feature"], { cwd: work });
  const M = await rev("HEAD");
  await gitOk(["tag", "v1.0"], { cwd: work });
  await gitOk(["checkout", "-q", "-b", "topic"], { cwd: work });
  await Bun.write(join(work, "topic.txt"), "topic\n");
  await gitOk(["add", "."], { cwd: work });
  await gitOk(["commit", "-qm", "topic work"], { cwd: work });
  const C = await rev("HEAD");
  const bare = join(gitRoot, "acme/tools/widget.git");
  mkdirSync(join(gitRoot, "acme/tools"), { recursive: true });
  await gitOk(["clone", "-q", "--bare", work, bare]);
  await gitOk(["update-ref", "refs/merge-requests/1/head", B], { cwd: bare });
  await gitOk(["update-ref", "refs/merge-requests/2/head", C], { cwd: bare });
  // Both source branches are gone, as after a merge with "delete source branch" and a force-deleted topic.
  await gitOk(["branch", "-D", "feature", "topic"], { cwd: bare });
  return { A, B, M, C };
}

function seedOf(c: { A: string; B: string; M: string; C: string }): GitlabSeed {
  const plain = (iid: number): SeedIssue => ({
    iid,
    title: `Issue ${iid}`,
    description: `body of issue ${iid}`,
    author: jonas,
    state: "opened",
    created_at: at(10 + iid),
    updated_at: at(10 + iid),
  });
  const issues: SeedIssue[] = Array.from({ length: 55 }, (_, i) => plain(i + 1));
  issues[0] = {
    ...plain(1),
    title: "Crash on start",
    description: "It crashes.",
    author: maria,
    state: "closed",
    closed_at: at(9 + 24),
    updated_at: at(9 + 24),
    labels: ["bug"],
    milestone: "v1",
    awards: [
      { id: 1, name: "thumbsup", user: maria, at: at(12) },
      { id: 2, name: "thumbsdown", user: jonas, at: at(12) },
      { id: 3, name: "microphone", user: maria, at: at(12) },
      { id: 4, name: "thumbsup", user: maria, at: at(13) },
    ],
    threads: [
      { notes: [{ id: 101, author: jonas, body: "first comment", at: at(14) }] },
      {
        notes: [
          { id: 102, author: maria, body: "thread start", at: at(15) },
          { id: 103, author: jonas, body: "thread reply", at: at(16) },
        ],
      },
      { notes: [{ id: 104, author: maria, body: "changed the description", at: at(17), system: true }] },
    ],
    stateEvents: [{ id: 201, user: maria, at: at(9 + 24), state: "closed" }],
  };
  issues[1] = { ...issues[1]!, labels: ["feature", "needs info"], discussion_locked: true };
  return {
    project: {
      id: 42,
      namespace: "acme/tools",
      path: "widget",
      name: "Widget",
      description: "A widget from GitLab",
      visibility: "private",
      default_branch: "main",
      topics: ["cli", "tools"],
      created_at: at(0),
    },
    labels: [
      { id: 1, name: "bug", color: "#d9534f", description: "Something is broken" },
      { id: 2, name: "feature", color: "#5CB85C", description: "" },
      { id: 3, name: "needs info", color: "#abc", description: "" },
    ],
    milestones: [
      { id: 1, iid: 1, title: "v1", description: "first", state: "active", due_date: "2026-12-31", created_at: at(1), updated_at: at(1) },
      { id: 2, iid: 2, title: "v0.9", description: "", state: "closed", created_at: at(1), updated_at: at(5) },
    ],
    issues,
    mergeRequests: [
      {
        iid: 1,
        title: "Add feature",
        description: "Adds the feature.",
        author: jonas,
        state: "merged",
        created_at: at(100),
        updated_at: at(110),
        merged_at: at(110),
        closed_at: undefined,
        merged_by: maria,
        source_branch: "feature",
        target_branch: "main",
        sha: c.B,
        base_sha: c.A,
        merge_commit_sha: c.M,
        labels: ["feature"],
        milestone: "v1",
        approved_by: [maria, jonas],
        awards: [{ id: 5, name: "rocket", user: maria, at: at(101) }],
        threads: [{ notes: [{ id: 301, author: maria, body: "LGTM", at: at(105) }] }],
        stateEvents: [{ id: 401, user: maria, at: at(110), state: "merged" }],
      },
      {
        iid: 2,
        title: "Topic work",
        description: "",
        author: maria,
        state: "opened",
        draft: true,
        created_at: at(120),
        updated_at: at(120),
        source_branch: "topic",
        target_branch: "main",
        sha: c.C,
        base_sha: c.M,
      },
    ],
    releases: [
      {
        tag_name: "v1.0",
        name: "Widget 1.0",
        description: "The first release.",
        created_at: at(111),
        released_at: at(112),
        author: maria,
        commit_id: c.M,
        links: [
          { id: 7, name: "widget-linux.bin", bytes: ASSET },
          { id: 8, name: "mirror", bytes: new Uint8Array(), url: ELSEWHERE },
        ],
      },
    ],
  };
}

/** A second GitLab, served below `/gitlab`, holding one bare project `team/app`. */
async function prefixedGitlab() {
  const root = mkdtempSync(join(tmpdir(), "hearth-gitlab-prefix-"));
  const work = await localRepo("main");
  mkdirSync(join(root, "team"), { recursive: true });
  await gitOk(["clone", "-q", "--bare", work, join(root, "team/app.git")]);
  const seed: GitlabSeed = {
    project: {
      id: 7,
      namespace: "team",
      path: "app",
      name: "app",
      description: "",
      visibility: "public",
      default_branch: "main",
      topics: [],
      created_at: at(0),
    },
    labels: [],
    milestones: [],
    issues: [],
    mergeRequests: [],
    releases: [],
  };
  return fakeGitlab(seed, { token: TOKEN, gitRoot: root, prefix: "/gitlab", user: { username: "maria", password: "maria-pass" } });
}

const local = makeTestApp("[migrations]\nALLOW_LOCALNETWORKS = true\n", { listen: true });
const alice = await local.user("alice");
const aliceToken = local.token(alice);
const gitRoot = mkdtempSync(join(tmpdir(), "hearth-gitlab-"));
const commits = await sourceRepository(gitRoot);
const gl = fakeGitlab(seedOf(commits), { token: TOKEN, gitRoot });
const prefixed = await prefixedGitlab();

const migrate = (repoName: string, token: string) =>
  local.json("POST", "/api/v1/repos/migrate", {
    token: aliceToken,
    body: {
      clone_addr: gl.cloneAddr,
      repo_name: repoName,
      service: "gitlab",
      auth_token: token,
      issues: true,
      labels: true,
      milestones: true,
      pull_requests: true,
      releases: true,
    },
  });

describe("POST /repos/migrate from GitLab", () => {
  test("a wrong token is refused with 422 and leaves no repository", async () => {
    const r = await migrate("refused", "glpat-wrong");
    expect(r.status).toBe(422);
    expect(r.body.message).toContain("401 Unauthorized");
    expect((await local.json("GET", "/api/v1/repos/alice/refused", { token: aliceToken })).status).toBe(404);
  });

  test("the project comes in with its issues, merge requests, reviews, labels, milestones, releases and topics", async () => {
    const r = await migrate("widget", TOKEN);
    expect({ status: r.status, message: r.body.message }).toEqual({ status: 201, message: undefined });
    expect(r.body.full_name).toBe("alice/widget");
    expect(r.body.original_url).toBe(gl.cloneAddr);
    // The project was found by its encoded path in the subgroup, then read by id.
    expect(gl.requests).toContain("GET /api/v4/projects/acme%2Ftools%2Fwidget");
    expect(gl.requests.some((q) => q.startsWith("GET /api/v4/projects/42/issues?") && q.includes("page=2"))).toBe(true);

    const repo = "/api/v1/repos/alice/widget";
    const branches = await local.ok("GET", `${repo}/branches`, aliceToken);
    expect(branches.map((b: { name: string }) => b.name)).toEqual(["main"]);
    expect((await local.ok("GET", `${repo}/topics`, aliceToken)).topics).toEqual(["cli", "tools"]);

    const labels = await local.ok("GET", `${repo}/labels`, aliceToken);
    expect(labels.map((l: { name: string; color: string }) => [l.name, l.color])).toEqual([
      ["bug", "d9534f"],
      ["feature", "5cb85c"],
      ["needs info", "aabbcc"],
    ]);
    const milestones = await local.ok("GET", `${repo}/milestones?state=all`, aliceToken);
    const byTitle = Object.fromEntries(milestones.map((m: { title: string }) => [m.title, m]));
    expect(byTitle.v1.state).toBe("open");
    expect(byTitle.v1.due_on).toStartWith("2026-12-31");
    expect(byTitle["v0.9"].state).toBe("closed");

    // Issues keep GitLab's numbers; the 55th came from the second page.
    const first = await local.ok("GET", `${repo}/issues/1`, aliceToken);
    expect(first.title).toBe("Crash on start");
    expect(first.state).toBe("closed");
    expect(first.original_author).toBe("maria");
    expect(first.labels.map((l: { name: string }) => l.name)).toEqual(["bug"]);
    expect(first.milestone.title).toBe("v1");
    expect((await local.ok("GET", `${repo}/issues/55`, aliceToken)).title).toBe("Issue 55");
    expect((await local.ok("GET", `${repo}/issues/2`, aliceToken)).is_locked).toBe(true);

    // Notes, threads flattened, the system note as its text; the close event is not a comment.
    const comments = await local.ok("GET", `${repo}/issues/1/comments`, aliceToken);
    expect(comments.map((c: { body: string }) => c.body)).toEqual(["first comment", "thread start", "thread reply", "changed the description"]);
    expect(comments[0].original_author).toBe("jonas");

    // thumbsup/thumbsdown are Gitea's +1/-1; a repeated award counts once; an emoji Gitea has no reaction for is left out.
    const reactions = await local.ok("GET", `${repo}/issues/1/reactions`, aliceToken);
    expect(reactions.map((x: { content: string }) => x.content).sort()).toEqual(["+1", "-1"]);

    // Merge requests follow the issues' numbers: !1 is #56, !2 is #57.
    const merged = await local.ok("GET", `${repo}/pulls/56`, aliceToken);
    expect(merged.title).toBe("Add feature");
    expect(merged.merged).toBe(true);
    expect(merged.state).toBe("closed");
    expect(merged.head.sha).toBe(commits.B);
    expect(merged.base.ref).toBe("main");
    expect(merged.merge_commit_sha).toBe(commits.M);
    expect(merged.labels.map((l: { name: string }) => l.name)).toEqual(["feature"]);
    const open = await local.ok("GET", `${repo}/pulls/57`, aliceToken);
    // A draft is a work-in-progress pull request, as Gitea's uploader marks it.
    expect(open.title).toBe("WIP: Topic work");
    expect(open.state).toBe("open");
    expect(open.head.sha).toBe(commits.C);
    // The head commit of a source branch that no longer exists came from refs/merge-requests/2/head.
    const openCommits = await local.ok("GET", `${repo}/pulls/57/commits`, aliceToken);
    expect(openCommits.map((x: { sha: string }) => x.sha)).toEqual([commits.C]);
    expect((await local.ok("GET", `${repo}/issues/56/comments`, aliceToken)).map((c: { body: string }) => c.body)).toEqual(["LGTM"]);
    expect((await local.ok("GET", `${repo}/issues/56/reactions`, aliceToken)).map((x: { content: string }) => x.content)).toEqual(["rocket"]);

    // Approvals are reviews.
    const reviews = await local.ok("GET", `${repo}/pulls/56/reviews`, aliceToken);
    expect(reviews.map((x: { state: string }) => x.state)).toEqual(["APPROVED", "APPROVED"]);
    expect((await local.ok("GET", `${repo}/pulls/57/reviews`, aliceToken)).length).toBe(0);

    // The release, with its linked file and not GitLab's generated archives.
    const release = await local.ok("GET", `${repo}/releases/tags/v1.0`, aliceToken);
    expect(release.name).toBe("Widget 1.0");
    expect(release.body).toBe("The first release.");
    const assets = [...release.assets].sort((a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name));
    expect(assets.map((a: { name: string; size: number }) => [a.name, a.size])).toEqual([
      ["mirror", ELSEWHERE.length],
      ["widget-linux.bin", ASSET.length],
    ]);
    const bytesOf = async (i: number) => {
      const res = await fetch(assets[i].browser_download_url, { headers: { Authorization: `token ${aliceToken}` } });
      expect(res.status).toBe(200);
      return new Uint8Array(await res.arrayBuffer());
    };
    expect(await bytesOf(1)).toEqual(ASSET);
    // A link outside the GitLab is kept as its address, as Gitea keeps it, rather than fetched.
    expect(new TextDecoder().decode(await bytesOf(0))).toBe(ELSEWHERE);
    expect(gl.requests.filter((q) => q.includes("/uploads/"))).toHaveLength(1);
  });
  test("a GitLab served below a path is found by probing /api/v4/version deeper, as Gitea does", async () => {
    expect(prefixed.cloneAddr).toEndWith("/gitlab/team/app.git");
    const r = await local.json("POST", "/api/v1/repos/migrate", {
      token: aliceToken,
      body: { clone_addr: prefixed.cloneAddr, repo_name: "app", service: "gitlab", auth_token: TOKEN, issues: true, pull_requests: true, releases: true },
    });
    expect({ status: r.status, message: r.body.message }).toEqual({ status: 201, message: undefined });
    expect(prefixed.requests.slice(0, 3)).toEqual(["GET /api/v4/version", "GET /gitlab/api/v4/version", "GET /gitlab/api/v4/projects/team%2Fapp"]);
    const branches = await local.ok("GET", "/api/v1/repos/alice/app/branches", aliceToken);
    expect(branches.map((b: { name: string }) => b.name)).toEqual(["main"]);
  });

  test("a user name and password are traded for an OAuth token first (the password grant), which the API and git then use", async () => {
    const body = { clone_addr: prefixed.cloneAddr, repo_name: "by-password", service: "gitlab", auth_username: "maria", auth_password: "maria-pass", issues: true };
    const before = prefixed.requests.length;
    const r = await local.json("POST", "/api/v1/repos/migrate", { token: aliceToken, body });
    expect({ status: r.status, message: r.body.message }).toEqual({ status: 201, message: undefined });
    expect(prefixed.requests[before]).toBe("POST /oauth/token");
    expect((await local.ok("GET", "/api/v1/repos/alice/by-password/branches", aliceToken)).map((b: { name: string }) => b.name)).toEqual(["main"]);

    const wrong = await local.json("POST", "/api/v1/repos/migrate", { token: aliceToken, body: { ...body, repo_name: "wrong-password", auth_password: "nope" } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.message).toStartWith("Authentication failed");
    expect(JSON.stringify(wrong.body)).not.toContain("nope");
    expect((await local.json("GET", "/api/v1/repos/alice/wrong-password", { token: aliceToken })).status).toBe(404);
  });
});
