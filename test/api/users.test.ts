import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { Email, User, UserSettings } from "../../src/shapes/user.ts";

const t = makeTestApp();
const root = await t.user("root", { admin: true });
const rootToken = t.token(root);
const alice = await t.user("alice");
const aliceToken = t.token(alice);
const bob = await t.user("Bob");
const bobToken = t.token(bob);

describe("GET /user and /users/{username}", () => {
  test("the doer sees their own account fields", async () => {
    const r = await t.json("GET", "/api/v1/user", { token: aliceToken });
    expect(r.status).toBe(200);
    expectShape(r.body, User);
    expect(r.body).toMatchObject({ id: alice.id, login: "alice", username: "alice", email: "alice@example.com", active: true });
    expect(r.body.html_url).toBe("http://hearth.test/alice");
    expect(r.body.avatar_url).toBe("http://hearth.test/assets/img/avatar_default.png");
    expect(r.body.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/);
  });

  test("others see the public profile; anonymous callers get the placeholder email", async () => {
    const signed = await t.json("GET", "/api/v1/users/alice", { token: bobToken });
    expect(signed.status).toBe(200);
    expectShape(signed.body, User);
    expect(signed.body.email).toBe("alice@example.com");
    expect(signed.body.is_admin).toBe(false);
    expect(signed.body.active).toBe(false);
    expect(signed.body.last_login).toBe("0001-01-01T00:00:00Z");
    const anon = await t.json("GET", "/api/v1/users/alice");
    expect(anon.body.email).toBe("alice@noreply.localhost");
    const adminView = await t.json("GET", "/api/v1/users/alice", { token: rootToken });
    expect(adminView.body.active).toBe(true);
  });

  test("names are case-insensitive; unknown users are Gitea's 404", async () => {
    expect((await t.json("GET", "/api/v1/users/bob")).body.login).toBe("Bob");
    const r = await t.json("GET", "/api/v1/users/nobody");
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ message: "user redirect does not exist [name: nobody]", url: "http://hearth.test/api/swagger" });
    expect((await t.json("GET", "/api/v1/users/ghost")).status).toBe(404);
  });

  test("hidden email stays hidden from other signed-in users, not from self or admin", async () => {
    await t.json("PATCH", "/api/v1/user/settings", { token: bobToken, body: { hide_email: true } });
    expect((await t.json("GET", "/api/v1/users/bob", { token: aliceToken })).body.email).toBe("bob@noreply.localhost");
    expect((await t.json("GET", "/api/v1/users/bob", { token: rootToken })).body.email).toBe("bob@example.com");
    expect((await t.json("GET", "/api/v1/user", { token: bobToken })).body.email).toBe("bob@example.com");
  });

  test("private users are visible only to themselves and admins; limited ones to signed-in users", async () => {
    await t.user("priv");
    await t.user("lim");
    const edit = (name: string, visibility: string) =>
      t.json("PATCH", `/api/v1/admin/users/${name}`, { token: rootToken, body: { login_name: name, source_id: 0, visibility } });
    expect((await edit("priv", "private")).body.visibility).toBe("private");
    expect((await edit("lim", "limited")).body.visibility).toBe("limited");
    expect((await t.json("GET", "/api/v1/users/priv", { token: aliceToken })).status).toBe(404);
    expect((await t.json("GET", "/api/v1/users/priv", { token: rootToken })).status).toBe(200);
    expect((await t.json("GET", "/api/v1/users/lim")).status).toBe(404);
    expect((await t.json("GET", "/api/v1/users/lim", { token: aliceToken })).status).toBe(200);
  });
});

describe("GET /users/search", () => {
  test("finds by name and full name, with Gitea's envelope and paging headers", async () => {
    for (const n of ["searchme1", "searchme2", "searchme3"]) await t.user(n);
    const r = await t.json("GET", "/api/v1/users/search?q=searchme&limit=2");
    expect(r.status).toBe(200);
    expect(r.body.ok).toBe(true);
    expect(r.body.data.map((u: { login: string }) => u.login)).toEqual(["searchme1", "searchme2"]);
    for (const u of r.body.data) expectShape(u, User);
    expect(r.headers.get("X-Total-Count")).toBe("3");
    expect(r.headers.get("Link")).toContain('rel="next"');
    const past = await t.json("GET", "/api/v1/users/search?q=searchme&limit=2&page=5");
    expect(past.body).toEqual({ ok: true, data: [] });
  });

  test("includes the system users by their ids", async () => {
    const ghost = await t.json("GET", "/api/v1/users/search?uid=-1");
    expect(ghost.body.data).toHaveLength(1);
    expect(ghost.body.data[0]).toMatchObject({ id: -1, login: "Ghost" });
    const actions = await t.json("GET", "/api/v1/users/search?uid=-2", { token: rootToken });
    expect(actions.body.data[0]).toMatchObject({ id: -2, login: "gitea-actions", full_name: "Gitea Actions" });
    expect(actions.headers.get("X-Total-Count")).toBe("1");
  });

  test("private users are hidden from others; emails match only where visible", async () => {
    const anon = await t.json("GET", "/api/v1/users/search?q=priv");
    expect(anon.body.data).toEqual([]);
    const admin = await t.json("GET", "/api/v1/users/search?q=priv", { token: rootToken });
    expect(admin.body.data.map((u: { login: string }) => u.login)).toEqual(["priv"]);
    // bob hid his email: searching by it finds nothing for alice, but finds him for an admin.
    expect((await t.json("GET", "/api/v1/users/search?q=bob@example", { token: aliceToken })).body.data).toEqual([]);
    expect((await t.json("GET", "/api/v1/users/search?q=bob@example", { token: rootToken })).body.data).toHaveLength(1);
  });

  test("LIKE wildcards in the query are literal", async () => {
    expect((await t.json("GET", "/api/v1/users/search?q=%25")).body.data).toEqual([]);
    expect((await t.json("GET", "/api/v1/users/search?q=_")).body.data).toEqual([]);
  });
});

describe("/user/emails", () => {
  test("list, add (all or nothing), delete", async () => {
    const list = await t.json("GET", "/api/v1/user/emails", { token: aliceToken });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expectShape(list.body[0], Email);
    expect(list.body[0]).toMatchObject({ email: "alice@example.com", primary: true, verified: true });

    const added = await t.json("POST", "/api/v1/user/emails", { token: aliceToken, body: { emails: ["a2@example.com", "A3@example.com"] } });
    expect(added.status).toBe(201);
    expect(added.body.map((e: { email: string }) => e.email)).toEqual(["alice@example.com", "a2@example.com", "A3@example.com"]);

    const taken = await t.json("POST", "/api/v1/user/emails", { token: bobToken, body: { emails: ["b2@example.com", "a3@EXAMPLE.com"] } });
    expect(taken.status).toBe(422);
    expect(taken.body.message).toBe("Email address has been used: a3@EXAMPLE.com");
    const bobs = await t.json("GET", "/api/v1/user/emails", { token: bobToken });
    expect(bobs.body).toHaveLength(1);

    const invalid = await t.json("POST", "/api/v1/user/emails", { token: aliceToken, body: { emails: ["notAnEmail"] } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.message).toBe('Email address "notAnEmail" invalid');
    const empty = await t.json("POST", "/api/v1/user/emails", { token: aliceToken, body: { emails: [] } });
    expect(empty.status).toBe(422);
    expect(empty.body.message).toBe("Email list empty");

    expect((await t.request("DELETE", "/api/v1/user/emails", { token: aliceToken, body: { emails: ["a2@example.com"] } })).status).toBe(204);
    const missing = await t.json("DELETE", "/api/v1/user/emails", { token: aliceToken, body: { emails: ["bob@example.com"] } });
    expect(missing.status).toBe(404);
    const primary = await t.json("DELETE", "/api/v1/user/emails", { token: aliceToken, body: { emails: ["alice@example.com"] } });
    expect(primary.status).toBe(422);
    const after = await t.json("GET", "/api/v1/user/emails", { token: aliceToken });
    expect(after.body.map((e: { email: string }) => e.email)).toEqual(["alice@example.com", "A3@example.com"]);
  });
});

describe("/user/settings", () => {
  test("get and patch only the given fields", async () => {
    const before = await t.json("GET", "/api/v1/user/settings", { token: aliceToken });
    expect(before.status).toBe(200);
    expectShape(before.body, UserSettings);
    expect(before.body.theme).toBe("gitea-auto");
    const r = await t.json("PATCH", "/api/v1/user/settings", {
      token: aliceToken,
      body: { full_name: "Alice A", website: "https://alice.example", language: "en-US", hide_activity: true, location: null },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ full_name: "Alice A", website: "https://alice.example", language: "en-US", hide_activity: true, hide_email: false });
    expect((await t.json("GET", "/api/v1/user", { token: aliceToken })).body.full_name).toBe("Alice A");
  });

  test("bad values are 422 with the Go field name", async () => {
    const url = await t.json("PATCH", "/api/v1/user/settings", { token: aliceToken, body: { website: "not a url" } });
    expect(url.status).toBe(422);
    expect(url.body.message).toBe("[Website]: Url");
    const long = await t.json("PATCH", "/api/v1/user/settings", { token: aliceToken, body: { location: "x".repeat(51) } });
    expect(long.status).toBe(422);
    expect(long.body.message).toBe("[Location]: MaxSize");
    const type = await t.json("PATCH", "/api/v1/user/settings", { token: aliceToken, body: { hide_email: "yes" } });
    expect(type.status).toBe(422);
    expect(type.body.message).toStartWith("[HideEmail]: ");
  });
});
