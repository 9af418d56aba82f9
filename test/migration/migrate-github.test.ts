import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { fakeGitHubRepoDir, startFakeGitHub, type FakeGitHub, type GhSeed, type SeedIssue } from "../support/fake-github.ts";
import { gitOk, localRepo } from "../support/git.ts";
import { githubApiBase } from "../../src/services/migration/download/github.ts";
import { lineFromHunk } from "../../src/services/migration/download/github-records.ts";

/**
 * `POST /repos/migrate` with service "github" against a GitHub Enterprise server on loopback
 * (test/support/fake-github.ts): everything the API holds arrives, through hearth's own API.
 */

const TOKEN = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
/** Minutes after 2020-01-01 as GitHub writes times. */
/** Pull request #1's change to hello.txt, as GitHub shows it in a review comment on its last line. */
const HUNK = "@@ -1 +1,2 @@\n-hello\n+hi\n+world";
const at = (minutes: number) => new Date(Date.UTC(2020, 0, 1, 0, minutes)).toISOString().replace(".000Z", "Z");

const local = makeTestApp("[migrations]\nALLOW_LOCALNETWORKS = true\n", { listen: true });
const alice = await local.user("alice");
const aliceToken = local.token(alice);

const assetBytes = crypto.getRandomValues(new Uint8Array(3000));
let fake: FakeGitHub;
const shas = { root: "", feature: "", merge: "", fork: "" };
let gitRoot = "";

/**
 * The source's git data: main with a merged pull request (#1, its branch deleted after the merge,
 * as GitHub offers) and an open one from a fork (#2), whose head exists only at refs/pull/2/head.
 */
async function prepareGit(owner: string, name: string): Promise<void> {
  const work = await localRepo("main");
  const sha = async (rev: string) => (await gitOk(["rev-parse", rev], { cwd: work })).trim();
  shas.root = await sha("HEAD");
  await gitOk(["checkout", "-q", "-b", "feature"], { cwd: work });
  await Bun.write(join(work, "hello.txt"), "hi\nworld\n");
  await gitOk(["commit", "-qam", "say world"], { cwd: work });
  shas.feature = await sha("HEAD");
  await gitOk(["checkout", "-q", "main"], { cwd: work });
  await gitOk(["merge", "-q", "--no-ff", "-m", "Merge pull request #1", "feature"], { cwd: work });
  shas.merge = await sha("HEAD");
  await gitOk(["tag", "v1.0"], { cwd: work });
  await gitOk(["checkout", "-q", "-b", "fork-fix", shas.merge], { cwd: work });
  await Bun.write(join(work, "fix.txt"), "fixed\n");
  await gitOk(["add", "fix.txt"], { cwd: work });
  await gitOk(["commit", "-qm", "fix from a fork"], { cwd: work });
  shas.fork = await sha("HEAD");

  gitRoot = mkdtempSync(join(tmpdir(), "hearth-fake-github-"));
  const bare = fakeGitHubRepoDir(gitRoot, owner, name);
  mkdirSync(dirname(bare), { recursive: true });
  await gitOk(["clone", "-q", "--bare", work, bare]);
  await gitOk(["update-ref", "refs/pull/1/head", shas.feature], { cwd: bare });
  await gitOk(["update-ref", "refs/pull/2/head", shas.fork], { cwd: bare });
  await gitOk(["branch", "-D", "feature", "fork-fix"], { cwd: bare });
  rmSync(work, { recursive: true, force: true });
}

function seed(): GhSeed {
  const issues: SeedIssue[] = [
    {
      number: 3,
      title: "Crash on start",
      body: "It crashes.",
      user: "octocat",
      created: at(3),
      closed: at(100),
      labels: ["bug"],
      milestone: "v1.0",
      assignees: ["hubot"],
      reactions: [
        { user: "hubot", content: "+1" },
        { user: "monalisa", content: "heart" },
      ],
      comments: [
        { user: "hubot", body: "Me too.", created: at(4), reactions: [{ user: "octocat", content: "laugh" }] },
        { user: "octocat", body: "Fixed by #1.", created: at(99) },
      ],
    },
    { number: 4, title: "Say more", body: "", user: "hubot", created: at(4), labels: ["enhancement"] },
  ];
  // Enough issues for a second page (write-dump asks 50 at a time; #1 and #2 are pull requests on the first).
  for (let n = 5; n <= 53; n++) issues.push({ number: n, title: `Issue ${n}`, body: `Body ${n}`, user: "monalisa", created: at(n) });
  return {
    owner: "octo-org",
    name: "hello-world",
    description: "My first repository on GitHub!",
    private: true,
    defaultBranch: "main",
    topics: ["octocat", "api"],
    labels: [
      { name: "bug", color: "d73a4a", description: "Something isn't working" },
      { name: "enhancement", color: "a2eeef", description: "New feature or request" },
    ],
    milestones: [
      { title: "v1.0", description: "Tracking milestone for version 1.0", state: "closed", created: at(0), closed: at(101), dueOn: "2020-03-01T08:00:00Z" },
      { title: "v2.0", description: "", state: "open", created: at(1) },
    ],
    issues,
    pulls: [
      {
        number: 1,
        title: "Say world",
        body: "Please pull these awesome changes in!",
        user: "hubot",
        created: at(1),
        closed: at(98),
        merged: at(98),
        mergeCommitSha: shas.merge,
        labels: ["enhancement"],
        milestone: "v1.0",
        head: { ref: "feature", sha: shas.feature },
        base: { ref: "main", sha: shas.root },
        comments: [{ user: "octocat", body: "Thanks!", created: at(97) }],
        reviews: [
          {
            user: "octocat",
            state: "APPROVED",
            body: "Looks good.",
            commitId: shas.feature,
            submitted: at(96),
            comments: [
              { user: "octocat", body: "Nice line.", path: "hello.txt", line: 2, side: "RIGHT", diffHunk: HUNK, position: 3 },
              // Placed by its hunk alone: its last line is the old side's line 1.
              { user: "hubot", body: "Why drop hello?", path: "hello.txt", line: 1, side: "LEFT", diffHunk: "@@ -1 +1,2 @@\n-hello", position: 1, omitLine: true },
            ],
          },
          // A draft review: its author's alone, never submitted.
          { user: "monalisa", state: "PENDING", body: "", commitId: shas.feature, submitted: null },
        ],
      },
      {
        number: 2,
        title: "Fix from a fork",
        body: "",
        user: "monalisa",
        created: at(2),
        head: { ref: "fix", sha: shas.fork, user: "monalisa", repo: "hello-world" },
        base: { ref: "main", sha: shas.merge },
        draft: true,
        requestedReviewers: ["octocat"],
      },
    ],
    releases: [
      {
        tag: "v1.0",
        target: "main",
        name: "First release",
        body: "Description of the release",
        user: "octocat",
        created: at(102),
        published: at(103),
        assets: [{ name: "hello.tar.gz", contentType: "application/gzip", bytes: assetBytes }],
      },
    ],
  };
}

beforeAll(async () => {
  await prepareGit("octo-org", "hello-world");
  fake = startFakeGitHub(seed(), { token: TOKEN, gitRoot });
});
let empty: FakeGitHub;
beforeAll(async () => {
  // A second source with nothing but its git data: every list empty, no topics.
  const bare = fakeGitHubRepoDir(gitRoot, "octo-org", "bare-bones");
  await gitOk(["clone", "-q", "--bare", fakeGitHubRepoDir(gitRoot, "octo-org", "hello-world"), bare]);
  empty = startFakeGitHub(
    { owner: "octo-org", name: "bare-bones", description: "", private: false, defaultBranch: "main", topics: [], labels: [], milestones: [], issues: [], pulls: [], releases: [] },
    { token: TOKEN, gitRoot },
  );
});
afterAll(() => {
  empty?.stop();
  fake?.stop();
  rmSync(gitRoot, { recursive: true, force: true });
});

const migrate = (repoName: string, authToken: string, from = fake) =>
  local.json("POST", "/api/v1/repos/migrate", {
    token: aliceToken,
    body: {
      clone_addr: from.repoUrl,
      repo_name: repoName,
      service: "github",
      auth_token: authToken,
      issues: true,
      pull_requests: true,
      labels: true,
      milestones: true,
      releases: true,
      wiki: false,
    },
  });

const get = (path: string) => local.ok("GET", `/api/v1/repos/alice/hello${path}`, aliceToken);

describe("POST /repos/migrate from GitHub", () => {
  test("a wrong token is refused with GitHub's words and leaves no repository", async () => {
    const r = await migrate("refused", "ghp_wrong");
    expect(r.status).toBe(422);
    expect(r.body.message).toContain("Bad credentials");
    expect((await local.json("GET", "/api/v1/repos/alice/refused", { token: aliceToken })).status).toBe(404);
  });

  test("everything arrives", async () => {
    const r = await migrate("hello", TOKEN);
    expect(r.status).toBe(201);
    expect(r.body.full_name).toBe("alice/hello");
    expect(r.body.original_url).toBe(fake.repoUrl);
    expect(r.body.default_branch).toBe("main");
  });

  test("the second page of issues was read, after the rate limit's wait", () => {
    expect(fake.requests.some((q) => q.startsWith("GET /api/v3/repos/octo-org/hello-world/issues?") && /[?&]page=2(&|$)/.test(q))).toBe(true);
    // The first page spent the quota: the next request waited for the reset instead of being refused.
    expect(fake.rateLimit.announced).toBe(true);
    expect(fake.rateLimit.refusedEarly).toBe(0);
  });

  test("issues keep their numbers, state, labels, milestone and original author", async () => {
    const list = await local.json("GET", "/api/v1/repos/alice/hello/issues?state=all&type=issues&limit=10", { token: aliceToken });
    expect(list.headers.get("X-Total-Count")).toBe("51");
    const crash = await get("/issues/3");
    expect(crash.title).toBe("Crash on start");
    expect(crash.state).toBe("closed");
    expect(crash.body).toBe("It crashes.");
    expect(crash.labels.map((l: { name: string }) => l.name)).toEqual(["bug"]);
    expect(crash.milestone.title).toBe("v1.0");
    expect(crash.original_author).toBe("octocat");
    expect(crash.user.id).toBe(-1);
    const open = await get("/issues/4");
    expect(open.state).toBe("open");
    expect(open.original_author).toBe("hubot");
    // The last issue came on the second page.
    expect((await get("/issues/53")).title).toBe("Issue 53");
    const reactions = await get("/issues/3/reactions");
    expect(reactions.map((x: { content: string }) => x.content).sort()).toEqual(["+1", "heart"]);
  });

  test("comments arrive in order with their authors", async () => {
    const comments = await get("/issues/3/comments");
    expect(comments.map((c: { body: string }) => c.body)).toEqual(["Me too.", "Fixed by #1."]);
    expect(comments.map((c: { original_author: string }) => c.original_author)).toEqual(["hubot", "octocat"]);
    expect((await get("/issues/1/comments")).map((c: { body: string }) => c.body)).toEqual(["Thanks!"]);
  });

  test("labels, milestones and topics", async () => {
    const labels = await get("/labels");
    expect(labels.map((l: { name: string; color: string }) => [l.name, l.color])).toEqual([
      ["bug", "d73a4a"],
      ["enhancement", "a2eeef"],
    ]);
    const milestones = await get("/milestones?state=all");
    const byTitle = new Map(milestones.map((m: { title: string }) => [m.title, m]));
    expect(byTitle.get("v1.0")).toMatchObject({ state: "closed", due_on: "2020-03-01T08:00:00Z", description: "Tracking milestone for version 1.0" });
    expect(byTitle.get("v2.0")).toMatchObject({ state: "open", due_on: null });
    expect((await get("/topics")).topics.sort()).toEqual(["api", "octocat"]);
  });

  test("pull requests keep their merge and their head commits", async () => {
    const merged = await get("/pulls/1");
    expect(merged.title).toBe("Say world");
    expect(merged.merged).toBe(true);
    expect(merged.state).toBe("closed");
    expect(merged.merge_commit_sha).toBe(shas.merge);
    expect(merged.head.sha).toBe(shas.feature);
    // A pull request's JSON has no original author: its issue's has.
    expect((await get("/issues/1")).original_author).toBe("hubot");
    expect((await get("/pulls/1/commits")).map((c: { sha: string }) => c.sha)).toContain(shas.feature);

    const fromFork = await get("/pulls/2");
    expect(fromFork.state).toBe("open");
    expect(fromFork.merged).toBe(false);
    expect(fromFork.head.sha).toBe(shas.fork);
    expect((await get("/pulls/2/commits")).map((c: { sha: string }) => c.sha)).toEqual([shas.fork]);
  });

  test("submitted reviews arrive with their code comments; a draft review does not", async () => {
    const reviews = await get("/pulls/1/reviews");
    expect(reviews.length).toBe(1);
    expect(reviews[0]).toMatchObject({ state: "APPROVED", body: "Looks good.", commit_id: shas.feature });
    const comments = await get(`/pulls/1/reviews/${reviews[0].id}/comments`);
    expect(comments.map((c: { path: string; body: string }) => [c.path, c.body])).toEqual([
      ["hello.txt", "Nice line."],
      ["hello.txt", "Why drop hello?"],
    ]);
    // Gitea's API shows a new-side line as `position`, an old-side one as `original_position`.
    expect(comments[0]).toMatchObject({ position: 2, original_position: 0, commit_id: shas.feature, diff_hunk: HUNK });
    expect(comments[1]).toMatchObject({ position: 0, original_position: 1 });

    // A review asked for and not given yet.
    const asked = await get("/pulls/2/reviews");
    expect(asked.map((r: { state: string }) => r.state)).toEqual(["REQUEST_REVIEW"]);
  });

  test("releases arrive with their assets' bytes", async () => {
    const releases = await get("/releases");
    expect(releases.length).toBe(1);
    expect(releases[0]).toMatchObject({ tag_name: "v1.0", name: "First release", body: "Description of the release" });
    const [asset] = releases[0].assets;
    expect(asset.name).toBe("hello.tar.gz");
    expect(asset.size).toBe(assetBytes.length);
    const res = await fetch(asset.browser_download_url, { headers: { Authorization: `token ${aliceToken}` } });
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(assetBytes);
    // Fetched through the asset's API address, which redirected to the file.
    expect(fake.requests).toContain("GET /api/v3/repos/octo-org/hello-world/releases/assets/1");
  });

  test("without a token, the name and password sign in to the API and to git", async () => {
    const r = await local.json("POST", "/api/v1/repos/migrate", {
      token: aliceToken,
      body: { clone_addr: empty.repoUrl, repo_name: "by-password", service: "github", auth_username: "octocat", auth_password: TOKEN, labels: true },
    });
    expect(r.status).toBe(201);
    expect((await local.ok("GET", "/api/v1/repos/alice/by-password/branches", aliceToken)).map((b: { name: string }) => b.name)).toEqual(["main"]);
  });

  test("a source with empty lists comes in with its git data alone", async () => {
    const r = await migrate("bare-bones", TOKEN, empty);
    expect(r.status).toBe(201);
    const bones = (path: string) => local.ok("GET", `/api/v1/repos/alice/bare-bones${path}`, aliceToken);
    expect((await bones("/branches")).map((b: { name: string }) => b.name)).toEqual(["main"]);
    expect(await bones("/issues?state=all")).toEqual([]);
    expect(await bones("/pulls?state=all")).toEqual([]);
    expect(await bones("/labels")).toEqual([]);
    expect(await bones("/releases")).toEqual([]);
  });
});

describe("the GitHub downloader's addresses and lines", () => {
  test("github.com is read at api.github.com, any other host as GitHub Enterprise", () => {
    expect(githubApiBase("https://github.com/go-gitea/gitea")).toBe("https://api.github.com");
    expect(githubApiBase("https://GitHub.com/go-gitea/gitea.git")).toBe("https://api.github.com");
    expect(githubApiBase("https://ghe.example.com:8443/team/tool")).toBe("https://ghe.example.com:8443/api/v3");
    expect(githubApiBase("http://127.0.0.1:3000/o/r")).toBe("http://127.0.0.1:3000/api/v3");
  });

  test("a hunk's last line places a comment: new side positive, old side negative", () => {
    expect(lineFromHunk("@@ -10,3 +12,4 @@ fn\n a\n b")).toBe(13);
    expect(lineFromHunk("@@ -10,3 +12,4 @@\n a\n-b")).toBe(-11);
    expect(lineFromHunk("@@ -10,3 +12,4 @@\n a\n-b\n+c")).toBe(13);
    expect(lineFromHunk("not a hunk")).toBe(0);
  });
});
