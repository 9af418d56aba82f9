import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { User } from "../../src/shapes/user.ts";
import { createUser } from "../../src/services/user/account.ts";

const t = makeTestApp();
const root = await t.user("root", { admin: true });
const rootToken = t.token(root);
const alice = await t.user("alice");
const aliceToken = t.token(alice);
const bob = await t.user("bob");
const bobToken = t.token(bob);

/** A user of the given visibility, with an all-scopes token. */
async function userOf(name: string, visibility: "private" | "limited") {
  const user = await createUser(t.env, {
    username: name,
    email: `${name}@example.com`,
    password: "password123",
    mustChangePassword: false,
    visibility,
  });
  return { user, token: t.token(user) };
}
const carol = await userOf("carol", "private");
const lim = await userOf("lim", "limited");
await t.ok("POST", "/api/v1/orgs", aliceToken, { username: "acme" }, 201);

const status = async (method: string, path: string, token?: string) => (await t.request(method, `/api/v1${path}`, { token })).status;
const logins = (body: { login: string }[]) => body.map((u) => u.login);
const counts = async (name: string) => {
  const u = (await t.json("GET", `/api/v1/users/${name}`, { token: rootToken })).body;
  return { followers: u.followers_count, following: u.following_count };
};

describe("follow, check, unfollow", () => {
  test("both counters move with the follow; repeating either changes nothing", async () => {
    expect(await status("GET", "/user/following/alice", bobToken)).toBe(404);
    expect(await status("PUT", "/user/following/alice", bobToken)).toBe(204);
    expect(await status("PUT", "/user/following/ALICE", bobToken)).toBe(204);
    expect(await status("GET", "/user/following/alice", bobToken)).toBe(204);
    expect(await counts("alice")).toEqual({ followers: 1, following: 0 });
    expect(await counts("bob")).toEqual({ followers: 0, following: 1 });
    // the doer's own JSON carries the counters too
    expect((await t.json("GET", "/api/v1/user", { token: bobToken })).body.following_count).toBe(1);

    const followers = await t.json("GET", "/api/v1/user/followers", { token: aliceToken });
    expect(followers.status).toBe(200);
    expect(logins(followers.body)).toEqual(["bob"]);
    expect(followers.headers.get("X-Total-Count")).toBe("1");
    expectShape(followers.body[0], User);
    expect(logins((await t.json("GET", "/api/v1/user/following", { token: bobToken })).body)).toEqual(["alice"]);
    expect(logins((await t.json("GET", "/api/v1/users/alice/followers", { token: bobToken })).body)).toEqual(["bob"]);
    expect(logins((await t.json("GET", "/api/v1/users/bob/following", { token: aliceToken })).body)).toEqual(["alice"]);
    expect(await status("GET", "/users/bob/following/alice", aliceToken)).toBe(204);
    expect(await status("GET", "/users/alice/following/bob", aliceToken)).toBe(404);

    expect(await status("DELETE", "/user/following/alice", bobToken)).toBe(204);
    expect(await status("DELETE", "/user/following/alice", bobToken)).toBe(204);
    expect(await status("GET", "/user/following/alice", bobToken)).toBe(404);
    expect(await counts("alice")).toEqual({ followers: 0, following: 0 });
    expect(await counts("bob")).toEqual({ followers: 0, following: 0 });
    expect((await t.json("GET", "/api/v1/user/followers", { token: aliceToken })).body).toEqual([]);
  });

  test("following yourself is accepted and changes nothing, as in Gitea", async () => {
    expect(await status("PUT", "/user/following/bob", bobToken)).toBe(204);
    expect(await status("GET", "/user/following/bob", bobToken)).toBe(404);
    expect(await counts("bob")).toEqual({ followers: 0, following: 0 });
    expect(await status("DELETE", "/user/following/bob", bobToken)).toBe(204);
  });

  test("unknown accounts are 404 on every operation", async () => {
    for (const [method, path] of [
      ["GET", "/user/following/nobody"],
      ["PUT", "/user/following/nobody"],
      ["DELETE", "/user/following/nobody"],
      ["GET", "/users/nobody/followers"],
      ["GET", "/users/nobody/following"],
      ["GET", "/users/nobody/following/alice"],
      ["GET", "/users/alice/following/nobody"],
    ] as const) {
      expect({ method, path, status: await status(method, path, bobToken) }).toEqual({ method, path, status: 404 });
    }
  });

  test("organizations can be followed and list their followers", async () => {
    expect(await status("PUT", "/user/following/acme", bobToken)).toBe(204);
    expect(logins((await t.json("GET", "/api/v1/users/bob/following", { token: aliceToken })).body)).toEqual(["acme"]);
    expect(logins((await t.json("GET", "/api/v1/users/acme/followers", { token: aliceToken })).body)).toEqual(["bob"]);
    expect(await status("GET", "/users/bob/following/acme", aliceToken)).toBe(204);
    expect(await counts("acme")).toEqual({ followers: 1, following: 0 });
    expect(await status("DELETE", "/user/following/acme", bobToken)).toBe(204);
  });

  test("pages carry the filtered total in X-Total-Count", async () => {
    for (const token of [rootToken, bobToken, lim.token]) {
      expect(await status("PUT", "/user/following/alice", token)).toBe(204);
    }
    const page = await t.json("GET", "/api/v1/users/alice/followers?limit=1&page=2", { token: aliceToken });
    expect(page.headers.get("X-Total-Count")).toBe("3");
    expect(logins(page.body)).toEqual(["bob"]);
    expect(page.headers.get("Link")).toBeNull();
    for (const token of [rootToken, bobToken, lim.token]) {
      expect(await status("DELETE", "/user/following/alice", token)).toBe(204);
    }
  });
});

describe("who sees what", () => {
  test("signing in and the user scope are required; reading needs read:user, following write:user", async () => {
    for (const [method, path] of [
      ["GET", "/user/followers"],
      ["GET", "/user/following"],
      ["GET", "/user/following/alice"],
      ["PUT", "/user/following/alice"],
      ["DELETE", "/user/following/alice"],
      ["GET", "/users/alice/followers"],
      ["GET", "/users/alice/following"],
      ["GET", "/users/alice/following/bob"],
    ] as const) {
      expect({ method, path, status: await status(method, path) }).toEqual({ method, path, status: 401 });
    }
    const reader = t.token(bob, ["read:user"]);
    expect(await status("GET", "/user/following", reader)).toBe(200);
    expect(await status("PUT", "/user/following/alice", reader)).toBe(403);
    expect(await status("GET", "/user/following", t.token(bob, ["read:repository"]))).toBe(403);
    expect(await status("PUT", "/user/following/alice", t.token(bob, ["write:user"]))).toBe(204);
    expect(await status("DELETE", "/user/following/alice", t.token(bob, ["write:user"]))).toBe(204);
  });

  test("a private follower is listed only to admins, itself and the user it follows", async () => {
    expect(await status("PUT", "/user/following/alice", carol.token)).toBe(204);
    expect(await status("PUT", "/user/following/alice", bobToken)).toBe(204);
    expect(await counts("alice")).toEqual({ followers: 2, following: 0 });

    const byBob = await t.json("GET", "/api/v1/users/alice/followers", { token: bobToken });
    expect(logins(byBob.body)).toEqual(["bob"]);
    expect(byBob.headers.get("X-Total-Count")).toBe("1");
    for (const token of [aliceToken, rootToken, carol.token]) {
      expect(logins((await t.json("GET", "/api/v1/users/alice/followers", { token })).body)).toEqual(["bob", "carol"]);
    }
    // nor can the follow be probed through the check
    expect(await status("GET", "/users/carol/following/alice", bobToken)).toBe(404);
    expect(await status("GET", "/users/carol/following/alice", aliceToken)).toBe(204);
    expect(await status("GET", "/users/alice/followers", carol.token)).toBe(200);
  });

  test("a private account's own lists and a follow of it are 404 to those who cannot see it", async () => {
    expect(await status("GET", "/users/carol/following", bobToken)).toBe(404);
    expect(await status("GET", "/users/carol/followers", bobToken)).toBe(404);
    expect(await status("GET", "/users/carol/following", rootToken)).toBe(200);
    expect(await status("PUT", "/user/following/carol", bobToken)).toBe(404);
    expect(await counts("carol")).toEqual({ followers: 0, following: 1 });
    // carol follows alice, which lets alice see (and follow) her, as Gitea's visibility rule has it
    expect(await status("PUT", "/user/following/carol", aliceToken)).toBe(204);
    expect(await status("GET", "/user/following/carol", aliceToken)).toBe(204);
    expect(await status("DELETE", "/user/following/carol", aliceToken)).toBe(204);
    expect(await status("DELETE", "/user/following/alice", carol.token)).toBe(204);
    expect(await status("DELETE", "/user/following/alice", bobToken)).toBe(204);
  });

  test("a private user is visible to those who share an organization with them, in lists and lookups", async () => {
    await t.ok("POST", "/api/v1/orgs", carol.token, { username: "club" }, 201);
    const [owners] = await t.ok("GET", "/api/v1/orgs/club/teams", carol.token);
    expect(await status("PUT", "/user/following/alice", carol.token)).toBe(204);
    expect(await status("GET", "/users/carol/following", bobToken)).toBe(404);
    expect(logins((await t.json("GET", "/api/v1/users/alice/followers", { token: bobToken })).body)).toEqual([]);

    await t.ok("PUT", `/api/v1/teams/${owners.id}/members/bob`, carol.token, undefined, 204);
    expect(logins((await t.json("GET", "/api/v1/users/alice/followers", { token: bobToken })).body)).toEqual(["carol"]);
    expect(logins((await t.json("GET", "/api/v1/users/carol/following", { token: bobToken })).body)).toEqual(["alice"]);
    expect(await status("GET", "/users/carol/following/alice", bobToken)).toBe(204);
    expect(await status("PUT", "/user/following/carol", bobToken)).toBe(204);
    expect(await status("DELETE", "/user/following/carol", bobToken)).toBe(204);
    expect(await status("DELETE", "/user/following/alice", carol.token)).toBe(204);
  });

  test("a public-only token acts only for public accounts and lists only public ones", async () => {
    expect(await status("PUT", "/user/following/alice", lim.token)).toBe(204);
    expect(await status("PUT", "/user/following/alice", bobToken)).toBe(204);
    const pub = t.token(alice, ["public-only", "read:user"]);
    expect(logins((await t.json("GET", "/api/v1/user/followers", { token: pub })).body)).toEqual(["bob"]);
    expect(logins((await t.json("GET", "/api/v1/user/followers", { token: aliceToken })).body)).toEqual(["bob", "lim"]);
    const limPub = t.token(lim.user, ["public-only", "read:user"]);
    const own = await t.json("GET", "/api/v1/user/following", { token: limPub });
    expect(own.status).toBe(403);
    expect(own.body.message).toBe("token scope is limited to public users");
    expect(await status("GET", "/users/lim/following", pub)).toBe(403);
    expect(await status("GET", "/users/lim/following", aliceToken)).toBe(200);
    expect(await status("DELETE", "/user/following/alice", lim.token)).toBe(204);
    expect(await status("DELETE", "/user/following/alice", bobToken)).toBe(204);
  });
});

describe("deleting an account", () => {
  test("its follows go in both directions and the other accounts' counters follow", async () => {
    const gone = await t.user("gone");
    const goneToken = t.token(gone);
    expect(await status("PUT", "/user/following/alice", goneToken)).toBe(204);
    expect(await status("PUT", "/user/following/gone", bobToken)).toBe(204);
    expect(await counts("alice")).toEqual({ followers: 1, following: 0 });
    expect(await counts("bob")).toEqual({ followers: 0, following: 1 });

    expect(await status("DELETE", "/admin/users/gone", rootToken)).toBe(204);
    expect(await counts("alice")).toEqual({ followers: 0, following: 0 });
    expect(await counts("bob")).toEqual({ followers: 0, following: 0 });
    expect((await t.json("GET", "/api/v1/user/following", { token: bobToken })).body).toEqual([]);
  });

  test("a deleted organization leaves no follow behind", async () => {
    await t.ok("POST", "/api/v1/orgs", aliceToken, { username: "shortlived" }, 201);
    expect(await status("PUT", "/user/following/shortlived", bobToken)).toBe(204);
    expect(await counts("bob")).toEqual({ followers: 0, following: 1 });
    expect(await status("DELETE", "/orgs/shortlived", aliceToken)).toBe(204);
    expect(await counts("bob")).toEqual({ followers: 0, following: 0 });
  });
});
