import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { Comment } from "../../src/shapes/comment.ts";
import { writeTx } from "../../src/db/client.ts";
import { eventsIdle } from "../../src/services/events/bus.ts";
import * as issueModel from "../../src/models/issue.ts";
import * as commentModel from "../../src/models/comment.ts";

const t = makeTestApp();
const alice = await t.user("alice");
const aliceToken = t.token(alice);
const bob = await t.user("bob");
const bobToken = t.token(bob);
const carol = await t.user("carol");
const carolToken = t.token(carol);
const dave = await t.user("dave");
const daveToken = t.token(dave);

const ok = t.ok.bind(t);

const repoIds: Record<string, number> = {};
async function repoId(name: string): Promise<number> {
  return (await ok("GET", `/api/v1/repos/alice/${name}`, aliceToken)).id;
}

// Arrangement straight in the database: times and locks the API cannot set (locking is another file's).
const issueByIndex = (repo: string, index: number) => issueModel.getIssueByIndex(t.env.db, repoIds[repo]!, index)!;
const setIssue = (repo: string, index: number, patch: Parameters<typeof issueModel.updateIssue>[2]) =>
  writeTx(t.env.db, (tx) => issueModel.updateIssue(tx, issueByIndex(repo, index).id, patch));
const setCommentTime = (id: number, unix: number) =>
  writeTx(t.env.db, (tx) => commentModel.updateComment(tx, id, { createdUnix: unix, updatedUnix: unix }));

await ok("POST", "/api/v1/user/repos", aliceToken, { name: "proj" }, 201);
await ok("POST", "/api/v1/user/repos", aliceToken, { name: "other" }, 201);
await ok("POST", "/api/v1/user/repos", aliceToken, { name: "secret", private: true }, 201);
await ok("PUT", "/api/v1/repos/alice/proj/collaborators/carol", aliceToken, { permission: "write" }, 204);
await ok("PUT", "/api/v1/repos/alice/secret/collaborators/dave", aliceToken, { permission: "read" }, 204);
for (const name of ["proj", "other", "secret"]) repoIds[name] = await repoId(name);
const base = "/api/v1/repos/alice/proj/issues";
await ok("POST", base, bobToken, { title: "First" }, 201); // #1, by bob
await ok("POST", base, aliceToken, { title: "Second" }, 201); // #2, by alice
await ok("POST", "/api/v1/repos/alice/other/issues", aliceToken, { title: "Elsewhere" }, 201);
await ok("POST", "/api/v1/repos/alice/secret/issues", aliceToken, { title: "Hidden" }, 201);

describe("create", () => {
  test("a reader comments; the Comment JSON is Gitea's and the issue's count and update time move", async () => {
    setIssue("proj", 1, { updatedUnix: 1_000_000 });
    const c = await ok("POST", `${base}/1/comments`, bobToken, { body: "hello" }, 201);
    expectShape(c, Comment);
    expect(c).toMatchObject({
      html_url: `http://hearth.test/alice/proj/issues/1#issuecomment-${c.id}`,
      issue_url: "http://hearth.test/alice/proj/issues/1",
      pull_request_url: "",
      body: "hello",
      assets: [],
      original_author: "",
      original_author_id: 0,
    });
    expect(c.user.login).toBe("bob");
    // Gitea renders the poster as for an anonymous viewer: the placeholder address.
    expect(c.user.email).toBe(`bob@${t.settings.service.noReplyAddress}`);
    expect(c.created_at).toBe(c.updated_at);
    const issue = await ok("GET", `${base}/1`, bobToken);
    expect(issue.comments).toBe(1);
    expect(Date.parse(issue.updated_at) / 1000).toBeGreaterThan(1_000_000);
  });

  test("refusals: anonymous 401, no body 422, unknown issue 404, hidden repository 404, archived 423", async () => {
    expect((await t.json("POST", `${base}/1/comments`, { body: { body: "x" } })).status).toBe(401);
    const empty = await t.json("POST", `${base}/1/comments`, { token: bobToken, body: { body: "" } });
    expect(empty.status).toBe(422);
    expect(empty.body.message).toBe("[Body]: Required");
    expect((await t.json("POST", `${base}/99/comments`, { token: bobToken, body: { body: "x" } })).status).toBe(404);
    expect((await t.json("POST", "/api/v1/repos/alice/secret/issues/1/comments", { token: bobToken, body: { body: "x" } })).status).toBe(404);
    await ok("POST", "/api/v1/user/repos", aliceToken, { name: "frozen" }, 201);
    await ok("POST", "/api/v1/repos/alice/frozen/issues", aliceToken, { title: "old" }, 201);
    await ok("PATCH", "/api/v1/repos/alice/frozen", aliceToken, { archived: true });
    const archived = await t.json("POST", "/api/v1/repos/alice/frozen/issues/1/comments", { token: aliceToken, body: { body: "x" } });
    expect(archived.status).toBe(423);
  });

  test("a locked issue takes comments from writers only", async () => {
    setIssue("proj", 2, { isLocked: true });
    const reader = await t.json("POST", `${base}/2/comments`, { token: bobToken, body: { body: "let me in" } });
    expect(reader.status).toBe(403);
    expect(reader.body.message).toBe("You cannot comment on a locked issue.");
    await ok("POST", `${base}/2/comments`, carolToken, { body: "writer here" }, 201);
    setIssue("proj", 2, { isLocked: false });
  });

  test("mentions of users who can read the issue are recorded; others are not", async () => {
    await ok("POST", `${base}/2/comments`, bobToken, { body: "ping @dave and @carol, not `@alice`" }, 201);
    // Mentions are recorded with the comment's notifications, by a subscriber of the event bus.
    await eventsIdle(t.env);
    const byDave = await ok("GET", `${base}?mentioned_by=dave&state=all`, aliceToken);
    expect(byDave.map((i: { number: number }) => i.number)).toEqual([2]);
    const byAlice = await ok("GET", `${base}?mentioned_by=alice&state=all`, aliceToken);
    expect(byAlice).toEqual([]);
    // bob cannot read the private repository: mentioning him there records nothing.
    await ok("POST", "/api/v1/repos/alice/secret/issues/1/comments", daveToken, { body: "@bob look" }, 201);
    const hidden = await ok("GET", "/api/v1/repos/alice/secret/issues?mentioned_by=bob&state=all", aliceToken);
    expect(hidden).toEqual([]);
  });

  test("the issue's watchers are notified of the comment", async () => {
    await ok("POST", `${base}/1/comments`, carolToken, { body: "news for the poster" }, 201);
    await eventsIdle(t.env); // notifications are written from the comment's event
    const threads = await ok("GET", "/api/v1/notifications?all=true", bobToken);
    expect(threads.some((n: { subject: { title: string } }) => n.subject.title === "First")).toBe(true);
  });
});

describe("list", () => {
  test("per issue: plain comments only, oldest first, all at once with X-Total-Count", async () => {
    await ok("POST", base, aliceToken, { title: "Listing" }, 201); // #3
    const a = await ok("POST", `${base}/3/comments`, aliceToken, { body: "a" }, 201);
    await ok("PATCH", `${base}/3`, aliceToken, { state: "closed" }, 201); // a timeline event row
    const b = await ok("POST", `${base}/3/comments`, bobToken, { body: "b" }, 201);
    setCommentTime(a.id, 2_000_000);
    setCommentTime(b.id, 3_000_000);
    const r = await t.json("GET", `${base}/3/comments`);
    expect(r.status).toBe(200);
    expect(r.body.map((c: { body: string }) => c.body)).toEqual(["a", "b"]);
    expect(r.headers.get("x-total-count")).toBe("2");
    expectShape(r.body[0], Comment);
    const since = await ok("GET", `${base}/3/comments?since=${new Date(2_500_000_000).toISOString()}`, undefined);
    expect(since.map((c: { body: string }) => c.body)).toEqual(["b"]);
    const before = await ok("GET", `${base}/3/comments?before=${new Date(2_500_000_000).toISOString()}`, undefined);
    expect(before.map((c: { body: string }) => c.body)).toEqual(["a"]);
    const bad = await t.json("GET", `${base}/3/comments?since=yesterday`);
    expect(bad.status).toBe(422);
    expect((await t.json("GET", `${base}/99/comments`)).status).toBe(404);
    expect((await t.json("GET", "/api/v1/repos/alice/secret/issues/1/comments", { token: bobToken })).status).toBe(404);
    expect((await t.json("GET", "/api/v1/repos/alice/secret/issues/1/comments", { token: daveToken })).status).toBe(200);
  });

  test("repository-wide: plain comments of every issue, paginated, windowed", async () => {
    const all = await t.json("GET", "/api/v1/repos/alice/proj/issues/comments?limit=50");
    expect(all.status).toBe(200);
    const count = Number(all.headers.get("x-total-count"));
    expect(count).toBe(all.body.length);
    expect(all.body.every((c: { body: string }) => c.body !== "")).toBe(true);
    expect(new Set(all.body.map((c: { issue_url: string }) => c.issue_url)).size).toBeGreaterThan(1);
    const page2 = await t.json("GET", "/api/v1/repos/alice/proj/issues/comments?limit=1&page=2");
    expect(page2.body.map((c: { id: number }) => c.id)).toEqual([all.body[1].id]);
    expect(page2.headers.get("x-total-count")).toBe(String(count));
    const windowed = await ok(
      "GET",
      `/api/v1/repos/alice/proj/issues/comments?since=${new Date(1_500_000_000).toISOString()}&before=${new Date(2_500_000_000).toISOString()}`,
      undefined,
    );
    expect(windowed.map((c: { body: string }) => c.body)).toEqual(["a"]);
    // Another repository's comments never show up here.
    await ok("POST", "/api/v1/repos/alice/other/issues/1/comments", aliceToken, { body: "elsewhere" }, 201);
    const again = await ok("GET", "/api/v1/repos/alice/proj/issues/comments?limit=50", undefined);
    expect(again.some((c: { body: string }) => c.body === "elsewhere")).toBe(false);
    expect((await t.json("GET", "/api/v1/repos/alice/secret/issues/comments", { token: bobToken })).status).toBe(404);
  });

  test("pull request comments link the pull request and follow the pulls unit", async () => {
    await ok("POST", "/api/v1/user/repos", aliceToken, { name: "units" }, 201);
    repoIds.units = await repoId("units");
    await ok("POST", "/api/v1/repos/alice/units/issues", aliceToken, { title: "an issue" }, 201);
    const now = Math.floor(Date.now() / 1000);
    writeTx(t.env.db, (tx) =>
      issueModel.insertIssue(tx, {
        repoId: repoIds.units!,
        index: issueModel.nextIssueIndex(tx, repoIds.units!),
        posterId: alice.id,
        title: "a pull",
        isPull: true,
        createdUnix: now,
        updatedUnix: now,
      }),
    );
    const onIssue = await ok("POST", "/api/v1/repos/alice/units/issues/1/comments", aliceToken, { body: "on issue" }, 201);
    const onPull = await ok("POST", "/api/v1/repos/alice/units/issues/2/comments", aliceToken, { body: "on pull" }, 201);
    expect(onPull).toMatchObject({
      pull_request_url: "http://hearth.test/alice/units/pulls/2",
      issue_url: "",
      html_url: `http://hearth.test/alice/units/pulls/2#issuecomment-${onPull.id}`,
    });
    await ok("PATCH", "/api/v1/repos/alice/units", aliceToken, { has_pull_requests: false });
    const list = await ok("GET", "/api/v1/repos/alice/units/issues/comments", bobToken);
    expect(list.map((c: { id: number }) => c.id)).toEqual([onIssue.id]);
    expect((await t.json("GET", `/api/v1/repos/alice/units/issues/comments/${onPull.id}`, { token: bobToken })).status).toBe(404);
    expect((await t.json("GET", "/api/v1/repos/alice/units/issues/2/comments", { token: bobToken })).status).toBe(404);
    await ok("PATCH", "/api/v1/repos/alice/units", aliceToken, { has_issues: false });
    expect((await t.json("GET", "/api/v1/repos/alice/units/issues/comments", { token: bobToken })).status).toBe(404);
  });
});

describe("get, edit, delete", () => {
  test("get: a comment of this repository; another repository's id, an event or a bad id are not one", async () => {
    const c = await ok("POST", `${base}/1/comments`, bobToken, { body: "to get" }, 201);
    const got = await ok("GET", `${base}/comments/${c.id}`, undefined);
    expect(got).toEqual(c);
    expect((await t.json("GET", `/api/v1/repos/alice/other/issues/comments/${c.id}`)).status).toBe(404);
    expect((await t.json("GET", `${base}/comments/999999`)).status).toBe(404);
    expect((await t.json("GET", `${base}/comments/abc`)).status).toBe(404);
    const hidden = await ok("POST", "/api/v1/repos/alice/secret/issues/1/comments", aliceToken, { body: "psst" }, 201);
    expect((await t.json("GET", `/api/v1/repos/alice/secret/issues/comments/${hidden.id}`, { token: bobToken })).status).toBe(404);
    expect((await t.json("GET", `/api/v1/repos/alice/secret/issues/comments/${hidden.id}`, { token: daveToken })).status).toBe(200);
    // A timeline event is a comment row, but not a comment: 204.
    await ok("PATCH", `${base}/1`, aliceToken, { title: "First, renamed" }, 201);
    const event = commentModel
      .findComments(t.env.db, { issueId: issueByIndex("proj", 1).id })
      .rows.find((row) => row.type !== 0)!;
    const r = await t.request("GET", `${base}/comments/${event.id}`);
    expect(r.status).toBe(204);
    const edited = await t.request("PATCH", `${base}/comments/${event.id}`, { token: aliceToken, body: { body: "x" } });
    expect(edited.status).toBe(204);
  });

  test("edit: the poster or a writer; others 403, anonymous 401; the update time moves", async () => {
    const c = await ok("POST", `${base}/1/comments`, bobToken, { body: "draft" }, 201);
    setCommentTime(c.id, 1_000_000);
    const edited = await ok("PATCH", `${base}/comments/${c.id}`, bobToken, { body: "final" });
    expectShape(edited, Comment);
    expect(edited.body).toBe("final");
    expect(Date.parse(edited.updated_at) / 1000).toBeGreaterThan(1_000_000);
    expect(Date.parse(edited.created_at) / 1000).toBe(1_000_000);
    const byWriter = await ok("PATCH", `${base}/comments/${c.id}`, carolToken, { body: "tidied by carol" });
    expect(byWriter.user.login).toBe("bob");
    expect((await t.json("PATCH", `${base}/comments/${c.id}`, { token: daveToken, body: { body: "mine" } })).status).toBe(403);
    expect((await t.json("PATCH", `${base}/comments/${c.id}`, { body: { body: "anon" } })).status).toBe(401);
    expect((await t.json("PATCH", `${base}/comments/${c.id}`, { token: bobToken, body: {} })).status).toBe(422);
    expect((await t.json("PATCH", `/api/v1/repos/alice/other/issues/comments/${c.id}`, { token: aliceToken, body: { body: "x" } })).status).toBe(404);
    const got = await ok("GET", `${base}/comments/${c.id}`, undefined);
    expect(got.body).toBe("tidied by carol");
  });

  test("the deprecated routes ignore the issue index", async () => {
    const c = await ok("POST", `${base}/1/comments`, bobToken, { body: "old style" }, 201);
    const edited = await ok("PATCH", `${base}/999/comments/${c.id}`, bobToken, { body: "still works" });
    expect(edited.body).toBe("still works");
    expect((await t.json("PATCH", `${base}/1/comments/${c.id}`, { token: daveToken, body: { body: "x" } })).status).toBe(403);
    expect((await t.request("DELETE", `${base}/999/comments/${c.id}`, { token: bobToken })).status).toBe(204);
    expect((await t.json("GET", `${base}/comments/${c.id}`)).status).toBe(404);
  });

  test("delete: the poster or a writer; the issue's count follows", async () => {
    const c = await ok("POST", `${base}/2/comments`, bobToken, { body: "short-lived" }, 201);
    const before = (await ok("GET", `${base}/2`, undefined)).comments;
    expect((await t.request("DELETE", `${base}/comments/${c.id}`, { token: daveToken })).status).toBe(403);
    expect((await t.request("DELETE", `${base}/comments/${c.id}`)).status).toBe(401);
    expect((await t.request("DELETE", `/api/v1/repos/alice/other/issues/comments/${c.id}`, { token: aliceToken })).status).toBe(404);
    expect((await t.request("DELETE", `${base}/comments/${c.id}`, { token: bobToken })).status).toBe(204);
    expect((await ok("GET", `${base}/2`, undefined)).comments).toBe(before - 1);
    expect((await t.request("DELETE", `${base}/comments/${c.id}`, { token: bobToken })).status).toBe(404);
    const other = await ok("POST", `${base}/2/comments`, bobToken, { body: "moderated" }, 201);
    expect((await t.request("DELETE", `${base}/comments/${other.id}`, { token: carolToken })).status).toBe(204);
  });
});
