import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { WatchInfo } from "../../src/shapes/repo-social.ts";
import { User } from "../../src/shapes/user.ts";

const t = makeTestApp();
const alice = await t.user("alice");
const aliceToken = t.token(alice);
const bob = await t.user("bob");
const bobToken = t.token(bob);
const carol = await t.user("carol");
const carolToken = t.token(carol);
await t.user("dave");
const root = await t.user("root", { admin: true });
const rootToken = t.token(root);

async function ok(method: string, path: string, token: string | undefined, body?: unknown, status = 200) {
  const r = await t.json(method, path, { token, body });
  expect({ path, status: r.status, body: r.status === status ? undefined : r.body }).toEqual({ path, status, body: undefined });
  return r.body;
}

await ok("POST", "/api/v1/user/repos", aliceToken, { name: "proj" }, 201);
await ok("POST", "/api/v1/user/repos", aliceToken, { name: "secret", private: true }, 201);
const repo = "/api/v1/repos/alice/proj";
await ok("POST", `${repo}/issues`, bobToken, { title: "by bob" }, 201);
await ok("POST", "/api/v1/repos/alice/secret/issues", aliceToken, { title: "hidden" }, 201);
const check = async (token: string) => (await ok("GET", `${repo}/issues/1/subscriptions/check`, token)) as { subscribed: boolean; ignored: boolean };
const subscribers = async () => ((await ok("GET", `${repo}/issues/1/subscriptions`, undefined)) as { login: string }[]).map((u) => u.login);

describe("subscriptions", () => {
  test("check: the poster and the repository's owner (who watches it) follow the issue; others do not", async () => {
    const mine = await ok("GET", `${repo}/issues/1/subscriptions/check`, bobToken);
    expectShape(mine, WatchInfo);
    expect(mine).toMatchObject({
      subscribed: true,
      ignored: false,
      reason: null,
      url: "http://hearth.test/api/v1/repos/alice/proj/issues/1/subscriptions",
      repository_url: "http://hearth.test/api/v1/repos/alice/proj",
    });
    expect((await check(aliceToken)).subscribed).toBe(true);
    expect(await check(carolToken)).toMatchObject({ subscribed: false, ignored: true });
    // Commenting makes a participant.
    await ok("POST", `${repo}/issues/1/comments`, carolToken, { body: "me too" }, 201);
    expect((await check(carolToken)).subscribed).toBe(true);
  });

  test("subscribing oneself: 201, then 200 when nothing changes; the list shows explicit subscribers", async () => {
    expect(await subscribers()).toEqual([]);
    expect((await t.request("PUT", `${repo}/issues/1/subscriptions/bob`, { token: bobToken })).status).toBe(200);
    const carolOut = await t.request("DELETE", `${repo}/issues/1/subscriptions/carol`, { token: carolToken });
    expect(carolOut.status).toBe(201);
    expect((await check(carolToken)).subscribed).toBe(false);
    expect((await t.request("DELETE", `${repo}/issues/1/subscriptions/carol`, { token: carolToken })).status).toBe(200);
    expect((await t.request("PUT", `${repo}/issues/1/subscriptions/carol`, { token: carolToken })).status).toBe(201);
    const list = await t.json("GET", `${repo}/issues/1/subscriptions`);
    expect(list.body.map((u: { login: string }) => u.login)).toEqual(["carol"]);
    expectShape(list.body[0], User);
    expect(list.headers.get("x-total-count")).toBe("1");
  });

  test("a site admin (un)subscribes others; anyone else gets 403 for another user", async () => {
    const denied = await t.json("PUT", `${repo}/issues/1/subscriptions/carol`, { token: bobToken });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe("bob is not permitted to change subscriptions for carol");
    expect((await t.request("DELETE", `${repo}/issues/1/subscriptions/carol`, { token: aliceToken })).status).toBe(403);
    // The repository's owner follows through their watch already: nothing changes (200).
    expect((await t.request("PUT", `${repo}/issues/1/subscriptions/alice`, { token: rootToken })).status).toBe(200);
    expect((await t.request("PUT", `${repo}/issues/1/subscriptions/dave`, { token: rootToken })).status).toBe(201);
    expect(await subscribers()).toEqual(["carol", "dave"]);
    const page = await t.json("GET", `${repo}/issues/1/subscriptions?limit=1&page=2`);
    expect(page.body.map((u: { login: string }) => u.login)).toEqual(["dave"]);
    expect(page.headers.get("x-total-count")).toBe("2");
  });

  test("unknown users and issues are 404, anonymous 401, private repositories 404", async () => {
    expect((await t.request("PUT", `${repo}/issues/1/subscriptions/nobody`, { token: rootToken })).status).toBe(404);
    expect((await t.request("PUT", `${repo}/issues/9/subscriptions/bob`, { token: bobToken })).status).toBe(404);
    expect((await t.request("PUT", `${repo}/issues/1/subscriptions/bob`)).status).toBe(401);
    expect((await t.request("GET", `${repo}/issues/1/subscriptions/check`)).status).toBe(401);
    expect((await t.request("GET", `${repo}/issues/9/subscriptions`)).status).toBe(404);
    expect((await t.request("GET", "/api/v1/repos/alice/secret/issues/1/subscriptions", { token: bobToken })).status).toBe(404);
    expect((await t.request("PUT", "/api/v1/repos/alice/secret/issues/1/subscriptions/bob", { token: bobToken })).status).toBe(404);
  });
});
