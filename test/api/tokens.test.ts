import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { AccessToken } from "../../src/shapes/user.ts";
import { insertToken } from "../../src/models/token.ts";
import { hashToken } from "../../src/crypto/token.ts";

const t = makeTestApp();
const admin = await t.user("root", { admin: true, password: "root-password" });
const alice = await t.user("alice", { password: "alice-password" });
await t.user("bob", { password: "bob-password" });
const asAlice = { basic: ["alice", "alice-password"] as [string, string] };

describe("access tokens", () => {
  test("create returns the token once, normalized scopes, Gitea's fields", async () => {
    const r = await t.json("POST", "/api/v1/users/alice/tokens", {
      ...asAlice,
      body: { name: "ci", scopes: ["read:user", "write:repository", "read:user", "write:user"] },
    });
    expect(r.status).toBe(201);
    expectShape(r.body, AccessToken);
    expect(r.body.sha1).toMatch(/^[0-9a-f]{40}$/);
    expect(r.body.token_last_eight).toBe(r.body.sha1.slice(-8));
    expect(r.body.scopes).toEqual(["write:repository", "write:user"]);
    const use = await t.json("GET", "/api/v1/user", { token: r.body.sha1 });
    expect(use.body.login).toBe("alice");
  });

  test("list hides the token and paginates", async () => {
    for (const name of ["p1", "p2", "p3"]) {
      await t.json("POST", "/api/v1/users/alice/tokens", { ...asAlice, body: { name, scopes: ["read:user"] } });
    }
    const all = await t.json("GET", "/api/v1/users/alice/tokens", asAlice);
    expect(all.status).toBe(200);
    expect(all.body.length).toBeGreaterThanOrEqual(4);
    for (const tok of all.body) {
      expectShape(tok, AccessToken);
      expect(tok.sha1).toBe("");
    }
    const page = await t.json("GET", "/api/v1/users/alice/tokens?limit=2&page=2", asAlice);
    expect(page.body.length).toBe(2);
    expect(page.headers.get("X-Total-Count")).toBe(String(all.body.length));
    expect(page.headers.get("Link")).toContain('rel="first"');
    const past = await t.json("GET", "/api/v1/users/alice/tokens?limit=2&page=99", asAlice);
    expect(past.status).toBe(200);
    expect(past.body).toEqual([]);
  });

  test("Gitea's errors: duplicate name, bad scope, no scope, missing name", async () => {
    const dup = await t.json("POST", "/api/v1/users/alice/tokens", { ...asAlice, body: { name: "ci", scopes: ["all"] } });
    expect(dup.status).toBe(400);
    expect(dup.body.message).toBe("access token name has been used already");
    const bad = await t.json("POST", "/api/v1/users/alice/tokens", { ...asAlice, body: { name: "b", scopes: ["read:everything"] } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("invalid access token scope provided: invalid access token scope: read:everything");
    const none = await t.json("POST", "/api/v1/users/alice/tokens", { ...asAlice, body: { name: "n" } });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe("access token must have a scope");
    const noName = await t.json("POST", "/api/v1/users/alice/tokens", { ...asAlice, body: { scopes: ["all"] } });
    expect(noName.status).toBe(422);
    expect(noName.body.message).toBe("[Name]: Required");
    const wrongType = await t.json("POST", "/api/v1/users/alice/tokens", { ...asAlice, body: { name: 5, scopes: "all" } });
    expect(wrongType.status).toBe(422);
  });

  test("delete by id and by name; another user's id is not found", async () => {
    const a = await t.json("POST", "/api/v1/users/alice/tokens", { ...asAlice, body: { name: "del-id", scopes: ["all"] } });
    const b = await t.json("POST", "/api/v1/users/alice/tokens", { ...asAlice, body: { name: "del-name", scopes: ["all"] } });
    const bobs = await t.json("POST", "/api/v1/users/bob/tokens", { basic: ["bob", "bob-password"], body: { name: "x", scopes: ["all"] } });
    expect((await t.request("DELETE", `/api/v1/users/alice/tokens/${bobs.body.id}`, asAlice)).status).toBe(404);
    expect((await t.request("DELETE", `/api/v1/users/alice/tokens/${a.body.id}`, asAlice)).status).toBe(204);
    expect((await t.json("GET", "/api/v1/user", { token: a.body.sha1 })).status).toBe(401);
    expect((await t.request("DELETE", "/api/v1/users/alice/tokens/del-name", asAlice)).status).toBe(204);
    expect((await t.json("GET", "/api/v1/user", { token: b.body.sha1 })).status).toBe(401);
    expect((await t.request("DELETE", "/api/v1/users/alice/tokens/del-name", asAlice)).status).toBe(404);
    expect((await t.json("GET", "/api/v1/user", { token: bobs.body.sha1 })).status).toBe(200);
  });

  test("token management needs basic auth, not a token header", async () => {
    const tok = t.token(alice, ["all"]);
    const r = await t.json("GET", "/api/v1/users/alice/tokens", { token: tok });
    expect(r.status).toBe(401);
    expect(r.body.message).toBe("auth required");
    expect((await t.json("GET", "/api/v1/users/alice/tokens", { basic: ["alice", tok] })).status).toBe(200);
  });

  test("a token sent as basic password still needs the user scope", async () => {
    const readOnly = t.token(alice, ["read:repository"]);
    const r = await t.json("GET", "/api/v1/users/alice/tokens", { basic: ["alice", readOnly] });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe(
      "token does not have at least one of required scope(s), required=[read:user], token scope=read:repository",
    );
  });

  test("an admin may list, create and delete another user's tokens; others may not", async () => {
    const asRoot = { basic: ["root", "root-password"] as [string, string] };
    const made = await t.json("POST", "/api/v1/users/bob/tokens", { ...asRoot, body: { name: "by-admin", scopes: ["read:user"] } });
    expect(made.status).toBe(201);
    expect((await t.json("GET", "/api/v1/user", { token: made.body.sha1 })).body.login).toBe("bob");
    const listed = await t.json("GET", "/api/v1/users/bob/tokens", asRoot);
    expect(listed.body.map((x: { name: string }) => x.name)).toContain("by-admin");
    expect((await t.request("DELETE", "/api/v1/users/bob/tokens/by-admin", asRoot)).status).toBe(204);

    for (const [method, body] of [["GET", undefined], ["POST", { name: "evil", scopes: ["all"] }]] as const) {
      const r = await t.json(method, "/api/v1/users/bob/tokens", { ...asAlice, body });
      expect(r.status).toBe(403);
      expect(r.body.message).toBe("doer should be the site admin or be same as the contextUser");
    }
    expect((await t.request("DELETE", "/api/v1/users/bob/tokens/x", asAlice)).status).toBe(403);
    const anon = await t.json("GET", "/api/v1/users/bob/tokens");
    expect(anon.status).toBe(403);
    expect((await t.json("GET", "/api/v1/users/nobody/tokens", asRoot)).status).toBe(404);
  });

  test("a token stored before scopes existed reads as all", async () => {
    const plain = "ab".repeat(20);
    insertToken(t.env.db, {
      uid: admin.id,
      name: "legacy",
      tokenHash: hashToken(plain),
      tokenLastEight: plain.slice(-8),
      scope: "",
      createdUnix: 1,
      updatedUnix: 1,
    });
    const r = await t.json("GET", "/api/v1/admin/users", { token: plain });
    expect(r.status).toBe(200);
    const listed = await t.json("GET", "/api/v1/users/root/tokens", { basic: ["root", "root-password"] });
    expect(listed.body.find((x: { name: string }) => x.name === "legacy").scopes).toEqual(["all"]);
  });
});

describe("scopes on routes", () => {
  test("read scope reads, write scope is needed to change", async () => {
    const reader = t.token(alice, ["read:user"]);
    expect((await t.json("GET", "/api/v1/user/settings", { token: reader })).status).toBe(200);
    const patch = await t.json("PATCH", "/api/v1/user/settings", { token: reader, body: { location: "x" } });
    expect(patch.status).toBe(403);
    expect(patch.body.message).toContain("required=[write:user]");
    const writer = t.token(alice, ["write:user"]);
    expect((await t.json("PATCH", "/api/v1/user/settings", { token: writer, body: { location: "x" } })).status).toBe(200);
  });

  test("public-only tokens are refused on account endpoints and see only public users", async () => {
    const pub = t.token(alice, ["public-only", "read:user"]);
    const r = await t.json("GET", "/api/v1/user/emails", { token: pub });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe("this endpoint is not available for public-only tokens");
    expect((await t.json("GET", "/api/v1/users/bob", { token: pub })).status).toBe(200);
  });

  test("public routes have no scope check", async () => {
    const narrow = t.token(alice, ["read:issue"]);
    expect((await t.json("GET", "/api/v1/version", { token: narrow })).status).toBe(200);
    expect((await t.json("GET", "/api/v1/settings/api", { token: narrow })).status).toBe(200);
  });
});
