import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { NotificationCount, NotificationThread } from "../../src/shapes/notification.ts";
import { comments, issues, issueWatches, notifications } from "../../src/db/schema/index.ts";
import { getIssueByIndex } from "../../src/models/issue.ts";
import { getRepoByOwner } from "../../src/models/repo.ts";
import { getUserByName } from "../../src/models/user.ts";
import { issueChanged } from "../../src/services/issue/hooks.ts";
import { writeTx } from "../../src/db/client.ts";
import { eventsIdle } from "../../src/services/events/bus.ts";

const t = makeTestApp();
const alice = await t.user("alice");
const bob = await t.user("bob");
const carol = await t.user("carol");
const dave = await t.user("dave");
const eve = await t.user("eve");
const root = await t.user("root", { admin: true });
const tok = {
  alice: t.token(alice),
  bob: t.token(bob),
  carol: t.token(carol),
  dave: t.token(dave),
  eve: t.token(eve),
  root: t.token(root),
};
type Who = keyof typeof tok;

/**
 * Notifications are written by a subscriber of the event bus, after the change committed: each
 * request here waits for the events recorded before it (and by it) to be handed on, as a reader
 * a moment later would find them.
 */
const settled = () => eventsIdle(t.env);
const ok: typeof t.ok = async (...args) => {
  await settled();
  const body = await t.ok(...args);
  await settled();
  return body;
};
const json: typeof t.json = async (...args) => {
  await settled();
  const r = await t.json(...args);
  await settled();
  return r;
};

/** Every thread of a user (read ones too), newest first. */
async function threads(who: Who, query = "all=true"): Promise<any[]> {
  return ok("GET", `/api/v1/notifications?${query}&limit=50`, tok[who]);
}

/** The user's thread for issue `number` of alice/`repo`, if any. */
async function threadOf(who: Who, repo: string, number: number) {
  const list = await threads(who);
  return list.find((n) => n.repository.full_name === `alice/${repo}` && n.subject.url.endsWith(`/issues/${number}`));
}

function issueRow(repo: string, index: number) {
  const r = getRepoByOwner(t.env.db, alice.id, repo)!;
  return { repo: r, issue: getIssueByIndex(t.env.db, r.id, index)! };
}

/** Marks an issue's threads read in the database, so a later event shows as a change. */
function markAllRead() {
  t.env.db.update(notifications).set({ status: 2 }).run();
}

/** A comment row as the comment service will write it, announced through the issue hook. */
function comment(repo: string, index: number, who: typeof alice, content: string) {
  const { repo: r, issue } = issueRow(repo, index);
  const row = t.env.db
    .insert(comments)
    .values({ issueId: issue.id, posterId: who.id, type: 0, content, createdUnix: Math.floor(Date.now() / 1000), updatedUnix: 0 })
    .returning()
    .get();
  writeTx(t.env.db, (tx) => issueChanged(tx, t.env, { kind: "commented", issue, comment: row, repo: r, doer: getUserByName(t.env.db, who.name)! }));
  return row;
}

function watchIssue(who: typeof alice, repo: string, index: number, watching: boolean) {
  const { issue } = issueRow(repo, index);
  t.env.db.insert(issueWatches).values({ userId: who.id, issueId: issue.id, isWatching: watching, createdUnix: 0, updatedUnix: 0 }).run();
}

// alice owns (and, as the creator, watches) proj; carol writes to it; dave watches it.
await ok("POST", "/api/v1/user/repos", tok.alice, { name: "proj" }, 201);
await ok("POST", "/api/v1/user/repos", tok.alice, { name: "secret", private: true }, 201);
await ok("PUT", "/api/v1/repos/alice/proj/collaborators/carol", tok.alice, { permission: "write" }, 204);
await ok("PUT", "/api/v1/repos/alice/proj/subscription", tok.dave, undefined, 200);
const proj = "/api/v1/repos/alice/proj";

describe("who is notified", () => {
  test("a new issue: the repository's watchers, never the doer, nobody else", async () => {
    await ok("POST", `${proj}/issues`, tok.bob, { title: "First", body: "hello" }, 201);
    expect(await threadOf("alice", "proj", 1)).toMatchObject({ unread: true, pinned: false });
    expect(await threadOf("dave", "proj", 1)).toBeDefined();
    expect(await threadOf("bob", "proj", 1)).toBeUndefined();
    expect(await threadOf("carol", "proj", 1)).toBeUndefined();
    // The repository's owner opening an issue is not told about it, though she watches.
    await ok("POST", `${proj}/issues`, tok.alice, { title: "Second" }, 201);
    expect(await threadOf("alice", "proj", 2)).toBeUndefined();
    expect(await threadOf("dave", "proj", 2)).toBeDefined();
  });

  test("mentions in the body reach readers of the issue only, not in code, never the doer", async () => {
    await ok("POST", `${proj}/issues`, tok.bob, { title: "Ping", body: "@carol have a look, not `@eve` nor @bob" }, 201);
    expect(await threadOf("carol", "proj", 3)).toBeDefined();
    expect(await threadOf("eve", "proj", 3)).toBeUndefined();
    expect(await threadOf("bob", "proj", 3)).toBeUndefined();
    // The mention is recorded on the issue (the issue list's mentioned_by filter).
    const mentioned = await ok("GET", `${proj}/issues?mentioned_by=carol`, tok.alice);
    expect(mentioned.map((i: { number: number }) => i.number)).toEqual([3]);
    // In a private repository a mentioned user who cannot read it hears nothing.
    await ok("POST", "/api/v1/repos/alice/secret/issues", tok.alice, { title: "Hush", body: "cc @eve @carol" }, 201);
    expect(await threadOf("eve", "secret", 1)).toBeUndefined();
    expect(await threadOf("carol", "secret", 1)).toBeUndefined();
  });

  test("closing notifies watchers and participants; title or body edits notify nobody", async () => {
    markAllRead();
    await ok("PATCH", `${proj}/issues/2`, tok.alice, { title: "Second!", body: "more" }, 201);
    expect((await threadOf("dave", "proj", 2)).unread).toBe(false);
    await ok("PATCH", `${proj}/issues/1`, tok.alice, { state: "closed" }, 201);
    const bobs = await threadOf("bob", "proj", 1); // the poster is a participant
    expect(bobs).toMatchObject({ unread: true, subject: { state: "closed", title: "First" } });
    expect((await threadOf("dave", "proj", 1)).unread).toBe(true);
    expect((await threadOf("alice", "proj", 1)).unread).toBe(false); // she closed it
    expect(await threadOf("carol", "proj", 1)).toBeUndefined();
  });

  test("explicit unsubscribers are left out, explicit subscribers are in", async () => {
    markAllRead();
    watchIssue(dave, "proj", 1, false);
    watchIssue(eve, "proj", 1, true);
    await ok("PATCH", `${proj}/issues/1`, tok.alice, { state: "open" }, 201);
    expect((await threadOf("dave", "proj", 1)).unread).toBe(false);
    expect(await threadOf("eve", "proj", 1)).toMatchObject({ unread: true, subject: { state: "open" } });
  });

  test("an assignee hears of the assignment, even unsubscribed; assigning oneself notifies nobody", async () => {
    watchIssue(carol, "proj", 2, false);
    await ok("PATCH", `${proj}/issues/2`, tok.alice, { assignees: ["carol"] }, 201);
    expect(await threadOf("carol", "proj", 2)).toMatchObject({ unread: true });
    markAllRead();
    await ok("PATCH", `${proj}/issues/2`, tok.carol, { assignees: ["carol", "alice"] }, 201);
    expect((await threadOf("carol", "proj", 2)).unread).toBe(false);
    expect((await threadOf("alice", "proj", 2)).unread).toBe(true);
    // Assigned on creation: told at once, though not watching.
    await ok("POST", `${proj}/issues`, tok.alice, { title: "Yours", assignees: ["carol"] }, 201);
    expect(await threadOf("carol", "proj", 4)).toBeDefined();
  });

  test("a comment notifies watchers and participants, its mentions too, and makes its poster a participant", async () => {
    markAllRead();
    const c = comment("proj", 2, eve, "I can reproduce, @carol");
    const alices = await threadOf("alice", "proj", 2);
    expect(alices).toMatchObject({ unread: true });
    expect(alices.subject.latest_comment_url).toBe(`http://hearth.test/api/v1/repos/alice/proj/issues/comments/${c.id}`);
    expect(alices.subject.latest_comment_html_url).toBe(`http://hearth.test/alice/proj/issues/2#issuecomment-${c.id}`);
    expect((await threadOf("carol", "proj", 2)).unread).toBe(true); // mentioned, though unsubscribed
    expect(await threadOf("eve", "proj", 2)).toBeUndefined(); // her own comment
    markAllRead();
    await ok("PATCH", `${proj}/issues/2`, tok.alice, { state: "closed" }, 201);
    expect((await threadOf("eve", "proj", 2)).unread).toBe(true); // now a participant
    expect((await threadOf("carol", "proj", 2)).unread).toBe(false); // still unsubscribed
  });

  test("a pinned thread stays pinned when something new happens; a read one turns unread and moves up", async () => {
    const first = await threadOf("dave", "proj", 4);
    await ok("PATCH", `/api/v1/notifications/threads/${first.id}?to-status=pinned`, tok.dave, undefined, 205);
    await ok("PATCH", `${proj}/issues/4`, tok.alice, { state: "closed" }, 201);
    expect(await threadOf("dave", "proj", 4)).toMatchObject({ unread: false, pinned: true });
    await ok("PATCH", `/api/v1/notifications/threads/${first.id}?to-status=read`, tok.dave, undefined, 205);
    t.env.db.update(notifications).set({ updatedUnix: 1000 }).where(eq(notifications.id, first.id)).run();
    expect((await threads("dave")).at(-1).id).toBe(first.id);
    await ok("PATCH", `${proj}/issues/4`, tok.alice, { state: "open" }, 201);
    const list = await threads("dave");
    expect(list[0]).toMatchObject({ id: first.id, unread: true, pinned: false });
    expect(Date.parse(list[0].updated_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(list.filter((n) => n.id === first.id)).toHaveLength(1); // one thread per issue
  });

  test("a deleted issue takes its threads with it", async () => {
    await ok("POST", `${proj}/issues`, tok.bob, { title: "Doomed" }, 201);
    expect(await threadOf("dave", "proj", 5)).toBeDefined();
    const { issue } = issueRow("proj", 5);
    const threadsOfIssue = () => t.env.db.select().from(notifications).where(eq(notifications.issueId, issue.id)).all();
    expect(threadsOfIssue().length).toBeGreaterThan(0);
    await ok("DELETE", `${proj}/issues/5`, tok.alice, undefined, 204);
    expect(threadsOfIssue()).toEqual([]);
  });
});

describe("the thread JSON", () => {
  test("Gitea's NotificationThread, with the repository but without permissions", async () => {
    const n = await threadOf("dave", "proj", 1);
    expectShape(n, NotificationThread);
    expect(n.url).toBe(`http://hearth.test/api/v1/notifications/threads/${n.id}`);
    expect(n.subject).toEqual({
      title: "First",
      url: "http://hearth.test/api/v1/repos/alice/proj/issues/1",
      html_url: "http://hearth.test/alice/proj/issues/1",
      latest_comment_url: "",
      latest_comment_html_url: "",
      type: "Issue",
      state: "open",
    });
    expect(n.repository.full_name).toBe("alice/proj");
    expect(n.repository.html_url).toBe("http://hearth.test/alice/proj");
    expect("permissions" in n.repository).toBe(false);
    expect(n.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/);
    const one = await ok("GET", `/api/v1/notifications/threads/${n.id}`, tok.dave);
    expect(one).toEqual(n);
  });
});

describe("listing and filters", () => {
  // A repository of its own, with thread times set by hand.
  const ids: number[] = [];
  test("setup", async () => {
    await ok("POST", "/api/v1/user/repos", tok.alice, { name: "lists" }, 201);
    await ok("PUT", "/api/v1/repos/alice/lists/collaborators/bob", tok.alice, { permission: "read" }, 204);
    await ok("PUT", "/api/v1/repos/alice/lists/subscription", tok.bob, undefined, 200);
    for (const title of ["one", "two", "three", "four"]) await ok("POST", "/api/v1/repos/alice/lists/issues", tok.alice, { title }, 201);
    const { repo } = issueRow("lists", 1);
    const rows = t.env.db.select().from(notifications).where(and(eq(notifications.userId, bob.id), eq(notifications.repoId, repo.id))).all();
    expect(rows).toHaveLength(4);
    // one: read at 1000, two: pinned at 2000, three: unread at 3000, four: unread at 4000
    for (const [i, row] of rows.sort((a, b) => a.issueId - b.issueId).entries()) {
      t.env.db.update(notifications).set({ status: [2, 3, 1, 1][i]!, updatedUnix: (i + 1) * 1000 }).where(eq(notifications.id, row.id)).run();
      ids.push(row.id);
    }
  });
  const repoList = (q: string) => json("GET", `/api/v1/repos/alice/lists/notifications?${q}`, { token: tok.bob });
  const idsOf = (body: { id: number }[]) => body.map((n) => n.id);
  const id = (i: number) => ids[i]!;

  test("by default unread and pinned, newest first; all=true adds the read ones", async () => {
    expect(idsOf((await repoList("")).body)).toEqual([id(3), id(2), id(1)]);
    expect(idsOf((await repoList("all=true")).body)).toEqual([id(3), id(2), id(1), id(0)]);
    expect(idsOf((await repoList("all=1")).body)).toHaveLength(4);
  });

  test("status-types repeats; unknown ones are dropped, and none left means no filter (as Gitea)", async () => {
    expect(idsOf((await repoList("status-types=read")).body)).toEqual([id(0)]);
    expect(idsOf((await repoList("status-types=read&status-types=PINNED")).body)).toEqual([id(1), id(0)]);
    expect(idsOf((await repoList("status-types=bogus")).body)).toHaveLength(4);
  });

  test("since and before bound updated_at inclusively; a bad time is 422", async () => {
    const iso = (s: number) => new Date(s * 1000).toISOString().replace(".000", "");
    expect(idsOf((await repoList(`all=true&since=${iso(2000)}`)).body)).toEqual([id(3), id(2), id(1)]);
    expect(idsOf((await repoList(`all=true&before=${iso(2000)}`)).body)).toEqual([id(1), id(0)]);
    expect(idsOf((await repoList(`all=true&since=${iso(2000)}&before=${iso(3000)}`)).body)).toEqual([id(2), id(1)]);
    const bad = await repoList("since=yesterday");
    expect(bad.status).toBe(422);
    expect(bad.body.message).toContain('parsing time "yesterday"');
  });

  test("subject-type filters by kind", async () => {
    expect(idsOf((await repoList("all=true&subject-type=issue")).body)).toHaveLength(4);
    expect((await repoList("all=true&subject-type=pull")).body).toEqual([]);
    expect((await repoList("all=true&subject-type=pull&subject-type=Issue")).body).toHaveLength(4);
  });

  test("page and limit, with X-Total-Count and no Link header (as Gitea)", async () => {
    const r = await repoList("all=true&limit=3&page=2");
    expect(idsOf(r.body)).toEqual([id(0)]);
    expect(r.headers.get("x-total-count")).toBe("4");
    expect(r.headers.get("link")).toBeNull();
  });

  test("the repository list holds only that repository; /notifications holds them all", async () => {
    const everything = await threads("bob", "all=true&limit=50");
    expect(everything.length).toBeGreaterThan(4);
    expect(new Set(everything.map((n) => n.repository.full_name))).toEqual(new Set(["alice/proj", "alice/lists"]));
  });

  test("/notifications/new counts the unread threads", async () => {
    const r = await ok("GET", "/api/v1/notifications/new", tok.bob);
    expectShape(r, NotificationCount);
    const unread = (await threads("bob", "status-types=unread")).length;
    expect(unread).toBeGreaterThan(0);
    expect(r.new).toBe(unread);
  });
});

describe("marking threads", () => {
  const path = "/api/v1/repos/alice/lists/notifications";

  test("PUT moves matching threads (default: unread → read) and answers 205 with them", async () => {
    const r = await json("PUT", path, { token: tok.bob });
    expect(r.status).toBe(205);
    expect(r.body).toHaveLength(2);
    for (const n of r.body) expect(n).toMatchObject({ unread: false, pinned: false });
    expectShape(r.body[0], NotificationThread);
    const left = (await json("GET", `${path}?status-types=unread`, { token: tok.bob })).body;
    expect(left).toEqual([]);
  });

  test("status-types and to-status: read → unread moves the thread to the top", async () => {
    const r = await json("PUT", `${path}?status-types=read&to-status=unread`, { token: tok.bob });
    expect(r.status).toBe(205);
    expect(r.body).toHaveLength(3);
    const list = (await json("GET", `${path}?all=true`, { token: tok.bob })).body;
    expect(list.map((n: { unread: boolean; pinned: boolean }) => [n.unread, n.pinned])).toEqual([
      [true, false],
      [true, false],
      [true, false],
      [false, true],
    ]);
  });

  test("last_read_at leaves threads updated after it alone; a bad one is 400", async () => {
    const { repo } = issueRow("lists", 1);
    t.env.db.update(notifications).set({ updatedUnix: 5000 }).where(and(eq(notifications.userId, bob.id), eq(notifications.repoId, repo.id))).run();
    const latest = t.env.db.select().from(notifications).where(and(eq(notifications.userId, bob.id), eq(notifications.repoId, repo.id))).all()[0]!;
    t.env.db.update(notifications).set({ updatedUnix: 9000 }).where(eq(notifications.id, latest.id)).run();
    const r = await json("PUT", `${path}?all=true&to-status=pinned&last_read_at=${new Date(6000 * 1000).toISOString()}`, { token: tok.bob });
    expect(r.status).toBe(205);
    expect(r.body).toHaveLength(3);
    expect(r.body.every((n: { pinned: boolean }) => n.pinned)).toBe(true);
    const untouched = (await json("GET", `/api/v1/notifications/threads/${latest.id}`, { token: tok.bob })).body;
    expect(untouched.pinned).toBe(false);
    const bad = await json("PUT", `${path}?last_read_at=soon`, { token: tok.bob });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('parsing time "soon"');
  });

  test("PUT /notifications covers every repository", async () => {
    const r = await json("PUT", "/api/v1/notifications?all=true", { token: tok.bob });
    expect(r.status).toBe(205);
    expect(new Set(r.body.map((n: { repository: { full_name: string } }) => n.repository.full_name))).toEqual(
      new Set(["alice/proj", "alice/lists"]),
    );
    expect((await ok("GET", "/api/v1/notifications/new", tok.bob)).new).toBe(0);
    expect(await threads("bob", "")).toEqual([]);
  });

  test("PATCH a thread: read by default, or the to-status given; 205 with the thread", async () => {
    const [n] = await threads("bob");
    const unread = await json("PATCH", `/api/v1/notifications/threads/${n.id}?to-status=unread`, { token: tok.bob });
    expect(unread.status).toBe(205);
    expect(unread.body).toMatchObject({ id: n.id, unread: true, pinned: false });
    expect((await ok("GET", "/api/v1/notifications/new", tok.bob)).new).toBe(1);
    const read = await json("PATCH", `/api/v1/notifications/threads/${n.id}`, { token: tok.bob });
    expect(read.body).toMatchObject({ id: n.id, unread: false, pinned: false });
    const bogus = await json("PATCH", `/api/v1/notifications/threads/${n.id}?to-status=bogus`, { token: tok.bob });
    expect(bogus.body).toMatchObject({ unread: false, pinned: false });
  });
});

describe("access", () => {
  test("every endpoint without a token is 401 token is required (repository ones 404 first for a hidden repository)", async () => {
    const [n] = await threads("dave");
    const calls: [string, string][] = [
      ["GET", "/api/v1/notifications"],
      ["PUT", "/api/v1/notifications"],
      ["GET", "/api/v1/notifications/new"],
      ["GET", `/api/v1/notifications/threads/${n.id}`],
      ["PATCH", `/api/v1/notifications/threads/${n.id}`],
      ["GET", `${proj}/notifications`],
      ["PUT", `${proj}/notifications`],
    ];
    for (const [method, path] of calls) {
      const r = await json(method, path);
      expect({ method, path, status: r.status, message: r.body?.message }).toEqual({ method, path, status: 401, message: "token is required" });
    }
    expect((await json("GET", "/api/v1/repos/alice/secret/notifications")).status).toBe(404);
    expect((await json("PUT", "/api/v1/repos/alice/nope/notifications")).status).toBe(404);
  });

  test("basic authentication counts as signed in", async () => {
    const r = await json("GET", "/api/v1/notifications", { basic: ["dave", "password123"] });
    expect(r.status).toBe(200);
  });

  test("the notification scope: read for GET, write for PUT and PATCH; others get 403", async () => {
    const [n] = await threads("dave");
    const repoOnly = t.token(dave, ["write:repository", "write:issue"]);
    const readOnly = t.token(dave, ["read:notification"]);
    for (const [method, path] of [
      ["GET", "/api/v1/notifications"],
      ["GET", "/api/v1/notifications/new"],
      ["GET", `/api/v1/notifications/threads/${n.id}`],
      ["GET", `${proj}/notifications`],
    ] as const) {
      const denied = await json(method, path, { token: repoOnly });
      expect({ path, status: denied.status }).toEqual({ path, status: 403 });
      expect(denied.body.message).toContain("read:notification");
      expect((await json(method, path, { token: readOnly })).status).toBe(200);
    }
    for (const [method, path] of [
      ["PUT", "/api/v1/notifications"],
      ["PATCH", `/api/v1/notifications/threads/${n.id}`],
      ["PUT", `${proj}/notifications`],
    ] as const) {
      const denied = await json(method, path, { token: readOnly });
      expect({ path, status: denied.status }).toEqual({ path, status: 403 });
      expect(denied.body.message).toContain("write:notification");
    }
  });

  test("someone else's thread is 403 (Gitea's message); a missing or malformed id is 404", async () => {
    const [n] = await threads("dave");
    for (const method of ["GET", "PATCH"]) {
      const r = await json(method, `/api/v1/notifications/threads/${n.id}`, { token: tok.bob });
      expect(r.status).toBe(403);
      expect(r.body.message).toBe(`only user itself and admin are allowed to read/change this thread ${n.id}`);
    }
    const missing = await json("GET", "/api/v1/notifications/threads/99999", { token: tok.bob });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe("notification does not exist [id: 99999]");
    const malformed = await json("PATCH", "/api/v1/notifications/threads/abc", { token: tok.bob });
    expect(malformed.status).toBe(404);
    expect(malformed.body.message).toBe("notification does not exist");
  });

  test("a site admin reads another user's thread but cannot change it (Gitea: 500; here 403)", async () => {
    const [n] = await threads("dave");
    const read = await json("GET", `/api/v1/notifications/threads/${n.id}`, { token: tok.root });
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(n.id);
    const change = await json("PATCH", `/api/v1/notifications/threads/${n.id}`, { token: tok.root });
    expect(change.status).toBe(403);
    expect(change.body.message).toBe(`Can't change notification of another user: ${dave.id}, ${root.id}`);
  });

  test("a repository the user can no longer read: its threads are hidden everywhere, and no new ones come", async () => {
    await ok("POST", "/api/v1/user/repos", tok.alice, { name: "flip" }, 201);
    await ok("PUT", "/api/v1/repos/alice/flip/subscription", tok.eve, undefined, 200);
    await ok("POST", "/api/v1/repos/alice/flip/issues", tok.alice, { title: "Visible" }, 201);
    const n = await threadOf("eve", "flip", 1);
    expect(n).toMatchObject({ unread: true });
    const before = (await ok("GET", "/api/v1/notifications/new", tok.eve)).new;

    await ok("PATCH", "/api/v1/repos/alice/flip", tok.alice, { private: true });
    expect(await threadOf("eve", "flip", 1)).toBeUndefined();
    expect((await ok("GET", "/api/v1/notifications/new", tok.eve)).new).toBe(before - 1);
    expect((await json("GET", `/api/v1/notifications/threads/${n.id}`, { token: tok.eve })).status).toBe(404);
    expect((await json("PATCH", `/api/v1/notifications/threads/${n.id}`, { token: tok.eve })).status).toBe(404);
    expect((await json("GET", "/api/v1/repos/alice/flip/notifications", { token: tok.eve })).status).toBe(404);
    const marked = await json("PUT", "/api/v1/notifications?all=true&to-status=pinned", { token: tok.eve });
    expect(marked.body.some((m: { id: number }) => m.id === n.id)).toBe(false);

    // While she cannot read it, new issues do not create threads for her.
    await ok("POST", "/api/v1/repos/alice/flip/issues", tok.alice, { title: "Hidden" }, 201);
    const { issue } = issueRow("flip", 2);
    expect(t.env.db.select().from(notifications).where(and(eq(notifications.issueId, issue.id), eq(notifications.userId, eve.id))).all()).toEqual([]);

    // Access back: the old thread shows again, untouched by the PUT above.
    await ok("PATCH", "/api/v1/repos/alice/flip", tok.alice, { private: false });
    expect(await threadOf("eve", "flip", 1)).toMatchObject({ id: n.id, unread: true, pinned: false });
    expect(await threadOf("eve", "flip", 2)).toBeUndefined();
  });

  test("an issue tracker switched off hides its threads", async () => {
    const n = await threadOf("dave", "proj", 1);
    await ok("PATCH", proj, tok.alice, { has_issues: false });
    expect(await threadOf("dave", "proj", 1)).toBeUndefined();
    expect((await json("GET", `/api/v1/notifications/threads/${n.id}`, { token: tok.dave })).status).toBe(404);
    await ok("PATCH", proj, tok.alice, { has_issues: true });
    expect((await ok("GET", `/api/v1/notifications/threads/${n.id}`, tok.dave)).id).toBe(n.id);
  });

  test("a public-only token sees no private repository's threads", async () => {
    await ok("PUT", "/api/v1/repos/alice/secret/collaborators/carol", tok.alice, { permission: "read" }, 204);
    await ok("PUT", "/api/v1/repos/alice/secret/subscription", tok.carol, undefined, 200);
    await ok("POST", "/api/v1/repos/alice/secret/issues", tok.alice, { title: "Private matter" }, 201);
    expect(await threadOf("carol", "secret", 2)).toBeDefined();
    const publicOnly = t.token(carol, ["public-only", "read:notification"]);
    const list = (await json("GET", "/api/v1/notifications?all=true", { token: publicOnly })).body;
    expect(list.length).toBeGreaterThan(0);
    expect(list.some((n: { repository: { private: boolean } }) => n.repository.private)).toBe(false);
  });
});

describe("issue rows", () => {
  test("threads of issues that vanished without the hook are not shown", async () => {
    const before = await threads("dave");
    const { issue } = issueRow("proj", 3);
    expect(before.some((n) => n.subject.url.endsWith("/issues/3"))).toBe(true);
    t.env.db.delete(issues).where(eq(issues.id, issue.id)).run();
    const after = await threads("dave");
    expect(after.some((n) => n.subject.url.endsWith("/issues/3"))).toBe(false);
    expect(after).toHaveLength(before.length - 1);
  });
});

describe("mention syntax (Gitea's pattern)", () => {
  test("names after a space or bracket, before a space, bracket or punctuation; not in code or e-mail addresses", async () => {
    const { findMentions } = await import("../../src/services/notification/mentions.ts");
    expect(findMentions("@a @b")).toEqual(["a", "b"]);
    expect(findMentions("hi @Carol, look (@x) @end.")).toEqual(["carol", "x", "end"]);
    expect(findMentions("@dot.name ok @org/team")).toEqual(["dot.name", "org/team"]);
    expect(findMentions("mail a@b.com x@y @a!b")).toEqual([]);
    expect(findMentions("```\n@code\n```\n`@inline` @after")).toEqual(["after"]);
  });
});

describe("through the comment API", () => {
  test("a posted comment notifies watchers and the users it mentions, and is the thread's latest comment", async () => {
    markAllRead();
    const c = await ok("POST", `${proj}/issues/4/comments`, tok.bob, { body: "Same here, @eve" }, 201);
    const alices = await threadOf("alice", "proj", 4);
    expect(alices).toMatchObject({ unread: true });
    expect(alices.subject.latest_comment_url).toBe(`http://hearth.test/api/v1/repos/alice/proj/issues/comments/${c.id}`);
    expect((await threadOf("eve", "proj", 4)).unread).toBe(true);
    const bobs = await threadOf("bob", "proj", 4);
    expect(bobs === undefined || bobs.unread === false).toBe(true);
  });
});
