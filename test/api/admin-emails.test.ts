import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { Email } from "../../src/shapes/user.ts";

const t = makeTestApp();
const root = await t.user("root", { admin: true });
const rootToken = t.token(root);
const alice = await t.user("alice");
const aliceToken = t.token(alice);
const bob = await t.user("Bob", { email: "b@example.com" });
await t.ok("POST", "/api/v1/user/emails", aliceToken, { emails: ["Alice.Work@Other.org"] }, 201);
await t.ok("PATCH", "/api/v1/user/settings", t.token(bob), { full_name: "Robert Zed" });
// An organization has no addresses of its own to list.
await t.ok("POST", "/api/v1/orgs", aliceToken, { username: "acme", email: "acme@example.com" }, 201);

const addresses = (body: { email: string }[]) => body.map((e) => e.email);

describe("GET /admin/emails", () => {
  test("every address of every user, by lowercased address, with its holder", async () => {
    const r = await t.json("GET", "/api/v1/admin/emails", { token: rootToken });
    expect(r.status).toBe(200);
    expect(addresses(r.body)).toEqual(["Alice.Work@Other.org", "alice@example.com", "b@example.com", "root@example.com"]);
    expect(r.headers.get("X-Total-Count")).toBe("4");
    for (const e of r.body) expectShape(e, Email);
    expect(r.body[0]).toEqual({ email: "Alice.Work@Other.org", verified: true, primary: false, user_id: alice.id, username: "alice" });
    expect(r.body[2]).toEqual({ email: "b@example.com", verified: true, primary: true, user_id: bob.id, username: "Bob" });
  });

  test("pages with X-Total-Count and Link; the list ignores q", async () => {
    const r = await t.json("GET", "/api/v1/admin/emails?limit=1&page=2&q=root", { token: rootToken });
    expect(addresses(r.body)).toEqual(["alice@example.com"]);
    expect(r.headers.get("X-Total-Count")).toBe("4");
    expect(r.headers.get("Link")).toContain('rel="next"');
  });
});

describe("GET /admin/emails/search", () => {
  test("q matches the address, the user name or the full name, ignoring case", async () => {
    const search = async (q: string) => {
      const r = await t.json("GET", `/api/v1/admin/emails/search?q=${encodeURIComponent(q)}`, { token: rootToken });
      expect(r.status).toBe(200);
      expect(r.headers.get("X-Total-Count")).toBe(String(r.body.length));
      return addresses(r.body);
    };
    expect(await search("ALICE")).toEqual(["Alice.Work@Other.org", "alice@example.com"]);
    expect(await search("other.ORG")).toEqual(["Alice.Work@Other.org"]);
    expect(await search("zed")).toEqual(["b@example.com"]);
    expect(await search("  bob ")).toEqual(["b@example.com"]);
    expect(await search("")).toHaveLength(4);
    expect(await search("%")).toEqual([]);
    expect(await search("acme")).toEqual([]);
  });
});

describe("who may list addresses", () => {
  test("site admins with a read:admin token; others 403, anonymous 401", async () => {
    for (const path of ["/api/v1/admin/emails", "/api/v1/admin/emails/search?q=a"]) {
      expect((await t.json("GET", path)).status).toBe(401);
      const user = await t.json("GET", path, { token: aliceToken });
      expect(user.status).toBe(403);
      expect(user.body.message).toBe("user should be the site admin");
      expect((await t.json("GET", path, { token: t.token(root, ["read:user"]) })).status).toBe(403);
      expect((await t.json("GET", path, { token: t.token(root, ["read:admin"]) })).status).toBe(200);
    }
  });
});
