import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { Issue } from "../../src/shapes/issue.ts";
import { NewIssuePinsAllowed } from "../../src/shapes/issue-extras.ts";

const t = makeTestApp();
const alice = await t.user("alice");
const aliceToken = t.token(alice);
const bob = await t.user("bob");
const bobToken = t.token(bob);
const carol = await t.user("carol");
const carolToken = t.token(carol);

async function ok(method: string, path: string, token: string | undefined, body?: unknown, status = 200) {
  const r = await t.json(method, path, { token, body });
  expect({ path, status: r.status, body: r.status === status ? undefined : r.body }).toEqual({ path, status, body: undefined });
  return r.body;
}

await ok("POST", "/api/v1/user/repos", aliceToken, { name: "proj" }, 201);
await ok("POST", "/api/v1/user/repos", aliceToken, { name: "secret", private: true }, 201);
await ok("PUT", "/api/v1/repos/alice/proj/collaborators/carol", aliceToken, { permission: "write" }, 204);
const repo = "/api/v1/repos/alice/proj";
for (let i = 1; i <= 5; i++) await ok("POST", `${repo}/issues`, bobToken, { title: `issue ${i}` }, 201);

const pinned = async () => ((await ok("GET", `${repo}/issues/pinned`, undefined)) as { number: number; pin_order: number }[]);
const timelineTypes = async (n: number) =>
  ((await ok("GET", `${repo}/issues/${n}/timeline`, aliceToken)) as { type: string; body: string; user: { login: string } }[]);

describe("pins", () => {
  test("repository admins pin issues in order; the list and pin_order follow", async () => {
    expect(await pinned()).toEqual([]);
    for (const n of [2, 1, 3]) expect((await t.json("POST", `${repo}/issues/${n}/pin`, { token: aliceToken })).status).toBe(204);
    const list = await pinned();
    expectShape(list[0], Issue);
    expect(list.map((i) => [i.number, i.pin_order])).toEqual([
      [2, 1],
      [1, 2],
      [3, 3],
    ]);
    // Pinning a pinned issue changes nothing.
    expect((await t.json("POST", `${repo}/issues/2/pin`, { token: aliceToken })).status).toBe(204);
    expect((await pinned()).map((i) => i.number)).toEqual([2, 1, 3]);
    expect((await timelineTypes(2)).map((e) => e.type)).toEqual(["pin"]);
  });

  test("a full list (three pins) refuses another with 400; new_pin_allowed says so", async () => {
    const full = await t.json("POST", `${repo}/issues/4/pin`, { token: aliceToken });
    expect(full.status).toBe(400);
    expect(full.body.message).toBe("the max number of pinned issues has been readched");
    const allowed = await ok("GET", `${repo}/new_pin_allowed`, undefined);
    expectShape(allowed, NewIssuePinsAllowed);
    expect(allowed).toEqual({ issues: false, pull_requests: true });
  });

  test("moving a pin reorders the others; positions past the end go last; below 1 is 422", async () => {
    expect((await t.json("PATCH", `${repo}/issues/3/pin/1`, { token: aliceToken })).status).toBe(204);
    expect((await pinned()).map((i) => [i.number, i.pin_order])).toEqual([
      [3, 1],
      [2, 2],
      [1, 3],
    ]);
    expect((await t.json("PATCH", `${repo}/issues/3/pin/9`, { token: aliceToken })).status).toBe(204);
    expect((await pinned()).map((i) => [i.number, i.pin_order])).toEqual([
      [2, 1],
      [1, 2],
      [3, 3],
    ]);
    const low = await t.json("PATCH", `${repo}/issues/3/pin/0`, { token: aliceToken });
    expect(low.status).toBe(422);
    expect(low.body.message).toBe("The Position can't be lower than 1");
    // An unpinned issue is left alone, whatever the position.
    expect((await t.json("PATCH", `${repo}/issues/5/pin/0`, { token: aliceToken })).status).toBe(204);
  });

  test("unpinning closes the gap and frees a place", async () => {
    expect((await t.json("DELETE", `${repo}/issues/2/pin`, { token: aliceToken })).status).toBe(204);
    expect((await pinned()).map((i) => [i.number, i.pin_order])).toEqual([
      [1, 1],
      [3, 2],
    ]);
    expect((await ok("GET", `${repo}/new_pin_allowed`, undefined)).issues).toBe(true);
    expect((await t.json("DELETE", `${repo}/issues/2/pin`, { token: aliceToken })).status).toBe(204);
    expect((await timelineTypes(2)).map((e) => e.type)).toEqual(["pin", "unpin"]);
    const issue = await ok("GET", `${repo}/issues/2`, undefined);
    expect(issue.pin_order).toBe(0);
  });

  test("writers who are not admins get 403, anonymous 401, unknown issues 404, hidden repositories 404", async () => {
    const writer = await t.json("POST", `${repo}/issues/5/pin`, { token: carolToken });
    expect(writer.status).toBe(403);
    expect(writer.body.message).toBe("user should be an owner or a collaborator with admin write of a repository");
    expect((await t.json("DELETE", `${repo}/issues/1/pin`, { token: bobToken })).status).toBe(403);
    expect((await t.json("PATCH", `${repo}/issues/1/pin/2`, { token: carolToken })).status).toBe(403);
    expect((await t.json("POST", `${repo}/issues/5/pin`)).status).toBe(401);
    expect((await t.json("POST", `${repo}/issues/99/pin`, { token: aliceToken })).status).toBe(404);
    expect((await t.json("POST", "/api/v1/repos/alice/secret/issues/1/pin", { token: bobToken })).status).toBe(404);
    expect((await t.json("GET", "/api/v1/repos/alice/secret/issues/pinned", { token: bobToken })).status).toBe(404);
    expect((await t.json("GET", "/api/v1/repos/alice/secret/new_pin_allowed")).status).toBe(404);
  });
});

describe("locks", () => {
  test("an admin locks with a reason; the issue says so and the timeline has the event", async () => {
    expect((await t.json("PUT", `${repo}/issues/4/lock`, { token: aliceToken, body: { lock_reason: "Too heated" } })).status).toBe(204);
    expect((await ok("GET", `${repo}/issues/4`, undefined)).is_locked).toBe(true);
    const events = await timelineTypes(4);
    expect(events.map((e) => [e.type, e.body, e.user.login])).toEqual([["lock", "Too heated", "alice"]]);
    // Locking again changes nothing.
    expect((await t.json("PUT", `${repo}/issues/4/lock`, { token: aliceToken })).status).toBe(204);
    expect((await timelineTypes(4)).length).toBe(1);
  });

  test("a locked issue takes comments from writers only", async () => {
    const reader = await t.json("POST", `${repo}/issues/4/comments`, { token: bobToken, body: { body: "hi" } });
    expect(reader.status).toBe(403);
    expect((await t.json("POST", `${repo}/issues/4/comments`, { token: carolToken, body: { body: "hi" } })).status).toBe(201);
  });

  test("unlocking records an event; unlocking again does nothing", async () => {
    expect((await t.json("DELETE", `${repo}/issues/4/lock`, { token: aliceToken })).status).toBe(204);
    expect((await ok("GET", `${repo}/issues/4`, undefined)).is_locked).toBe(false);
    expect((await t.json("DELETE", `${repo}/issues/4/lock`, { token: aliceToken })).status).toBe(204);
    expect((await timelineTypes(4)).map((e) => e.type)).toEqual(["lock", "comment", "unlock"]);
    expect((await t.json("POST", `${repo}/issues/4/comments`, { token: bobToken, body: { body: "back" } })).status).toBe(201);
  });

  test("non-admins 403, anonymous 401, unknown issue 404", async () => {
    const writer = await t.json("PUT", `${repo}/issues/4/lock`, { token: carolToken, body: {} });
    expect(writer.status).toBe(403);
    expect(writer.body.message).toBe("user should be an owner or a collaborator with admin write of a repository");
    expect((await t.json("DELETE", `${repo}/issues/4/lock`, { token: bobToken })).status).toBe(403);
    expect((await t.json("PUT", `${repo}/issues/4/lock`, { body: {} })).status).toBe(401);
    expect((await t.json("PUT", `${repo}/issues/42/lock`, { token: aliceToken, body: {} })).status).toBe(404);
  });
});
