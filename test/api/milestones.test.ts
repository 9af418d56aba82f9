import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { Milestone } from "../../src/shapes/label.ts";
import { milestones, repositories } from "../../src/db/schema/index.ts";

const t = makeTestApp();
const alice = await t.user("alice");
const aliceToken = t.token(alice);
const bob = await t.user("bob");
const bobToken = t.token(bob);
const carol = await t.user("carol");
const carolToken = t.token(carol);

const ok = t.ok.bind(t);

await ok("POST", "/api/v1/user/repos", aliceToken, { name: "proj" }, 201);
await ok("POST", "/api/v1/user/repos", aliceToken, { name: "other" }, 201);
await ok("POST", "/api/v1/user/repos", aliceToken, { name: "secret", private: true }, 201);
await ok("PUT", "/api/v1/repos/alice/proj/collaborators/carol", aliceToken, { permission: "write" }, 204);
const repoApi = "/api/v1/repos/alice/proj";
const base = `${repoApi}/milestones`;

type M = { id: number; title: string; state: string; open_issues: number; closed_issues: number; closed_at: string | null };
const titles = (list: M[]) => list.map((m) => m.title);
const row = (id: number) => t.env.db.select().from(milestones).where(eq(milestones.id, id)).get()!;
const repoRow = (name: string) => t.env.db.select().from(repositories).where(eq(repositories.name, name)).get()!;

async function milestone(title: string, extra: Record<string, unknown> = {}, path = base): Promise<M> {
  return ok("POST", path, aliceToken, { title, ...extra }, 201);
}

describe("create and get", () => {
  test("create: 201 with Gitea's Milestone JSON; open, no due date, closed_at null, updated_at set", async () => {
    const r = await t.json("POST", base, { token: aliceToken, body: { title: "  v1.0 ", description: "first" } });
    expect(r.status).toBe(201);
    expectShape(r.body, Milestone);
    expect(r.body).toMatchObject({
      title: "v1.0",
      description: "first",
      state: "open",
      open_issues: 0,
      closed_issues: 0,
      closed_at: null,
      due_on: null,
    });
    expect(r.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/);
    expect(r.body.updated_at).toBe(r.body.created_at);
    expect(repoRow("proj").numMilestones).toBe(1);
  });

  test("a due date is kept as given; state closed creates it closed with closed_at", async () => {
    const due = await milestone("dated", { due_on: "2030-01-02T03:04:05Z" });
    expect((due as unknown as { due_on: string }).due_on).toBe("2030-01-02T03:04:05Z");
    const closed = await milestone("done already", { state: "closed" });
    expect(closed.state).toBe("closed");
    expect(closed.closed_at).not.toBeNull();
    expect(row(closed.id).closedDateUnix).toBeGreaterThan(0);
    expect(repoRow("proj")).toMatchObject({ numMilestones: 3, numClosedMilestones: 1 });
    const bad = await t.json("POST", base, { token: aliceToken, body: { title: "x", due_on: "tomorrow" } });
    expect(bad.status).toBe(422);
  });

  test("Gitea requires no title: an empty one is created as given", async () => {
    const r = await t.json("POST", "/api/v1/repos/alice/other/milestones", { token: aliceToken, body: {} });
    expect(r.status).toBe(201);
    expect(r.body.title).toBe("");
  });

  test("who may: writers create; readers 403, anonymous 401; a private repository is 404 to outsiders", async () => {
    const denied = await t.json("POST", base, { token: bobToken, body: { title: "nope" } });
    expect({ status: denied.status, message: denied.body.message }).toEqual({
      status: 403,
      message: "user should have a permission to write to a repo",
    });
    expect((await t.json("POST", base, { body: { title: "nope" } })).status).toBe(401);
    expect((await t.json("POST", base, { token: carolToken, body: { title: "by carol" } })).status).toBe(201);
    expect((await t.json("GET", "/api/v1/repos/alice/secret/milestones", { token: bobToken })).status).toBe(404);
    expect((await t.json("GET", "/api/v1/repos/alice/secret/milestones", { token: aliceToken })).status).toBe(200);
  });

  test("get by id, by title, or a title that looks like a number; another repository's id is 404", async () => {
    const m = await milestone("get me");
    expect((await ok("GET", `${base}/${m.id}`, undefined)).title).toBe("get me");
    expect((await ok("GET", `${base}/${encodeURIComponent("get me")}`, undefined)).id).toBe(m.id);
    // Go's ParseInt base 0: hex and octal forms name the id too.
    expect((await ok("GET", `${base}/0x${m.id.toString(16)}`, undefined)).id).toBe(m.id);
    expect((await ok("GET", `${base}/0o${m.id.toString(8)}`, undefined)).id).toBe(m.id);
    const numeric = await milestone("2030");
    expect((await ok("GET", `${base}/2030`, undefined)).id).toBe(numeric.id);
    const foreign = await milestone("foreign", {}, "/api/v1/repos/alice/other/milestones");
    expect((await t.json("GET", `${base}/${foreign.id}`)).status).toBe(404);
    expect((await t.json("PATCH", `${base}/${foreign.id}`, { token: aliceToken, body: { title: "stolen" } })).status).toBe(404);
    expect((await t.json("DELETE", `${base}/${foreign.id}`, { token: aliceToken })).status).toBe(404);
    expect(row(foreign.id).name).toBe("foreign");
    expect((await t.json("GET", `${base}/nosuch`)).status).toBe(404);
    expect((await t.json("GET", `${base}/0`)).status).toBe(404);
  });
});

describe("list", () => {
  test("state open, closed or (by default and for anything else) all; name filters ignoring case; due date first", async () => {
    const all = await t.json("GET", base);
    expect(all.status).toBe(200);
    for (const m of all.body) expectShape(m, Milestone);
    expect(all.headers.get("x-total-count")).toBe(String(all.body.length));
    // The dated one first, then by title; those without a due date come last.
    expect(titles(all.body)).toEqual(["dated", "2030", "by carol", "done already", "get me", "v1.0"]);
    expect(titles((await t.json("GET", `${base}?state=closed`)).body)).toEqual(["done already"]);
    expect(titles((await t.json("GET", `${base}?state=open`)).body)).not.toContain("done already");
    expect((await t.json("GET", `${base}?state=all`)).body.length).toBe(6);
    expect((await t.json("GET", `${base}?state=bogus`)).body.length).toBe(6);
    expect(titles((await t.json("GET", `${base}?name=GET`)).body)).toEqual(["get me"]);
    expect(titles((await t.json("GET", `${base}?name=e&state=closed`)).body)).toEqual(["done already"]);
    const page = await t.json("GET", `${base}?limit=2&page=2`);
    expect(titles(page.body)).toEqual(["by carol", "done already"]);
    expect(page.headers.get("x-total-count")).toBe("6");
  });
});

describe("edit", () => {
  test("only given fields change; an empty title keeps the old one; closing records closed_at, reopening hides it", async () => {
    const m = await milestone("editable");
    const r = await t.json("PATCH", `${base}/${m.id}`, {
      token: carolToken,
      body: { title: "", description: "new", due_on: "2031-05-06T07:08:09Z" },
    });
    expect(r.status).toBe(200);
    expectShape(r.body, Milestone);
    expect(r.body).toMatchObject({ title: "editable", description: "new", due_on: "2031-05-06T07:08:09Z", state: "open" });
    const closed = await ok("PATCH", `${base}/${m.id}`, carolToken, { state: "closed" });
    expect(closed.state).toBe("closed");
    expect(closed.closed_at).not.toBeNull();
    expect(repoRow("proj").numClosedMilestones).toBe(2);
    const reopened = await ok("PATCH", `${base}/${m.id}`, carolToken, { state: "anything but closed" });
    expect(reopened).toMatchObject({ state: "open", closed_at: null });
    expect(row(m.id).closedDateUnix).toBeGreaterThan(0);
    // Closing again records the new time: closed_at is the last change to closed.
    t.env.db.update(milestones).set({ closedDateUnix: 1000 }).where(eq(milestones.id, m.id)).run();
    const again = await ok("PATCH", `${base}/editable`, carolToken, { state: "closed", title: "renamed" });
    expect(again).toMatchObject({ title: "renamed", state: "closed" });
    expect(row(m.id).closedDateUnix).toBeGreaterThan(1000);
    // Staying closed does not move it.
    t.env.db.update(milestones).set({ closedDateUnix: 2000 }).where(eq(milestones.id, m.id)).run();
    await ok("PATCH", `${base}/${m.id}`, carolToken, { state: "closed" });
    expect(row(m.id).closedDateUnix).toBe(2000);
  });

  test("bad input and access: unknown 404, readers 403, anonymous 401, a bad due date 422", async () => {
    expect((await t.json("PATCH", `${base}/99999`, { token: aliceToken, body: { title: "x" } })).status).toBe(404);
    const m = await milestone("guarded");
    expect((await t.json("PATCH", `${base}/${m.id}`, { token: bobToken, body: { title: "x" } })).status).toBe(403);
    expect((await t.json("PATCH", `${base}/${m.id}`, { body: { title: "x" } })).status).toBe(401);
    expect((await t.json("PATCH", `${base}/${m.id}`, { token: aliceToken, body: { due_on: "soon" } })).status).toBe(422);
    expect(row(m.id).name).toBe("guarded");
  });
});

describe("issue counts", () => {
  test("open and closed issues are counted as issues join, close, reopen, move and go", async () => {
    const a = await milestone("count a");
    const b = await milestone("count b");
    const counts = async (id: number) => {
      const m = await ok("GET", `${base}/${id}`, undefined);
      return [m.open_issues, m.closed_issues];
    };
    t.env.db.update(milestones).set({ updatedUnix: 1000 }).where(eq(milestones.id, a.id)).run();
    const one = (await ok("POST", `${repoApi}/issues`, aliceToken, { title: "one", milestone: a.id }, 201)).number;
    // Recounting moves the milestone's updated time, as Gitea's UpdateMilestoneCounters does.
    expect(row(a.id).updatedUnix).toBeGreaterThan(1000);
    const two = (await ok("POST", `${repoApi}/issues`, aliceToken, { title: "two", milestone: a.id, closed: true }, 201)).number;
    expect(await counts(a.id)).toEqual([1, 1]);
    await ok("PATCH", `${repoApi}/issues/${one}`, aliceToken, { state: "closed" }, 201);
    expect(await counts(a.id)).toEqual([0, 2]);
    await ok("PATCH", `${repoApi}/issues/${two}`, aliceToken, { state: "open" }, 201);
    expect(await counts(a.id)).toEqual([1, 1]);
    await ok("PATCH", `${repoApi}/issues/${two}`, aliceToken, { milestone: b.id }, 201);
    expect(await counts(a.id)).toEqual([0, 1]);
    expect(await counts(b.id)).toEqual([1, 0]);
    await ok("DELETE", `${repoApi}/issues/${one}`, aliceToken, undefined, 204);
    expect(await counts(a.id)).toEqual([0, 0]);
    const issue = await ok("GET", `${repoApi}/issues/${two}`, undefined);
    expect(issue.milestone).toMatchObject({ id: b.id, title: "count b", open_issues: 1 });
  });
});

describe("delete", () => {
  test("deleting takes the milestone off its issues; the second time is a 404; readers 403", async () => {
    const m = await milestone("doomed");
    const n = (await ok("POST", `${repoApi}/issues`, aliceToken, { title: "in doomed", milestone: m.id }, 201)).number;
    expect((await t.json("DELETE", `${base}/${m.id}`, { token: bobToken })).status).toBe(403);
    const before = repoRow("proj").numMilestones;
    expect((await t.json("DELETE", `${base}/doomed`, { token: carolToken })).status).toBe(204);
    expect(repoRow("proj").numMilestones).toBe(before - 1);
    expect((await ok("GET", `${repoApi}/issues/${n}`, undefined)).milestone).toBeNull();
    expect((await t.json("GET", `${base}/${m.id}`)).status).toBe(404);
    expect((await t.json("DELETE", `${base}/${m.id}`, { token: carolToken })).status).toBe(404);
  });
});
