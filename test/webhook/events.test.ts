import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { authUrl, gitOk } from "../support/git.ts";
import { writeTx } from "../../src/db/client.ts";
import { insertWebhook, listHookTasks } from "../../src/models/webhook.ts";
import { nowUnix } from "../../src/lib/time.ts";
import { pullSyncIdle } from "../../src/services/pull/push-sync.ts";
import { refAnnouncementsIdle } from "../../src/services/repo/push-events.ts";

/**
 * Every event fires a hook task with Gitea's event type and payload: performed through the API
 * and real git pushes, read back from hook_task (delivery is the queue's business). A local
 * receiver answers the deliveries so they finish quietly.
 */
const receiver = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("ok") });
afterAll(() => receiver.stop(true));
const t = makeTestApp("[webhook]\nALLOWED_HOST_LIST = loopback\n[migrations]\nALLOW_LOCALNETWORKS = true\n", { listen: true });
const alice = await t.user("alice", { password: "alice-pass" });
const bob = await t.user("bob", { password: "bob-pass" });
const aliceToken = t.token(alice);
const bobToken = t.token(bob);
const api = (rest = "", repo = "alice/r") => `/api/v1/repos/${repo}${rest}`;

expect((await t.json("POST", "/api/v1/user/repos", { token: aliceToken, body: { name: "r", auto_init: true } })).status).toBe(201);
const repoId = (await t.ok("GET", api(), aliceToken)).id as number;

/** A hook that wants everything: of the repository, or (repoId 0) of its owner. */
function addHook(hook: { repoId?: number; ownerId?: number }): number {
  const now = nowUnix();
  return writeTx(t.env.db, (tx) =>
    insertWebhook(tx, {
      repoId: hook.repoId ?? 0,
      ownerId: hook.ownerId ?? 0,
      url: `http://127.0.0.1:${receiver.port}/hook`,
      type: "gitea",
      events: JSON.stringify({ push_only: false, send_everything: true, choose_events: false, branch_filter: "", events: {} }),
      createdUnix: now,
      updatedUnix: now,
    }),
  ).id;
}
const repoHook = addHook({ repoId });
const ownerHook = addHook({ ownerId: alice.id });

interface Task {
  event: string;
  payload: any;
}
const seen = new Map<number, number>();

/** The hook's tasks since the last look, oldest first, once the background work of pushes is done. */
async function newTasks(hookId = repoHook, wait = (ts: Task[]) => ts.length > 0, tries = 100): Promise<Task[]> {
  let out: Task[] = [];
  for (let i = 0; i < tries; i++) {
    await refAnnouncementsIdle(t.env);
    await pullSyncIdle(t.env);
    await Bun.sleep(10);
    const rows = listHookTasks(t.env.db, hookId, { offset: 0, limit: 1000 }).rows.filter((r) => r.id > (seen.get(hookId) ?? 0));
    out = rows.reverse().map((r) => ({ event: r.eventType, payload: JSON.parse(r.payloadContent) }));
    if (wait(out)) break;
  }
  const last = listHookTasks(t.env.db, hookId, { offset: 0, limit: 1 }).rows[0];
  if (last) seen.set(hookId, last.id);
  return out;
}
const waitFor = (...events: string[]) => (ts: Task[]) => events.every((e) => ts.some((x) => x.event === e));
const only = (ts: Task[], event: string) => ts.filter((x) => x.event === event);

async function clone(path: string, user: string, pass: string): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), "hearth-hook-")), "w");
  await gitOk(["clone", "-q", authUrl(t.baseUrl, `${path}.git`, user, pass), dir]);
  return dir;
}
async function commit(dir: string, files: Record<string, string>, message: string): Promise<string> {
  for (const [name, content] of Object.entries(files)) {
    await Bun.write(join(dir, name), content);
    await gitOk(["add", name], { cwd: dir });
  }
  await gitOk(["commit", "-q", "-m", message], { cwd: dir });
  return (await gitOk(["rev-parse", "HEAD"], { cwd: dir })).trim();
}
const work = await clone("alice/r", "alice", "alice-pass");
await newTasks(repoHook, () => true, 1);
await newTasks(ownerHook, () => true, 1);

describe("issue events", () => {
  test("opened, edited (title), closed and reopened through the API: `issues`, commit_id always present and empty", async () => {
    const issue = await t.ok("POST", api("/issues"), aliceToken, { title: "first", body: "text" }, 201);
    let ts = await newTasks();
    expect(ts.map((x) => [x.event, x.payload.action])).toEqual([["issues", "opened"]]);
    const opened = ts[0]!.payload;
    expect(opened.number).toBe(issue.number);
    expect(opened.issue.title).toBe("first");
    expect(opened.repository.full_name).toBe("alice/r");
    expect(opened.sender.login).toBe("alice");
    expect(opened.commit_id).toBe("");
    expect("changes" in opened).toBe(false);

    await t.ok("PATCH", api(`/issues/${issue.number}`), aliceToken, { title: "renamed", body: "new text" }, 201);
    ts = await newTasks(repoHook, (x) => x.length >= 2);
    expect(ts.map((x) => [x.event, x.payload.action])).toEqual([
      ["issues", "edited"],
      ["issues", "edited"],
    ]);
    expect(ts[0]!.payload.changes).toEqual({ title: { from: "first" } });
    expect(ts[1]!.payload.changes).toEqual({ body: { from: "text" } });
    expect(ts[0]!.payload.issue.title).toBe("renamed");

    await t.ok("PATCH", api(`/issues/${issue.number}`), aliceToken, { state: "closed" }, 201);
    ts = await newTasks();
    expect(ts.map((x) => [x.event, x.payload.action])).toEqual([["issues", "closed"]]);
    expect(ts[0]!.payload.commit_id).toBe("");
    expect(ts[0]!.payload.issue.state).toBe("closed");

    await t.ok("PATCH", api(`/issues/${issue.number}`), aliceToken, { state: "open" }, 201);
    ts = await newTasks();
    expect(ts.map((x) => [x.event, x.payload.action, x.payload.commit_id])).toEqual([["issues", "reopened", ""]]);
  });

  test("assignees, milestone and labels have their own events and actions", async () => {
    const issue = await t.ok("POST", api("/issues"), aliceToken, { title: "meta" }, 201);
    await newTasks();
    const milestone = await t.ok("POST", api("/milestones"), aliceToken, { title: "m1" }, 201);
    const label = await t.ok("POST", api("/labels"), aliceToken, { name: "bug", color: "#ff0000" }, 201);

    await t.ok("PATCH", api(`/issues/${issue.number}`), aliceToken, { assignees: ["alice"], milestone: milestone.id }, 201);
    let ts = await newTasks(repoHook, (x) => x.length >= 2);
    expect(ts.map((x) => [x.event, x.payload.action])).toEqual([
      ["issue_assign", "assigned"],
      ["issue_milestone", "milestoned"],
    ]);
    expect(ts[0]!.payload.issue.assignees.map((u: any) => u.login)).toEqual(["alice"]);
    expect(ts[1]!.payload.issue.milestone.title).toBe("m1");

    await t.ok("PATCH", api(`/issues/${issue.number}`), aliceToken, { assignees: [], milestone: 0 }, 201);
    ts = await newTasks(repoHook, (x) => x.length >= 2);
    expect(ts.map((x) => [x.event, x.payload.action])).toEqual([
      ["issue_assign", "unassigned"],
      ["issue_milestone", "demilestoned"],
    ]);

    await t.ok("POST", api(`/issues/${issue.number}/labels`), aliceToken, { labels: [label.id] });
    ts = await newTasks();
    expect(ts.map((x) => [x.event, x.payload.action])).toEqual([["issue_label", "label_updated"]]);
    expect(ts[0]!.payload.issue.labels.map((l: any) => l.name)).toEqual(["bug"]);

    await t.ok("DELETE", api(`/issues/${issue.number}/labels`), aliceToken, undefined, 204);
    ts = await newTasks();
    expect(ts.map((x) => [x.event, x.payload.action])).toEqual([["issue_label", "label_cleared"]]);
  });

  test("comments: created, edited (with the old body) and deleted", async () => {
    const issue = await t.ok("POST", api("/issues"), aliceToken, { title: "talk" }, 201);
    await newTasks();
    const c = await t.ok("POST", api(`/issues/${issue.number}/comments`), bobToken, { body: "hi" }, 201);
    let ts = await newTasks();
    expect(ts.map((x) => [x.event, x.payload.action])).toEqual([["issue_comment", "created"]]);
    expect(ts[0]!.payload.comment.body).toBe("hi");
    expect(ts[0]!.payload.comment.id).toBe(c.id);
    expect(ts[0]!.payload.is_pull).toBe(false);
    expect(ts[0]!.payload.sender.login).toBe("bob");
    expect(ts[0]!.payload.issue.number).toBe(issue.number);

    await t.ok("PATCH", api(`/issues/comments/${c.id}`), bobToken, { body: "hello" });
    ts = await newTasks();
    expect(ts.map((x) => [x.event, x.payload.action])).toEqual([["issue_comment", "edited"]]);
    expect(ts[0]!.payload.changes).toEqual({ body: { from: "hi" } });
    expect(ts[0]!.payload.comment.body).toBe("hello");

    await t.ok("DELETE", api(`/issues/comments/${c.id}`), bobToken, undefined, 204);
    ts = await newTasks();
    expect(ts.map((x) => [x.event, x.payload.action])).toEqual([["issue_comment", "deleted"]]);
  });
});

describe("pushes and refs", () => {
  test("a push to the default branch: Gitea's push payload, and `fixes #N` closes issue N as the pusher with commit_id", async () => {
    const issue = await t.ok("POST", api("/issues"), bobToken, { title: "to fix" }, 201);
    const other = await t.ok("POST", api("/issues"), aliceToken, { title: "just mentioned" }, 201);
    await newTasks(repoHook, (x) => x.length >= 2);
    const before = (await gitOk(["rev-parse", "HEAD"], { cwd: work })).trim();
    const first = await commit(work, { "a.txt": "a\n" }, `add a, see #${other.number}`);
    const sha = await commit(work, { "hello.md": "hi\n" }, `Fix things\n\nfixes #${issue.number}`);
    await gitOk(["push", "-q", "origin", "main"], { cwd: work });

    const ts = await newTasks(repoHook, waitFor("push", "issues"));
    const [push] = only(ts, "push");
    expect(push!.payload).toMatchObject({
      ref: "refs/heads/main",
      before,
      after: sha,
      compare_url: `${t.settings.server.rootUrl}alice/r/compare/${before}...${sha}`,
      total_commits: 2,
      repository: { full_name: "alice/r" },
      pusher: { login: "alice" },
      sender: { login: "alice" },
    });
    expect(push!.payload.commits.map((c: any) => c.id)).toEqual([sha, first]);
    const head = push!.payload.commits[0];
    expect(head).toMatchObject({
      id: sha,
      message: `Fix things\n\nfixes #${issue.number}\n`,
      url: `${t.settings.server.rootUrl}alice/r/commit/${sha}`,
      author: { name: "Test", email: "test@example.com", username: "" },
      added: ["hello.md"],
      removed: [],
      modified: [],
    });
    expect(head.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/);
    expect(push!.payload.head_commit.id).toBe(sha);

    const closed = only(ts, "issues");
    expect(closed.map((x) => [x.payload.action, x.payload.number, x.payload.commit_id])).toEqual([["closed", issue.number, sha]]);
    expect(closed[0]!.payload.sender.login).toBe("alice");
    expect((await t.ok("GET", api(`/issues/${issue.number}`), aliceToken)).state).toBe("closed");
    expect((await t.ok("GET", api(`/issues/${other.number}`), aliceToken)).state).toBe("open");
    const timeline = await t.ok("GET", api(`/issues/${issue.number}/timeline`), aliceToken);
    const close = timeline.find((e: any) => e.type === "close");
    expect(close?.user?.login).toBe("alice");
    expect(close?.ref_commit_sha).toBe(sha);
  });

  test("`reopens #N` on the default branch reopens; a closing keyword pushed to another branch closes nothing; create comes with the new branch", async () => {
    const issue = await t.ok("POST", api("/issues"), aliceToken, { title: "stays open", state: "open" }, 201);
    await newTasks();
    await gitOk(["checkout", "-q", "-b", "topic"], { cwd: work });
    const sha = await commit(work, { "t.txt": "t\n" }, `closes #${issue.number}`);
    await gitOk(["push", "-q", "origin", "topic"], { cwd: work });
    const ts = await newTasks(repoHook, waitFor("create", "push"));
    expect(ts.map((x) => x.event)).toEqual(["create", "push"]);
    expect(ts[0]!.payload).toMatchObject({ sha, ref: "topic", ref_type: "branch", repository: { full_name: "alice/r" }, sender: { login: "alice" } });
    expect(ts[1]!.payload.ref).toBe("refs/heads/topic");
    expect(ts[1]!.payload.before).toMatch(/^0{40}$/);
    expect(ts[1]!.payload.commits[0].id).toBe(sha);
    expect((await t.ok("GET", api(`/issues/${issue.number}`), aliceToken)).state).toBe("open");

    await t.ok("PATCH", api(`/issues/${issue.number}`), aliceToken, { state: "closed" }, 201);
    await newTasks();
    await gitOk(["checkout", "-q", "main"], { cwd: work });
    const reopen = await commit(work, { "r.txt": "r\n" }, `reopens #${issue.number}`);
    await gitOk(["push", "-q", "origin", "main"], { cwd: work });
    const again = await newTasks(repoHook, waitFor("push", "issues"));
    expect(only(again, "issues").map((x) => [x.payload.action, x.payload.commit_id])).toEqual([["reopened", reopen]]);
  });

  test("branches and tags made and deleted through the API are announced as Gitea's pushes", async () => {
    await t.ok("POST", api("/branches"), aliceToken, { new_branch_name: "api-branch" }, 201);
    let ts = await newTasks(repoHook, waitFor("create", "push"));
    expect(ts.map((x) => x.event)).toEqual(["create", "push"]);
    expect(ts[0]!.payload).toMatchObject({ ref: "api-branch", ref_type: "branch" });

    await t.ok("PATCH", api("/branches/api-branch"), aliceToken, { name: "api-renamed" }, 204);
    ts = await newTasks(repoHook, waitFor("delete", "create"));
    expect(ts.map((x) => [x.event, x.payload.ref])).toEqual([
      ["delete", "api-branch"],
      ["create", "api-renamed"],
    ]);

    await t.ok("DELETE", api("/branches/api-renamed"), aliceToken, undefined, 204);
    ts = await newTasks();
    expect(ts.map((x) => x.event)).toEqual(["delete"]);
    expect(ts[0]!.payload).toMatchObject({ ref: "api-renamed", ref_type: "branch", pusher_type: "user", sender: { login: "alice" } });

    const tag = await t.ok("POST", api("/tags"), aliceToken, { tag_name: "v1", message: "one" }, 201);
    ts = await newTasks(repoHook, waitFor("create", "push"));
    expect(ts.map((x) => x.event)).toEqual(["push", "create"]);
    expect(ts[0]!.payload).toMatchObject({ ref: "refs/tags/v1", total_commits: 0, commits: [] });
    expect(ts[0]!.payload.head_commit.id).toBe(tag.commit.sha);
    expect(ts[1]!.payload).toMatchObject({ ref: "v1", ref_type: "tag", sha: tag.id });

    await t.ok("DELETE", api("/tags/v1"), aliceToken, undefined, 204);
    ts = await newTasks(repoHook, waitFor("delete", "push"));
    expect(ts.map((x) => x.event)).toEqual(["push", "delete"]);
    expect(ts[0]!.payload).toMatchObject({ ref: "refs/tags/v1", after: "0".repeat(40), head_commit: null });
    expect(ts[1]!.payload).toMatchObject({ ref: "v1", ref_type: "tag" });
  });
});

describe("releases, statuses, repositories, forks", () => {
  test("a published release (its new tag pushed too), an edit, a deletion", async () => {
    const rel = await t.ok("POST", api("/releases"), aliceToken, { tag_name: "v2", name: "two" }, 201);
    let ts = await newTasks(repoHook, waitFor("release", "create", "push"));
    expect(only(ts, "release").map((x) => x.payload.action)).toEqual(["published"]);
    expect(only(ts, "release")[0]!.payload).toMatchObject({ release: { id: rel.id, tag_name: "v2", name: "two" }, sender: { login: "alice" } });
    expect(only(ts, "create")[0]!.payload).toMatchObject({ ref: "v2", ref_type: "tag" });

    await t.ok("PATCH", api(`/releases/${rel.id}`), aliceToken, { name: "zwei" });
    ts = await newTasks();
    expect(ts.map((x) => [x.event, x.payload.action, x.payload.release.name])).toEqual([["release", "updated", "zwei"]]);

    await t.ok("DELETE", api(`/releases/${rel.id}`), aliceToken, undefined, 204);
    ts = await newTasks();
    expect(ts.map((x) => [x.event, x.payload.action])).toEqual([["release", "deleted"]]);

    await t.ok("POST", api("/releases"), aliceToken, { tag_name: "v3", draft: true }, 201);
    ts = await newTasks(repoHook, () => false, 15);
    expect(ts).toEqual([]);
  });

  test("a commit status: the `status` event with the commit", async () => {
    const sha = (await gitOk(["rev-parse", "HEAD"], { cwd: work })).trim();
    const st = await t.ok("POST", api(`/statuses/${sha}`), aliceToken, { state: "success", context: "ci", target_url: "https://ci.example/1" }, 201);
    const ts = await newTasks();
    expect(ts.map((x) => x.event)).toEqual(["status"]);
    expect(ts[0]!.payload).toMatchObject({ sha, state: "success", context: "ci", target_url: "https://ci.example/1", sender: { login: "alice" } });
    expect(ts[0]!.payload.commit.id).toBe(sha);
    expect(ts[0]!.payload.created_at).toMatch(/Z$/);
    expect(typeof st.id).toBe("number");
  });

  test("repository created and deleted go to the owner's hooks; a fork to the forked repository's", async () => {
    await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "x" }, 201);
    let ts = await newTasks(ownerHook, waitFor("repository"));
    expect(only(ts, "repository").map((x) => [x.payload.action, x.payload.repository.full_name, x.payload.organization.login])).toEqual([
      ["created", "alice/x", "alice"],
    ]);
    await t.ok("DELETE", api("", "alice/x"), aliceToken, undefined, 204);
    ts = await newTasks(ownerHook, waitFor("repository"));
    expect(only(ts, "repository").map((x) => [x.payload.action, x.payload.repository.full_name])).toEqual([["deleted", "alice/x"]]);

    // A migrated repository is announced once, filled (Gitea's MigrateRepository notice), not when its empty shell is made.
    await t.ok("POST", "/api/v1/repos/migrate", aliceToken, { clone_addr: `${t.baseUrl}alice/r.git`, repo_name: "copied" }, 201);
    ts = await newTasks(ownerHook, waitFor("repository"));
    expect(only(ts, "repository").map((x) => [x.payload.action, x.payload.repository.full_name, x.payload.repository.empty])).toEqual([
      ["created", "alice/copied", false],
    ]);

    await t.ok("POST", api("/forks"), bobToken, {}, 202);
    ts = await newTasks(repoHook, waitFor("fork"));
    expect(only(ts, "fork").map((x) => [x.payload.forkee.full_name, x.payload.repository.full_name, x.payload.sender.login])).toEqual([
      ["alice/r", "bob/r", "bob"],
    ]);
  });
});

describe("pull requests", () => {
  test("opened, commented, synchronized, merged (closed with merged=true); an issue it fixes carries the merge commit", async () => {
    const target = await t.ok("POST", api("/issues"), aliceToken, { title: "fixed by the pull" }, 201);
    await gitOk(["checkout", "-q", "-b", "feature", "main"], { cwd: work });
    await commit(work, { "f.txt": "f\n" }, "feature work");
    await gitOk(["push", "-q", "origin", "feature"], { cwd: work });
    await newTasks(repoHook, waitFor("push"));

    const pr = await t.ok("POST", api("/pulls"), aliceToken, { head: "feature", base: "main", title: "Feature", body: `fixes #${target.number}` }, 201);
    let ts = await newTasks();
    expect(ts.map((x) => [x.event, x.payload.action])).toEqual([["pull_request", "opened"]]);
    expect(ts[0]!.payload).toMatchObject({ number: pr.number, pull_request: { number: pr.number, title: "Feature", merged: false }, commit_id: "", review: null });

    await t.ok("POST", api(`/issues/${pr.number}/comments`), bobToken, { body: "looks good" }, 201);
    ts = await newTasks();
    expect(ts.map((x) => [x.event, x.payload.action, x.payload.is_pull])).toEqual([["pull_request_comment", "created", true]]);
    expect(ts[0]!.payload.pull_request.number).toBe(pr.number);

    await commit(work, { "g.txt": "g\n" }, "more work");
    await gitOk(["push", "-q", "origin", "feature"], { cwd: work });
    ts = await newTasks(repoHook, waitFor("push", "pull_request_sync"));
    expect(only(ts, "pull_request_sync").map((x) => [x.payload.action, x.payload.number])).toEqual([["synchronized", pr.number]]);

    await t.ok("POST", api(`/pulls/${pr.number}/reviews`), bobToken, { event: "COMMENT", body: "one remark" });
    ts = await newTasks();
    expect(ts.map((x) => [x.event, x.payload.action])).toEqual([["pull_request_review_comment", "reviewed"]]);
    expect(ts[0]!.payload.review).toEqual({ type: "pull_request_review_comment", content: "one remark" });
    expect(ts[0]!.payload.sender.login).toBe("bob");
    expect(ts[0]!.payload.requested_reviewer.login).toBe("bob");

    await t.ok("POST", api(`/pulls/${pr.number}/merge`), aliceToken, { Do: "merge" });
    ts = await newTasks(repoHook, waitFor("pull_request", "issues", "push"));
    const closed = only(ts, "pull_request");
    expect(closed.map((x) => [x.payload.action, x.payload.pull_request.merged])).toEqual([["closed", true]]);
    const mergeSha = closed[0]!.payload.pull_request.merge_commit_sha;
    expect(mergeSha).toMatch(/^[0-9a-f]{40}$/);
    expect(only(ts, "issues").map((x) => [x.payload.action, x.payload.number, x.payload.commit_id])).toEqual([["closed", target.number, mergeSha]]);
  });
});
