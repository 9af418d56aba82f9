import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { StopWatch, TrackedTime } from "../../src/shapes/issue-extras.ts";

const t = makeTestApp();
const alice = await t.user("alice");
const aliceToken = t.token(alice);
const bob = await t.user("bob");
const bobToken = t.token(bob);
const carol = await t.user("carol");
const carolToken = t.token(carol);
const dave = await t.user("dave");
const daveToken = t.token(dave);

async function ok(method: string, path: string, token: string | undefined, body?: unknown, status = 200) {
  const r = await t.json(method, path, { token, body });
  expect({ path, status: r.status, body: r.status === status ? undefined : r.body }).toEqual({ path, status, body: undefined });
  return r.body;
}

await ok("POST", "/api/v1/user/repos", aliceToken, { name: "proj" }, 201);
await ok("POST", "/api/v1/user/repos", aliceToken, { name: "secret", private: true }, 201);
await ok("PUT", "/api/v1/repos/alice/proj/collaborators/carol", aliceToken, { permission: "write" }, 204);
const repo = "/api/v1/repos/alice/proj";
await ok("POST", `${repo}/issues`, bobToken, { title: "by bob" }, 201);
await ok("POST", `${repo}/issues`, carolToken, { title: "by carol" }, 201);
await ok("POST", "/api/v1/repos/alice/secret/issues", aliceToken, { title: "hidden" }, 201);

type Time = { id: number; time: number; user_name: string; created: string; issue: { number: number } | null };
const times = async (path: string, token: string) => (await ok("GET", path, token)) as Time[];
const summary = (list: Time[]) => list.map((e) => [e.user_name, e.time]);
const timeline = async (n: number) => (await ok("GET", `${repo}/issues/${n}/timeline`, aliceToken)) as { type: string; body: string; tracked_time: Time | null }[];

describe("tracked times", () => {
  let carolEntry = 0;

  test("the poster and writers add time; the entry names the user and the issue", async () => {
    const mine = await ok("POST", `${repo}/issues/1/times`, bobToken, { time: 3600 });
    expectShape(mine, TrackedTime);
    expect(mine).toMatchObject({ time: 3600, user_name: "bob", user_id: bob.id, issue_id: mine.issue.id, issue: { number: 1 } });
    const dated = await ok("POST", `${repo}/issues/1/times`, carolToken, { time: 60, created: "2024-01-02T03:04:05Z" });
    expect(dated.created).toBe("2024-01-02T03:04:05Z");
    carolEntry = dated.id;
    // A repository admin books time for someone else; anyone else's user_name is ignored.
    expect((await ok("POST", `${repo}/issues/1/times`, aliceToken, { time: 30, user_name: "carol" })).user_name).toBe("carol");
    expect((await ok("POST", `${repo}/issues/1/times`, bobToken, { time: 5, user_name: "carol" })).user_name).toBe("bob");
    const events = await timeline(1);
    expect(events.map((e) => [e.type, e.body])).toEqual([
      ["add_time_manual", "1 hour"],
      ["add_time_manual", "1 minute"],
      ["add_time_manual", "30 seconds"],
      ["add_time_manual", "5 seconds"],
    ]);
    expect(events[0]!.tracked_time).toMatchObject({ id: mine.id, time: 3600, user_name: "bob" });
  });

  test("others cannot track time on an issue that is not theirs; bad input is 422", async () => {
    expect((await t.json("POST", `${repo}/issues/1/times`, { token: daveToken, body: { time: 10 } })).status).toBe(403);
    const zero = await t.json("POST", `${repo}/issues/1/times`, { token: bobToken, body: { time: 0 } });
    expect(zero.status).toBe(422);
    expect(zero.body.message).toBe("[Time]: Required");
    expect((await t.json("POST", `${repo}/issues/1/times`, { body: { time: 10 } })).status).toBe(401);
    expect((await t.json("POST", `${repo}/issues/7/times`, { token: bobToken, body: { time: 10 } })).status).toBe(404);
    const unknown = await t.json("POST", `${repo}/issues/1/times`, { token: aliceToken, body: { time: 10, user_name: "nobody" } });
    expect(unknown.status).toBe(404);
  });

  test("listing: writers see everyone's, others their own; filters by user and time", async () => {
    const all = await t.json("GET", `${repo}/issues/1/times`, { token: carolToken });
    expect(summary(all.body)).toEqual([
      ["bob", 3600],
      ["carol", 60],
      ["carol", 30],
      ["bob", 5],
    ]);
    expect(all.headers.get("x-total-count")).toBe("4");
    expect(summary(await times(`${repo}/issues/1/times`, bobToken))).toEqual([
      ["bob", 3600],
      ["bob", 5],
    ]);
    expect(summary(await times(`${repo}/issues/1/times?user=bob`, carolToken))).toEqual([
      ["bob", 3600],
      ["bob", 5],
    ]);
    const denied = await t.json("GET", `${repo}/issues/1/times?user=carol`, { token: bobToken });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe("query by user not allowed; not enough rights");
    expect((await t.json("GET", `${repo}/issues/1/times?user=nobody`, { token: carolToken })).status).toBe(404);
    expect(summary(await times(`${repo}/issues/1/times?user=carol&before=2025-01-01T00:00:00Z`, carolToken))).toEqual([["carol", 60]]);
    expect(summary(await times(`${repo}/issues/1/times?since=2025-01-01T00:00:00Z&user=carol`, carolToken))).toEqual([["carol", 30]]);
    expect((await t.json("GET", `${repo}/issues/1/times?since=yesterday`, { token: carolToken })).status).toBe(422);
    expect((await t.json("GET", `${repo}/issues/1/times`)).status).toBe(401);
    const page = await t.json("GET", `${repo}/issues/1/times?limit=1&page=2`, { token: carolToken });
    expect(summary(page.body)).toEqual([["carol", 60]]);
  });

  test("deleting one entry: only its owner or a site admin; twice is 404", async () => {
    expect((await t.json("DELETE", `${repo}/issues/1/times/${carolEntry}`, { token: bobToken })).status).toBe(403);
    // The entry must belong to the issue of the path.
    expect((await t.json("DELETE", `${repo}/issues/2/times/${carolEntry}`, { token: carolToken })).status).toBe(404);
    expect((await t.json("DELETE", `${repo}/issues/1/times/${carolEntry}`, { token: carolToken })).status).toBe(204);
    const again = await t.json("DELETE", `${repo}/issues/1/times/${carolEntry}`, { token: carolToken });
    expect(again.status).toBe(404);
    expect(again.body.message).toBe("tracked time was already deleted");
    expect((await t.json("DELETE", `${repo}/issues/1/times/999`, { token: carolToken })).status).toBe(404);
    const last = (await timeline(1)).at(-1)!;
    expect([last.type, last.body]).toEqual(["delete_time_manual", "1 minute"]);
  });

  test("resetting removes the doer's entries on the issue; with none left it is 404", async () => {
    expect((await t.json("DELETE", `${repo}/issues/1/times`, { token: bobToken })).status).toBe(204);
    expect(await times(`${repo}/issues/1/times`, bobToken)).toEqual([]);
    const again = await t.json("DELETE", `${repo}/issues/1/times`, { token: bobToken });
    expect(again.status).toBe(404);
    const last = (await timeline(1)).at(-1)!;
    expect([last.type, last.body]).toEqual(["delete_time_manual", "1 hour"]);
    expect(summary(await times(`${repo}/issues/1/times`, carolToken))).toEqual([["carol", 30]]);
  });

  test("repository listing and the deprecated per-user listing", async () => {
    await ok("POST", `${repo}/issues/2/times`, carolToken, { time: 120 });
    await ok("POST", `${repo}/issues/1/times`, bobToken, { time: 7 });
    const all = await t.json("GET", `${repo}/times`, { token: aliceToken });
    expect(summary(all.body)).toEqual([
      ["carol", 30],
      ["carol", 120],
      ["bob", 7],
    ]);
    expect(all.headers.get("x-total-count")).toBe("3");
    expect(summary(await times(`${repo}/times`, bobToken))).toEqual([["bob", 7]]);
    expect(summary(await times(`${repo}/times?user=carol`, aliceToken))).toEqual([
      ["carol", 30],
      ["carol", 120],
    ]);
    expect((await t.json("GET", `${repo}/times?user=carol`, { token: bobToken })).status).toBe(403);
    expect((await t.json("GET", `${repo}/times`)).status).toBe(401);
    expect((await t.json("GET", "/api/v1/repos/alice/secret/times", { token: bobToken })).status).toBe(404);
    expect(summary(await times(`${repo}/times/bob`, bobToken))).toEqual([["bob", 7]]);
    expect(summary(await times(`${repo}/times/carol`, aliceToken))).toEqual([
      ["carol", 30],
      ["carol", 120],
    ]);
    const denied = await t.json("GET", `${repo}/times/carol`, { token: bobToken });
    expect(denied.status).toBe(403);
    expect((await t.json("GET", `${repo}/times/nobody`, { token: aliceToken })).status).toBe(404);
  });

  test("GET /user/times lists the doer's own entries everywhere", async () => {
    await ok("POST", "/api/v1/repos/alice/secret/issues/1/times", aliceToken, { time: 11 });
    const mine = await t.json("GET", "/api/v1/user/times", { token: carolToken });
    expect(mine.body.map((e: Time) => [e.issue?.number, e.time])).toEqual([
      [1, 30],
      [2, 120],
    ]);
    expect(mine.headers.get("x-total-count")).toBe("2");
    expect(summary(await times("/api/v1/user/times", aliceToken))).toEqual([["alice", 11]]);
    expect((await t.json("GET", "/api/v1/user/times")).status).toBe(401);
  });

  test("everyone may track time when the repository allows it; with the tracker off it is refused", async () => {
    await ok("PATCH", repo, aliceToken, { has_issues: true, internal_tracker: { allow_only_contributors_to_track_time: false } });
    expect((await ok("POST", `${repo}/issues/1/times`, daveToken, { time: 10 })).user_name).toBe("dave");
    await ok("PATCH", repo, aliceToken, { has_issues: true, internal_tracker: { enable_time_tracker: false } });
    const add = await t.json("POST", `${repo}/issues/1/times`, { token: carolToken, body: { time: 10 } });
    expect(add.status).toBe(400);
    expect(add.body.message).toBe("time tracking disabled");
    const list = await t.json("GET", `${repo}/issues/1/times`, { token: carolToken });
    expect(list.status).toBe(404);
    expect(list.body.message).toBe("Timetracker is disabled");
    expect((await t.json("GET", `${repo}/times`, { token: aliceToken })).status).toBe(400);
    expect((await t.json("DELETE", `${repo}/issues/1/times`, { token: carolToken })).status).toBe(400);
    expect((await t.json("POST", `${repo}/issues/1/stopwatch/start`, { token: carolToken })).status).toBe(403);
    await ok("PATCH", repo, aliceToken, { has_issues: true, internal_tracker: { enable_time_tracker: true } });
  });
});

describe("stopwatches", () => {
  test("start, refuse a second start, stop into a tracked time", async () => {
    expect((await t.json("POST", `${repo}/issues/1/stopwatch/start`, { token: carolToken })).status).toBe(201);
    const again = await t.json("POST", `${repo}/issues/1/stopwatch/start`, { token: carolToken });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("cannot start a stopwatch again if it already exists");
    const running = await t.json("GET", "/api/v1/user/stopwatches", { token: carolToken });
    expect(running.body).toHaveLength(1);
    expectShape(running.body[0], StopWatch);
    expect(running.body[0]).toMatchObject({ issue_index: 1, issue_title: "by bob", repo_owner_name: "alice", repo_name: "proj" });
    expect(running.headers.get("x-total-count")).toBe("1");
    // Starting on another issue finishes the running one.
    expect((await t.json("POST", `${repo}/issues/2/stopwatch/start`, { token: carolToken })).status).toBe(201);
    expect((await ok("GET", "/api/v1/user/stopwatches", carolToken)).map((s: { issue_index: number }) => s.issue_index)).toEqual([2]);
    const types = (await timeline(1)).map((e) => e.type);
    expect(types.slice(-2)).toEqual(["start_tracking", "stop_tracking"]);
    const stopped = (await timeline(1)).at(-1)!;
    expect(stopped.tracked_time).toMatchObject({ user_name: "carol" });
    expect((await t.json("POST", `${repo}/issues/2/stopwatch/stop`, { token: carolToken })).status).toBe(201);
    const none = await t.json("POST", `${repo}/issues/2/stopwatch/stop`, { token: carolToken });
    expect(none.status).toBe(409);
    expect(none.body.message).toBe("cannot stop a non-existent stopwatch");
    expect(await ok("GET", "/api/v1/user/stopwatches", carolToken)).toEqual([]);
  });

  test("cancelling drops the stopwatch without tracking time", async () => {
    const before = (await times(`${repo}/issues/2/times?user=carol`, carolToken)).length;
    expect((await t.json("POST", `${repo}/issues/2/stopwatch/start`, { token: carolToken })).status).toBe(201);
    expect((await t.json("DELETE", `${repo}/issues/2/stopwatch/delete`, { token: carolToken })).status).toBe(204);
    expect((await times(`${repo}/issues/2/times?user=carol`, carolToken)).length).toBe(before);
    expect((await timeline(2)).at(-1)!.type).toBe("cancel_tracking");
    const none = await t.json("DELETE", `${repo}/issues/2/stopwatch/delete`, { token: carolToken });
    expect(none.status).toBe(409);
    expect(none.body.message).toBe("cannot cancel a non-existent stopwatch");
  });

  test("only writers of the issue's unit use stopwatches; anonymous 401, unknown issue 404", async () => {
    expect((await t.json("POST", `${repo}/issues/1/stopwatch/start`, { token: bobToken })).status).toBe(403);
    expect((await t.json("POST", `${repo}/issues/1/stopwatch/stop`, { token: daveToken })).status).toBe(403);
    expect((await t.json("POST", `${repo}/issues/1/stopwatch/start`)).status).toBe(401);
    expect((await t.json("POST", `${repo}/issues/9/stopwatch/start`, { token: carolToken })).status).toBe(404);
    expect((await t.json("GET", "/api/v1/user/stopwatches")).status).toBe(401);
  });
});
