import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { Issue } from "../../src/shapes/issue.ts";
import { join } from "node:path";
import { gitOk } from "../support/git.ts";
import { getIssueByIndex, updateIssue } from "../../src/models/issue.ts";

const t = makeTestApp();
const alice = await t.user("alice");
const aliceToken = t.token(alice);
const bob = await t.user("bob");
const bobToken = t.token(bob);
const carol = await t.user("carol");
const carolToken = t.token(carol);

const ok = t.ok.bind(t);

await ok("POST", "/api/v1/user/repos", aliceToken, { name: "proj" }, 201);
await ok("POST", "/api/v1/user/repos", aliceToken, { name: "secret", private: true }, 201);
await ok("PUT", "/api/v1/repos/alice/proj/collaborators/carol", aliceToken, { permission: "write" }, 204);
const base = "/api/v1/repos/alice/proj/issues";

describe("create and get", () => {
  test("anyone who reads the repository opens an issue; numbers count up per repository", async () => {
    const first = await ok("POST", base, bobToken, { title: "First", body: "hello" }, 201);
    expectShape(first, Issue);
    expect(first).toMatchObject({ number: 1, title: "First", body: "hello", state: "open", comments: 0, labels: [], assignees: null });
    expect(first.user.login).toBe("bob");
    expect(first.url).toBe("http://hearth.test/api/v1/repos/alice/proj/issues/1");
    expect(first.html_url).toBe("http://hearth.test/alice/proj/issues/1");
    expect(first.repository).toEqual({ id: first.repository.id, name: "proj", owner: "alice", full_name: "alice/proj" });
    const second = await ok("POST", base, aliceToken, { title: "Second", closed: true }, 201);
    expect(second.number).toBe(2);
    expect(second.state).toBe("closed");
    expect(second.closed_at).not.toBeNull();
    const got = await ok("GET", `${base}/1`, undefined);
    expect(got.title).toBe("First");
    const repo = await ok("GET", "/api/v1/repos/alice/proj", aliceToken);
    expect(repo.open_issues_count).toBe(1);
  });

  test("bad input: no title 422, unknown issue 404, anonymous 401, private repository 404", async () => {
    const r = await t.json("POST", base, { token: bobToken, body: {} });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe("[Title]: Required");
    expect((await t.json("GET", `${base}/99`)).status).toBe(404);
    expect((await t.json("GET", `${base}/abc`)).status).toBe(404);
    expect((await t.json("POST", base, { body: { title: "x" } })).status).toBe(401);
    expect((await t.json("POST", "/api/v1/repos/alice/secret/issues", { token: bobToken, body: { title: "x" } })).status).toBe(404);
  });

  test("writers set assignees on create; a non-writer's assignees are dropped", async () => {
    const byWriter = await ok("POST", base, carolToken, { title: "Assigned", assignees: ["alice", "carol"] }, 201);
    expect(byWriter.assignees.map((u: { login: string }) => u.login)).toEqual(["alice", "carol"]);
    expect(byWriter.assignee.login).toBe("alice");
    const byReader = await ok("POST", base, bobToken, { title: "Unassigned", assignees: ["alice"] }, 201);
    expect(byReader.assignees).toBeNull();
    const bad = await t.json("POST", base, { token: carolToken, body: { title: "x", assignees: ["bob"] } });
    expect(bad.status).toBe(422);
  });
});

describe("edit", () => {
  test("the poster edits title and body and closes; Gitea answers 201", async () => {
    const r = await t.json("PATCH", `${base}/1`, { token: bobToken, body: { title: "First!", body: "changed", state: "closed" } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ title: "First!", body: "changed", state: "closed" });
    const reopened = await t.json("PATCH", `${base}/1`, { token: bobToken, body: { state: "open" } });
    expect(reopened.body.state).toBe("open");
    expect(reopened.body.closed_at).toBeNull();
  });

  test("others without write access get 403; writers set the deadline and assignees", async () => {
    const stranger = await t.json("PATCH", `${base}/2`, { token: bobToken, body: { title: "mine now" } });
    expect(stranger.status).toBe(403);
    const r = await t.json("PATCH", `${base}/1`, {
      token: carolToken,
      body: { due_date: "2030-05-06T10:00:00Z", assignees: ["carol"] },
    });
    expect(r.status).toBe(201);
    expect(r.body.due_date).toBe("2030-05-06T23:59:59Z");
    expect(r.body.assignees.map((u: { login: string }) => u.login)).toEqual(["carol"]);
    const cleared = await t.json("PATCH", `${base}/1`, { token: carolToken, body: { unset_due_date: true, assignees: [] } });
    expect(cleared.body.due_date).toBeNull();
    expect(cleared.body.assignees).toBeNull();
    const deadline = await t.json("POST", `${base}/1/deadline`, { token: carolToken, body: { due_date: "2031-01-02T00:00:00Z" } });
    expect(deadline.status).toBe(201);
    expect(deadline.body).toEqual({ due_date: "2031-01-02T23:59:59Z" });
  });
});

describe("list", () => {
  test("state, type, q, created_by, assigned_by filters and paging", async () => {
    const numbers = async (query: string, token?: string) =>
      ((await ok("GET", `${base}?${query}`, token)) as { number: number }[]).map((i) => i.number);
    expect(await numbers("")).toEqual([4, 3, 1]);
    expect(await numbers("state=closed")).toEqual([2]);
    expect(await numbers("state=all")).toEqual([4, 3, 2, 1]);
    expect(await numbers("q=assigned")).toEqual([4, 3]);
    expect(await numbers("q=unassigned")).toEqual([4]);
    expect(await numbers("created_by=bob&state=all")).toEqual([4, 1]);
    expect(await numbers("assigned_by=alice")).toEqual([3]);
    expect(await numbers("type=pulls")).toEqual([]);
    const page = await t.json("GET", `${base}?limit=1&page=2`);
    expect(page.body.map((i: { number: number }) => i.number)).toEqual([3]);
    expect(page.headers.get("x-total-count")).toBe("3");
    expect((await t.json("GET", `${base}?created_by=nobody`)).status).toBe(422);
  });
});

describe("delete", () => {
  test("repository admins delete; others 403; the numbers are not reused", async () => {
    expect((await t.json("DELETE", `${base}/4`, { token: carolToken })).status).toBe(403);
    expect((await t.json("DELETE", `${base}/4`, { token: aliceToken })).status).toBe(204);
    expect((await t.json("GET", `${base}/4`)).status).toBe(404);
    const next = await ok("POST", base, bobToken, { title: "after delete" }, 201);
    expect(next.number).toBe(5);
  });
});

describe("deleting a pull request's issue", () => {
  test("the deletion succeeds and cleans the pull request's refs, leaving other refs alone", async () => {
    await ok("POST", "/api/v1/user/repos", aliceToken, { name: "withpr", auto_init: true }, 201);
    const pr = await ok("POST", "/api/v1/repos/alice/withpr/issues", aliceToken, { title: "as a pull" }, 201);
    const other = await ok("POST", "/api/v1/repos/alice/withpr/issues", aliceToken, { title: "another pull" }, 201);
    // Pull requests arrive with issue 6; until then the row is marked as one directly.
    for (const n of [pr.number, other.number]) {
      const row = getIssueByIndex(t.env.db, pr.repository.id, n)!;
      updateIssue(t.env.db, row.id, { isPull: true });
    }
    const gitDir = join(t.settings.repository.root, "alice", "withpr.git");
    const head = (await gitOk(["--git-dir", gitDir, "rev-parse", "HEAD"])).trim();
    for (const ref of [`refs/pull/${pr.number}/head`, `refs/pull/${pr.number}/merge`, `refs/pull/${other.number}/head`]) {
      await gitOk(["--git-dir", gitDir, "update-ref", ref, head]);
    }
    expect((await t.json("DELETE", `/api/v1/repos/alice/withpr/issues/${pr.number}`, { token: aliceToken })).status).toBe(204);
    const refs = (await gitOk(["--git-dir", gitDir, "for-each-ref", "--format=%(refname)", "refs/pull/"])).trim().split("\n");
    expect(refs).toEqual([`refs/pull/${other.number}/head`]);
    expect((await t.json("GET", `/api/v1/repos/alice/withpr/issues/${pr.number}`, { token: aliceToken })).status).toBe(404);
  });
});

describe("list filters on labels, milestones and time", () => {
  test("labels (all must match), milestones (by name or id), since/before, and a bad time 422", async () => {
    await ok("POST", "/api/v1/user/repos", aliceToken, { name: "filters" }, 201);
    const api = "/api/v1/repos/alice/filters";
    const bug = await ok("POST", `${api}/labels`, aliceToken, { name: "bug", color: "#ff0000" }, 201);
    const ui = await ok("POST", `${api}/labels`, aliceToken, { name: "ui", color: "#00ff00" }, 201);
    const v1 = await ok("POST", `${api}/milestones`, aliceToken, { title: "v1" }, 201);
    await ok("POST", `${api}/issues`, aliceToken, { title: "both", labels: [bug.id, ui.id], milestone: v1.id }, 201);
    await ok("POST", `${api}/issues`, aliceToken, { title: "bug only", labels: [bug.id] }, 201);
    await ok("POST", `${api}/issues`, aliceToken, { title: "plain" }, 201);
    const titles = async (q: string) => ((await ok("GET", `${api}/issues?${q}`, aliceToken)) as { title: string }[]).map((i) => i.title);
    expect(await titles("labels=bug")).toEqual(["bug only", "both"]);
    expect(await titles("labels=bug,ui")).toEqual(["both"]);
    expect(await titles("labels=nosuch")).toEqual([]);
    expect(await titles("milestones=v1")).toEqual(["both"]);
    expect(await titles(`milestones=${v1.id}`)).toEqual(["both"]);
    expect(await titles("since=2999-01-01T00:00:00Z")).toEqual([]);
    expect(await titles("before=2000-01-01T00:00:00Z")).toEqual([]);
    expect((await titles("since=2000-01-01T00:00:00Z")).length).toBe(3);
    expect((await t.json("GET", `${api}/issues?since=yesterday`, { token: aliceToken })).status).toBe(422);
  });
});
