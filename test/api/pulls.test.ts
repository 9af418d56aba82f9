import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { authUrl, gitOk } from "../support/git.ts";
import { expectShape } from "../support/shape.ts";
import { ChangedFile, PullRequest } from "../../src/shapes/pull.ts";
import { Commit } from "../../src/shapes/commit.ts";
import { Issue } from "../../src/shapes/issue.ts";
import { gitDirOf } from "../../src/services/repo/lookup.ts";
import { pullSyncIdle } from "../../src/services/pull/push-sync.ts";

const t = makeTestApp("", { listen: true });
const alice = await t.user("alice", { password: "alice-pass" });
const bob = await t.user("bob", { password: "bob-pass" });
const carol = await t.user("carol");
const aliceToken = t.token(alice);
const bobToken = t.token(bob);
const carolToken = t.token(carol);
const api = (rest = "", repo = "alice/r") => `/api/v1/repos/${repo}${rest}`;
const rev = (gitDir: string, r: string) => gitOk(["--git-dir", gitDir, "rev-parse", "--verify", r]).then((s) => s.trim());
const aliceDir = gitDirOf(t.env, { name: "alice" }, { name: "r" });

async function clone(path: string, user: string, pass: string): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), "hearth-pr-")), "w");
  await gitOk(["clone", "-q", authUrl(t.baseUrl, `${path}.git`, user, pass), dir]);
  return dir;
}

async function commit(dir: string, files: Record<string, string | null>, message: string, date?: string) {
  for (const [name, content] of Object.entries(files)) {
    if (content === null) await gitOk(["rm", "-q", name], { cwd: dir });
    else {
      await Bun.write(join(dir, name), content);
      await gitOk(["add", name], { cwd: dir });
    }
  }
  await gitOk(["commit", "-q", "-m", message], { cwd: dir, env: date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {} });
}

/** Polls the request until the background work of pushes is done. */
async function settled(index: number, repo = "alice/r") {
  await pullSyncIdle(t.env);
  return t.ok("GET", api(`/pulls/${index}`, repo), aliceToken);
}

// alice/r: main with README, base.txt and old.txt; `feature` adds, changes, renames and deletes; `clash` conflicts with main.
expect((await t.json("POST", "/api/v1/user/repos", { token: aliceToken, body: { name: "r", auto_init: true } })).status).toBe(201);
const work = await clone("alice/r", "alice", "alice-pass");
await commit(work, { "base.txt": "one\ntwo\nthree\nfour\nfive\nsix\nseven\n", "old.txt": "a file to be renamed\nwith enough lines\nto be detected\n", "gone.txt": "bye\n" }, "setup");
await gitOk(["push", "-q", "origin", "main"], { cwd: work });
await gitOk(["checkout", "-q", "-b", "feature"], { cwd: work });
await commit(work, { "new.txt": "new\n" }, "add new", "2024-05-06T07:08:09+02:00");
await gitOk(["mv", "old.txt", "renamed.txt"], { cwd: work });
await commit(work, { "base.txt": "one\nTWO\nthree\nfour\nfive\nsix\nseven\neight\n", "gone.txt": null }, "change base, rename old, delete gone");
await gitOk(["checkout", "-q", "-b", "clash", "main"], { cwd: work });
await commit(work, { "base.txt": "one\ntwo\nthree\nfour\nfive\nclash\nseven\n" }, "clash");
await gitOk(["checkout", "-q", "main"], { cwd: work });
await commit(work, { "base.txt": "one\ntwo\nthree\nfour\nfive\nmain side\nseven\n" }, "main moves");
await gitOk(["tag", "v1"], { cwd: work });
await gitOk(["branch", "behind", "main~1"], { cwd: work });
await gitOk(["push", "-q", "origin", "main", "feature", "clash", "behind", "v1"], { cwd: work });

let featurePr: any;

describe("POST /repos/{owner}/{repo}/pulls", () => {
  test("opens a pull request from a branch, with Gitea's shape and computed state", async () => {
    const r = await t.json("POST", api("/pulls"), {
      token: aliceToken,
      body: { head: "feature", base: "main", title: "Add feature", body: "desc", assignees: ["alice"] },
    });
    expect(r.status).toBe(201);
    featurePr = r.body;
    expectShape(featurePr, PullRequest);
    expect(featurePr.number).toBe(1);
    expect(featurePr.state).toBe("open");
    expect(featurePr.url).toBe(`${t.baseUrl}alice/r/pulls/1`);
    expect(featurePr.diff_url).toBe(`${t.baseUrl}alice/r/pulls/1.diff`);
    expect(featurePr.base).toMatchObject({ label: "main", ref: "main", sha: await rev(aliceDir, "main") });
    expect(featurePr.base.repo.full_name).toBe("alice/r");
    expect(featurePr.head).toMatchObject({ label: "feature", ref: "feature", sha: await rev(aliceDir, "feature") });
    expect(featurePr.merge_base).toBe(await rev(aliceDir, "main~1"));
    expect(featurePr.mergeable).toBe(true);
    expect(featurePr.merged).toBe(false);
    expect(featurePr.draft).toBe(false);
    expect(featurePr.changed_files).toBe(4);
    expect(featurePr.additions).toBe(3);
    expect(featurePr.deletions).toBe(2);
    expect(featurePr.assignees.map((u: any) => u.login)).toEqual(["alice"]);
    expect(featurePr.requested_reviewers).toEqual([]);
    expect(await rev(aliceDir, "refs/pull/1/head")).toBe(await rev(aliceDir, "feature"));
  });

  test("a second open request for the same branches is a 409 with Gitea's message", async () => {
    const r = await t.json("POST", api("/pulls"), { token: aliceToken, body: { head: "feature", base: "main", title: "again" } });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(
      `pull request already exists for these targets [id: ${featurePr.id}, issue_id: 1, head_repo_id: ${featurePr.head.repo_id}, base_repo_id: ${featurePr.base.repo_id}, head_branch: feature, base_branch: main]`,
    );
  });

  test("refuses same branch (422), tags (422), unknown branches and owners (404), missing fields (422)", async () => {
    const same = await t.json("POST", api("/pulls"), { token: aliceToken, body: { head: "main", base: "main", title: "x" } });
    expect(same.status).toBe(422);
    expect(same.body.message).toBe("Invalid PullRequest: There are no changes between the head and the base");
    const tag = await t.json("POST", api("/pulls"), { token: aliceToken, body: { head: "v1", base: "main", title: "x" } });
    expect(tag.status).toBe(422);
    expect(tag.body.message).toBe("Invalid PullRequest: base and head must be branches");
    for (const body of [
      { head: "nope", base: "main", title: "x" },
      { head: "feature", base: "nope", title: "x" },
      { head: "nobody:feature", base: "main", title: "x" },
      { head: "carol:feature", base: "main", title: "x" },
    ]) {
      expect((await t.json("POST", api("/pulls"), { token: aliceToken, body })).status).toBe(404);
    }
    expect((await t.json("POST", api("/pulls"), { token: aliceToken, body: { head: "feature", base: "main" } })).status).toBe(422);
  });

  test("assignees must exist and be able to write (422); anonymous callers get 401", async () => {
    const unknown = await t.json("POST", api("/pulls"), { token: aliceToken, body: { head: "clash", base: "main", title: "x", assignee: "ghost9" } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toContain("Assignee does not exist");
    const noAccess = await t.json("POST", api("/pulls"), { token: aliceToken, body: { head: "clash", base: "main", title: "x", assignee: "carol" } });
    expect(noAccess.status).toBe(422);
    expect(noAccess.body.message).toBe(`user doesn't have access to repo [user_id: ${carol.id}, repo_name: r]`);
    expect((await t.json("POST", api("/pulls"), { body: { head: "clash", base: "main", title: "x" } })).status).toBe(401);
  });

  test("a conflicting request is not mergeable and shares the issue index", async () => {
    const issue = await t.ok("POST", api("/issues"), aliceToken, { title: "an issue" }, 201);
    expect(issue.number).toBe(2);
    const pr = await t.ok("POST", api("/pulls"), bobToken, { head: "clash", base: "main", title: "clash" }, 201);
    expect(pr.number).toBe(3);
    expect(pr.draft).toBe(false);
    expect(pr.mergeable).toBe(false);
    expect(pr.user.login).toBe("bob");
    // The conflict is stored for the merge to read.
    const { getPullByIndex } = await import("../../src/models/pull.ts");
    expect(JSON.parse(getPullByIndex(t.env.db, featurePr.base.repo_id, 3)!.conflictedFiles)).toEqual(["base.txt"]);
  });
});

describe("a request without new commits", () => {
  test("is accepted (Gitea does not refuse it), already contained in the base, and closed here", async () => {
    const pr = await t.ok("POST", api("/pulls"), aliceToken, { head: "behind", base: "main", title: "nothing new" }, 201);
    expect(pr.changed_files).toBe(0);
    expect(pr.merge_base).toBe(pr.head.sha);
    expect(pr.mergeable).toBe(true);
    expect(await t.ok("GET", api(`/pulls/${pr.number}/commits`), undefined)).toEqual([]);
    expect(await t.ok("GET", api(`/pulls/${pr.number}/files`), undefined)).toEqual([]);
    const { getPullByIndex } = await import("../../src/models/pull.ts");
    expect(getPullByIndex(t.env.db, pr.base.repo_id, pr.number)!.status).toBe(6);
    await t.ok("DELETE", api(`/issues/${pr.number}`), aliceToken, undefined, 204);
    expect((await t.json("GET", api(`/pulls/${pr.number}`))).status).toBe(404);
  });
});

describe("GET /pulls, /pulls/{index}, /pulls/{base}/{head}", () => {
  test("gets one request; a number that is an issue or nothing is 404", async () => {
    const pr = await t.ok("GET", api("/pulls/1"), carolToken);
    expect(pr.id).toBe(featurePr.id);
    expect(pr.changed_files).toBe(4);
    expect((await t.json("GET", api("/pulls/2"))).status).toBe(404);
    expect((await t.json("GET", api("/pulls/99"))).status).toBe(404);
  });

  test("lists open requests newest first, without diff counts, paged with X-Total-Count", async () => {
    const r = await t.json("GET", api("/pulls"));
    expect(r.status).toBe(200);
    expect(r.body.map((p: any) => p.number)).toEqual([3, 1]);
    expect(r.headers.get("x-total-count")).toBe("2");
    for (const p of r.body) expectShape(p, PullRequest);
    expect(r.body[1].additions).toBeNull();
    const oldest = await t.ok("GET", api("/pulls?sort=oldest&limit=1&page=2"), undefined);
    expect(oldest.map((p: any) => p.number)).toEqual([3]);
    expect((await t.ok("GET", api("/pulls?poster=bob"), undefined)).map((p: any) => p.number)).toEqual([3]);
    expect((await t.json("GET", api("/pulls?poster=nobody"))).status).toBe(400);
    expect((await t.ok("GET", api("/pulls?base_branch=feature"), undefined)).length).toBe(0);
    expect((await t.ok("GET", api("/pulls?state=closed"), undefined)).length).toBe(0);
  });

  test("finds a request by base and head", async () => {
    expect((await t.ok("GET", api("/pulls/main/feature"), undefined)).number).toBe(1);
    expect((await t.ok("GET", api("/pulls/main/alice:feature"), undefined)).number).toBe(1);
    expect((await t.json("GET", api("/pulls/feature/main"))).status).toBe(404);
  });

  test("the issue endpoints show requests with pull_request metadata", async () => {
    const issue = await t.ok("GET", api("/issues/1"), undefined);
    expectShape(issue, Issue);
    expect(issue.pull_request).toEqual({ merged: false, merged_at: null, draft: false, html_url: `${t.baseUrl}alice/r/pulls/1` });
    const pulls = await t.ok("GET", api("/issues?type=pulls"), undefined);
    expect(pulls.map((i: any) => i.number)).toEqual([3, 1]);
    expect(pulls[0].pull_request.draft).toBe(false);
  });
});

describe("files, commits, diff and patch", () => {
  test("files: statuses, counts and links, paged; a page past the end is []", async () => {
    const r = await t.json("GET", api("/pulls/1/files"));
    expect(r.status).toBe(200);
    expect(r.headers.get("x-total-count")).toBe("4");
    for (const f of r.body) expectShape(f, ChangedFile);
    const head = await rev(aliceDir, "feature");
    const byName = Object.fromEntries(r.body.map((f: any) => [f.filename, f]));
    expect(byName["new.txt"]).toMatchObject({ status: "added", additions: 1, deletions: 0, changes: 1 });
    expect(byName["base.txt"]).toMatchObject({ status: "changed", additions: 2, deletions: 1, changes: 3 });
    expect(byName["gone.txt"]).toMatchObject({ status: "deleted", deletions: 1 });
    expect(byName["renamed.txt"]).toMatchObject({ status: "renamed", previous_filename: "old.txt" });
    expect(byName["new.txt"].previous_filename).toBeUndefined();
    expect(byName["new.txt"].html_url).toBe(`${t.baseUrl}alice/r/src/commit/${head}/new.txt`);
    expect(byName["new.txt"].contents_url).toBe(`${t.baseUrl}api/v1/repos/alice/r/contents/new.txt?ref=${head}`);
    expect(byName["new.txt"].raw_url).toBe(`${t.baseUrl}alice/r/raw/commit/${head}/new.txt`);
    const page2 = await t.json("GET", api("/pulls/1/files?limit=3&page=2"));
    expect(page2.body.length).toBe(1);
    expect(page2.headers.get("x-total-count")).toBe("4");
    expect(page2.headers.get("x-hasmore")).toBe("false");
    expect((await t.ok("GET", api("/pulls/1/files?limit=3&page=9"), undefined))).toEqual([]);
    const skipped = await t.ok("GET", api(`/pulls/1/files?skip-to=${r.body[2].filename}`), undefined);
    expect(skipped.map((f: any) => f.filename)).toEqual(r.body.slice(2).map((f: any) => f.filename));
  });

  test("commits: newest first, with files and stats, Gitea's URLs and dates with offsets", async () => {
    const r = await t.json("GET", api("/pulls/1/commits"));
    expect(r.status).toBe(200);
    expect(r.headers.get("x-total-count")).toBe("2");
    const [second, first] = r.body;
    for (const c of r.body) expectShape(c, Commit);
    expect(second.sha).toBe(await rev(aliceDir, "feature"));
    expect(first.url).toBe(`${t.baseUrl}api/v1/repos/alice/r/git/commits/${first.sha}`);
    expect(first.html_url).toBe(`${t.baseUrl}alice/r/commit/${first.sha}`);
    expect(first.created).toBe("2024-05-06T07:08:09+02:00");
    expect(first.files).toEqual([{ filename: "new.txt", status: "added" }]);
    expect(first.stats).toEqual({ total: 1, additions: 1, deletions: 0 });
    const lean = await t.ok("GET", api("/pulls/1/commits?files=false&verification=false&limit=1"), undefined);
    expect(lean.length).toBe(1);
    expect(lean[0].files).toBeNull();
    expect(lean[0].commit.verification).toBeNull();
    expect(lean[0].stats).not.toBeNull();
    expect(await t.ok("GET", api("/pulls/1/commits?page=5"), undefined)).toEqual([]);
  });

  test(".diff and .patch are text", async () => {
    const diff = await t.request("GET", api("/pulls/1.diff"));
    expect(diff.status).toBe(200);
    expect(diff.headers.get("content-type")).toContain("text/plain");
    const text = await diff.text();
    expect(text).toContain("diff --git a/base.txt b/base.txt");
    expect(text).toContain("+TWO");
    expect(text).toContain("rename from old.txt");
    const patch = await (await t.request("GET", api("/pulls/1.patch"))).text();
    expect(patch).toContain("Subject: [PATCH 1/2] add new");
    expect(patch).toContain("Subject: [PATCH 2/2] change base, rename old, delete gone");
    expect((await t.request("GET", api("/pulls/2.diff"))).status).toBe(404);
  });
});

describe("pushes, edits, state", () => {
  test("a push to the head moves refs/pull/N/head, the head sha, and records the pushed commits", async () => {
    await gitOk(["checkout", "-q", "feature"], { cwd: work });
    await commit(work, { "more.txt": "more\n" }, "more");
    await gitOk(["push", "-q", "origin", "feature"], { cwd: work });
    const pr = await settled(1);
    const head = await rev(aliceDir, "feature");
    expect(pr.head.sha).toBe(head);
    expect(await rev(aliceDir, "refs/pull/1/head")).toBe(head);
    expect(pr.mergeable).toBe(true);
    expect(pr.changed_files).toBe(5);
    const timeline = await t.ok("GET", api("/issues/1/timeline"), aliceToken);
    const pushes = timeline.filter((c: any) => c.type === "pull_push");
    expect(pushes.length).toBe(2);
    expect(JSON.parse(pushes[1].body)).toEqual({ is_force_push: false, commit_ids: [head] });
  });

  test("a force push is recorded with the old and new heads", async () => {
    const before = await rev(aliceDir, "feature");
    await gitOk(["reset", "-q", "--hard", "HEAD~1"], { cwd: work });
    await commit(work, { "other.txt": "other\n" }, "rewritten");
    await gitOk(["push", "-q", "-f", "origin", "feature"], { cwd: work });
    await settled(1);
    const after = await rev(aliceDir, "feature");
    const timeline = await t.ok("GET", api("/issues/1/timeline"), aliceToken);
    const last = timeline.filter((c: any) => c.type === "pull_push").at(-1);
    expect(JSON.parse(last.body)).toEqual({ is_force_push: true, commit_ids: [before, after] });
  });

  test("a push to the head resolving the conflict makes the request mergeable; a WIP: title makes it a draft", async () => {
    await gitOk(["checkout", "-q", "clash"], { cwd: work });
    await gitOk(["merge", "-q", "-X", "theirs", "main", "-m", "merge main"], { cwd: work });
    await gitOk(["push", "-q", "origin", "clash"], { cwd: work });
    const pr = await settled(3);
    expect(pr.head.sha).toBe(await rev(aliceDir, "clash"));
    expect(pr.mergeable).toBe(true);
    const draft = await t.ok("PATCH", api("/pulls/3"), bobToken, { title: "[wip] clash" }, 201);
    expect(draft.draft).toBe(true);
    expect(draft.mergeable).toBe(false);
    expect((await t.ok("GET", api("/issues/3"), undefined)).pull_request.draft).toBe(true);
    await t.ok("PATCH", api("/pulls/3"), bobToken, { title: "clash fixed" }, 201);
  });

  test("a push to the base rechecks its requests: a conflicting change makes them unmergeable", async () => {
    await gitOk(["checkout", "-q", "-b", "late", "main"], { cwd: work });
    await commit(work, { "late.txt": "late one\n" }, "late");
    await gitOk(["push", "-q", "origin", "late"], { cwd: work });
    const pr = await t.ok("POST", api("/pulls"), aliceToken, { head: "late", base: "main", title: "late" }, 201);
    expect(pr.mergeable).toBe(true);
    await gitOk(["checkout", "-q", "main"], { cwd: work });
    await commit(work, { "late.txt": "main's own late\n" }, "main late");
    await gitOk(["push", "-q", "origin", "main"], { cwd: work });
    const after = await settled(pr.number);
    expect(after.mergeable).toBe(false);
    expect(after.base.sha).toBe(await rev(aliceDir, "main"));
    expect(after.head.sha).toBe(pr.head.sha);
    await t.ok("PATCH", api(`/pulls/${pr.number}`), aliceToken, { state: "closed" }, 201);
  });

  test("edit: title, body, labels, milestone, deadline; others cannot edit (403)", async () => {
    const label = await t.ok("POST", api("/labels"), aliceToken, { name: "bug", color: "#ff0000" }, 201);
    const ms = await t.ok("POST", api("/milestones"), aliceToken, { title: "v1" }, 201);
    const pr = await t.ok(
      "PATCH",
      api("/pulls/1"),
      aliceToken,
      { title: "Feature!", body: "new body", labels: [label.id], milestone: ms.id, due_date: "2030-01-02T10:00:00Z" },
      201,
    );
    expect(pr.title).toBe("Feature!");
    expect(pr.body).toBe("new body");
    expect(pr.labels.map((l: any) => l.name)).toEqual(["bug"]);
    expect(pr.milestone.id).toBe(ms.id);
    expect(pr.due_date).toBe("2030-01-02T23:59:59Z");
    expect((await t.json("PATCH", api("/pulls/1"), { token: carolToken, body: { title: "x" } })).status).toBe(403);
    expect((await t.json("PATCH", api("/pulls/1"), { token: aliceToken, body: { state: "weird" } })).status).toBe(412);
    const notPoster = await t.json("PATCH", api("/pulls/3"), { token: aliceToken, body: { allow_maintainer_edit: true } });
    expect(notPoster.status).toBe(403);
    expect((await t.ok("PATCH", api("/pulls/3"), bobToken, { allow_maintainer_edit: true }, 201)).allow_maintainer_edit).toBe(true);
  });

  test("retargeting: unknown base 404, the head's own branch 422, then a real change with its event", async () => {
    expect((await t.json("PATCH", api("/pulls/3"), { token: aliceToken, body: { base: "nope" } })).status).toBe(404);
    expect((await t.json("PATCH", api("/pulls/3"), { token: aliceToken, body: { base: "clash" } })).status).toBe(422);
    const pr = await t.ok("PATCH", api("/pulls/3"), aliceToken, { base: "feature" }, 201);
    expect(pr.base.ref).toBe("feature");
    expect(pr.base.sha).toBe(await rev(aliceDir, "feature"));
    const timeline = await t.ok("GET", api("/issues/3/timeline"), aliceToken);
    expect(timeline.some((c: any) => c.type === "change_target_branch" && c.old_ref === "main" && c.new_ref === "feature")).toBe(true);
    await t.ok("PATCH", api("/pulls/3"), aliceToken, { base: "main" }, 201);
  });

  test("close and reopen; a reopen is refused while another open request has the same branches", async () => {
    const closed = await t.ok("PATCH", api("/pulls/1"), aliceToken, { state: "closed" }, 201);
    expect(closed.state).toBe("closed");
    expect(closed.closed_at).not.toBeNull();
    expect((await t.ok("GET", api("/pulls?state=closed"), undefined)).map((p: any) => p.number)).toEqual([5, 1]);
    const other = await t.ok("POST", api("/pulls"), aliceToken, { head: "feature", base: "main", title: "second try" }, 201);
    const refused = await t.json("PATCH", api("/pulls/1"), { token: aliceToken, body: { state: "open" } });
    expect(refused.status).toBe(409);
    await t.ok("PATCH", api(`/pulls/${other.number}`), aliceToken, { state: "closed" }, 201);
    const reopened = await t.ok("PATCH", api("/pulls/1"), aliceToken, { state: "open" }, 201);
    expect(reopened.state).toBe("open");
    expect(reopened.mergeable).toBe(true);
    // The newest of several requests for the same branches.
    expect((await t.ok("GET", api("/pulls/main/feature"), undefined)).number).toBe(other.number);
  });
});

describe("pull requests from a fork", () => {
  let forkPr: any;
  test("bob opens a request from his fork; the head is fetched into refs/pull/N/head", async () => {
    await t.ok("POST", api("/forks"), bobToken, {}, 202);
    const dir = await clone("bob/r", "bob", "bob-pass");
    await gitOk(["checkout", "-q", "-b", "fix", "origin/main"], { cwd: dir });
    await commit(dir, { "fix.txt": "fix\n" }, "fix");
    await gitOk(["push", "-q", "origin", "fix"], { cwd: dir });
    const r = await t.json("POST", api("/pulls"), { token: bobToken, body: { head: "bob:fix", base: "main", title: "Fix" } });
    expect(r.status).toBe(201);
    forkPr = r.body;
    const bobDir = gitDirOf(t.env, { name: "bob" }, { name: "r" });
    expect(forkPr.head).toMatchObject({ label: "fix", ref: "fix", sha: await rev(bobDir, "fix") });
    expect(forkPr.head.repo.full_name).toBe("bob/r");
    expect(forkPr.mergeable).toBe(true);
    expect(await rev(aliceDir, `refs/pull/${forkPr.number}/head`)).toBe(await rev(bobDir, "fix"));
    const files = await t.ok("GET", api(`/pulls/${forkPr.number}/files`), undefined);
    expect(files[0].raw_url).toBe(`${t.baseUrl}bob/r/raw/commit/${forkPr.head.sha}/fix.txt`);

    // A push to the fork's branch follows into the base repository.
    await commit(dir, { "fix.txt": "fix 2\n" }, "fix again");
    await gitOk(["push", "-q", "origin", "fix"], { cwd: dir });
    const after = await settled(forkPr.number);
    expect(after.head.sha).toBe(await rev(bobDir, "fix"));
    expect(await rev(aliceDir, `refs/pull/${forkPr.number}/head`)).toBe(await rev(bobDir, "fix"));
  });

  test("deleting the head branch keeps the request, its head read from refs/pull", async () => {
    const bobDir = gitDirOf(t.env, { name: "bob" }, { name: "r" });
    const sha = await rev(bobDir, "fix");
    expect((await t.json("DELETE", api("/branches/fix", "bob/r"), { token: bobToken })).status).toBe(204);
    const pr = await t.ok("GET", api(`/pulls/${forkPr.number}`), undefined);
    expect(pr.head).toMatchObject({ ref: `refs/pull/${forkPr.number}/head`, sha });
    expect(pr.state).toBe("open");
  });
});

describe("a merged request", () => {
  test("shows its merge, and its state can no longer change (412), through either endpoint", async () => {
    await gitOk(["checkout", "-q", "-b", "m", "main"], { cwd: work });
    await commit(work, { "m.txt": "m\n" }, "m");
    await gitOk(["push", "-q", "origin", "m"], { cwd: work });
    const pr = await t.ok("POST", api("/pulls"), aliceToken, { head: "m", base: "main", title: "to merge" }, 201);
    const { updatePull } = await import("../../src/models/pull.ts");
    updatePull(t.env.db, pr.id, { hasMerged: true, mergerId: alice.id, mergedUnix: 1_700_000_000, mergedCommitId: pr.head.sha });
    const merged = await t.ok("GET", api(`/pulls/${pr.number}`), undefined);
    expect(merged).toMatchObject({ merged: true, merged_at: "2023-11-14T22:13:20Z", merge_commit_sha: pr.head.sha });
    expect(merged.merged_by.login).toBe("alice");
    expect((await t.ok("GET", api(`/issues/${pr.number}`), undefined)).pull_request).toMatchObject({ merged: true, merged_at: "2023-11-14T22:13:20Z" });
    for (const path of [`/pulls/${pr.number}`, `/issues/${pr.number}`]) {
      const r = await t.json("PATCH", api(path), { token: aliceToken, body: { state: "closed" } });
      expect(r.status).toBe(412);
      expect(r.body.message).toBe("cannot change state of this pull request, it was already merged");
    }
  });
});

describe("requested reviewers", () => {
  test("are read from review rows: the latest request, approval or rejection of each reviewer, not dismissed", async () => {
    const { reviews, ReviewType } = await import("../../src/db/schema/index.ts");
    const issueId = (await t.ok("GET", api("/issues/1"), undefined)).id;
    const row = (reviewerId: number, type: number, dismissed = false) => ({
      type,
      reviewerId,
      issueId,
      dismissed,
      createdUnix: 1,
      updatedUnix: 1,
    });
    t.env.db.insert(reviews).values([row(bob.id, ReviewType.Request), row(carol.id, ReviewType.Request), row(bob.id, ReviewType.Approve)]).run();
    t.env.db.insert(reviews).values([row(carol.id, ReviewType.Approve, true)]).run();
    const pr = await t.ok("GET", api("/pulls/1"), undefined);
    expect(pr.requested_reviewers.map((u: any) => u.login).sort()).toEqual(["bob", "carol"]);
    const listed = (await t.ok("GET", api("/pulls?state=all"), undefined)).find((p: any) => p.number === 1);
    expect(listed.requested_reviewers.map((u: any) => u.login).sort()).toEqual(["bob", "carol"]);
    expect(pr.requested_reviewers_teams).toEqual([]);
  });
});

describe("pinned", () => {
  test("pinned pull requests are listed in pin order, issues left out", async () => {
    expect(await t.ok("GET", api("/pulls/pinned"), undefined)).toEqual([]);
    await t.ok("POST", api("/issues/3/pin"), aliceToken, undefined, 204);
    await t.ok("POST", api("/issues/1/pin"), aliceToken, undefined, 204);
    await t.ok("POST", api("/issues/2/pin"), aliceToken, undefined, 204);
    const pinned = await t.ok("GET", api("/pulls/pinned"), undefined);
    expect(pinned.map((p: any) => [p.number, p.pin_order])).toEqual([
      [3, 1],
      [1, 2],
    ]);
  });
});

describe("visibility", () => {
  test("a private repository's requests are 404 to outsiders", async () => {
    await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "secret", private: true, auto_init: true }, 201);
    expect((await t.json("GET", api("/pulls", "alice/secret"), { token: carolToken })).status).toBe(404);
    expect((await t.json("GET", api("/pulls/1", "alice/secret"), { token: carolToken })).status).toBe(404);
    expect((await t.json("POST", api("/pulls", "alice/secret"), { token: carolToken, body: { head: "a", base: "main", title: "x" } })).status).toBe(404);
    expect((await t.ok("GET", api("/pulls", "alice/secret"), aliceToken))).toEqual([]);
  });
});
