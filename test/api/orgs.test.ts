import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { Organization, OrganizationPermissions } from "../../src/shapes/org.ts";

const t = makeTestApp();
const root = await t.user("root", { admin: true });
const rootToken = t.token(root);
const alice = await t.user("alice");
const aliceToken = t.token(alice);
const bob = await t.user("bob");
const bobToken = t.token(bob);
const carol = await t.user("carol");
const carolToken = t.token(carol);

async function createOrg(token: string, body: Record<string, unknown>) {
  const r = await t.json("POST", "/api/v1/orgs", { token, body });
  expect(r.status).toBe(201);
  return r.body;
}

const names = (list: { name?: string; login?: string }[]) => list.map((x) => x.name ?? x.login);

await createOrg(aliceToken, { username: "pubco", full_name: "Public Co", email: "hello@pubco.test", website: "https://pubco.test" });
await createOrg(aliceToken, { username: "limco", visibility: "limited" });
await createOrg(aliceToken, { username: "privco", visibility: "private" });

describe("create", () => {
  test("the creator gets the Organization back, with the email and Gitea's defaults", async () => {
    const r = await t.json("POST", "/api/v1/orgs", {
      token: bobToken,
      body: { username: "Bobs-Shop", description: "d", location: "here", repo_admin_change_team_access: true },
    });
    expect(r.status).toBe(201);
    expectShape(r.body, Organization);
    expect(r.body).toMatchObject({
      name: "Bobs-Shop",
      username: "Bobs-Shop",
      description: "d",
      location: "here",
      visibility: "public",
      repo_admin_change_team_access: true,
    });
  });

  test("bad input: missing, invalid, reserved, taken names and bad visibility get 422", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, "[Username]: Required"],
      [{ username: "-bad" }, "[Username]: invalid username"],
      [{ username: "a".repeat(41) }, "[Username]: MaxSize"],
      [{ username: "api" }, "name is reserved [name: api]"],
      [{ username: "x.keys" }, "name pattern is not allowed [pattern: *.keys]"],
      [{ username: "ALICE" }, "user already exists [name: ALICE]"],
      [{ username: "PubCo" }, "user already exists [name: PubCo]"],
      [{ username: "neworg", visibility: "secret" }, "[Visibility]: In"],
      [{ username: "neworg", website: "not a url" }, "[Website]: Url"],
    ];
    for (const [body, message] of cases) {
      const r = await t.json("POST", "/api/v1/orgs", { token: bobToken, body });
      expect({ body, status: r.status, message: r.body.message }).toEqual({ body, status: 422, message });
    }
  });

  test("anonymous callers get 401; accounts not allowed to create organizations get 403", async () => {
    expect((await t.json("POST", "/api/v1/orgs", { body: { username: "anon" } })).status).toBe(401);
    await t.json("PATCH", "/api/v1/admin/users/carol", {
      token: rootToken,
      body: { login_name: "carol", allow_create_organization: false },
    });
    const r = await t.json("POST", "/api/v1/orgs", { token: carolToken, body: { username: "carolco" } });
    expect(r.status).toBe(403);
    await t.json("PATCH", "/api/v1/admin/users/carol", {
      token: rootToken,
      body: { login_name: "carol", allow_create_organization: true },
    });
  });

  test("a token without the organization scope is refused", async () => {
    const token = t.token(alice, ["write:repository"]);
    expect((await t.json("POST", "/api/v1/orgs", { token, body: { username: "scoped" } })).status).toBe(403);
  });

  test("an admin creates an organization for a user, who owns it; email and team-access flag are not taken", async () => {
    const r = await t.json("POST", "/api/v1/admin/users/carol/orgs", {
      token: rootToken,
      body: { username: "carolco", email: "c@c.test", repo_admin_change_team_access: true },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: "carolco", email: "", repo_admin_change_team_access: false });
    const perms = await t.json("GET", "/api/v1/users/carol/orgs/carolco/permissions", { token: carolToken });
    expect(perms.body.is_owner).toBe(true);
    expect((await t.json("POST", "/api/v1/admin/users/carol/orgs", { token: aliceToken, body: { username: "x1" } })).status).toBe(403);
    expect((await t.json("POST", "/api/v1/admin/users/nobody/orgs", { token: rootToken, body: { username: "x2" } })).status).toBe(404);
  });
});

describe("read and visibility", () => {
  test("GET /orgs/{org}: the email only to signed-in callers", async () => {
    const anon = await t.json("GET", "/api/v1/orgs/pubco");
    expect(anon.status).toBe(200);
    expectShape(anon.body, Organization);
    expect(anon.body.email).toBe("");
    expect(anon.body.full_name).toBe("Public Co");
    const signed = await t.json("GET", "/api/v1/orgs/PUBCO", { token: bobToken });
    expect(signed.body.email).toBe("hello@pubco.test");
    expect(signed.body.name).toBe("pubco");
  });

  test("limited organizations are hidden from anonymous callers, private ones from non-members", async () => {
    const cases: [string, string | undefined, number][] = [
      ["limco", undefined, 404],
      ["limco", bobToken, 200],
      ["privco", undefined, 404],
      ["privco", bobToken, 404],
      ["privco", aliceToken, 200],
      ["privco", rootToken, 200],
      ["nosuch", rootToken, 404],
    ];
    for (const [org, token, status] of cases) {
      const r = await t.json("GET", `/api/v1/orgs/${org}`, { token });
      expect({ org, token, status: r.status }).toEqual({ org, token, status });
    }
  });

  test("GET /orgs lists public to anonymous, adds limited for signed-in, all for admins", async () => {
    const anon = await t.json("GET", "/api/v1/orgs");
    expect(names(anon.body)).toEqual(["Bobs-Shop", "carolco", "pubco"]);
    expect(anon.headers.get("x-total-count")).toBe("3");
    const signed = await t.json("GET", "/api/v1/orgs", { token: bobToken });
    expect(names(signed.body)).toEqual(["Bobs-Shop", "carolco", "limco", "pubco"]);
    const admin = await t.json("GET", "/api/v1/orgs", { token: rootToken });
    expect(names(admin.body)).toEqual(["Bobs-Shop", "carolco", "limco", "privco", "pubco"]);
    const paged = await t.json("GET", "/api/v1/orgs?limit=2&page=2", { token: rootToken });
    expect(names(paged.body)).toEqual(["limco", "privco"]);
    expect(paged.headers.get("link")).toContain('rel="next"');
  });

  test("GET /admin/orgs: everything, for site admins only", async () => {
    const r = await t.json("GET", "/api/v1/admin/orgs", { token: rootToken });
    expect(names(r.body)).toEqual(["Bobs-Shop", "carolco", "limco", "privco", "pubco"]);
    expect((await t.json("GET", "/api/v1/admin/orgs", { token: aliceToken })).status).toBe(403);
  });

  test("GET /user/orgs: the doer's own organizations, whatever their visibility", async () => {
    const r = await t.json("GET", "/api/v1/user/orgs", { token: aliceToken });
    expect(names(r.body)).toEqual(["limco", "privco", "pubco"]);
    expect((await t.json("GET", "/api/v1/user/orgs")).status).toBe(401);
  });

  test("GET /users/{u}/orgs: others see only public organizations with a public membership", async () => {
    const self = await t.json("GET", "/api/v1/users/alice/orgs", { token: aliceToken });
    expect(names(self.body)).toEqual(["limco", "privco", "pubco"]);
    const admin = await t.json("GET", "/api/v1/users/alice/orgs", { token: rootToken });
    expect(names(admin.body)).toEqual(["limco", "privco", "pubco"]);
    const other = await t.json("GET", "/api/v1/users/alice/orgs", { token: bobToken });
    expect(names(other.body)).toEqual([]);
    await t.json("PUT", "/api/v1/orgs/pubco/public_members/alice", { token: aliceToken });
    await t.json("PUT", "/api/v1/orgs/privco/public_members/alice", { token: aliceToken });
    const after = await t.json("GET", "/api/v1/users/alice/orgs", { token: bobToken });
    expect(names(after.body)).toEqual(["pubco"]);
    await t.json("DELETE", "/api/v1/orgs/privco/public_members/alice", { token: aliceToken });
  });

  test("a public-only token sees public organizations only", async () => {
    const token = t.token(alice, ["public-only", "read:organization", "read:user"]);
    expect(names((await t.json("GET", "/api/v1/user/orgs", { token })).body)).toEqual(["pubco"]);
    const r = await t.json("GET", "/api/v1/orgs/privco", { token });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe("token scope is limited to public orgs");
  });
});

describe("edit and delete", () => {
  test("owners edit; unsent text fields are cleared as in Gitea, email and visibility kept unless given", async () => {
    await createOrg(aliceToken, { username: "editco", full_name: "Edit", email: "e@e.test", location: "L" });
    const r = await t.json("PATCH", "/api/v1/orgs/editco", {
      token: aliceToken,
      body: { description: "new", visibility: "limited", repo_admin_change_team_access: true },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      full_name: "",
      location: "",
      description: "new",
      email: "e@e.test",
      visibility: "limited",
      repo_admin_change_team_access: true,
    });
    const again = await t.json("PATCH", "/api/v1/orgs/editco", { token: aliceToken, body: { email: "x@e.test" } });
    expect(again.body).toMatchObject({ email: "x@e.test", visibility: "limited", repo_admin_change_team_access: true });
  });

  test("non-owners get 403, bad values 422, unknown organizations 404", async () => {
    const r = await t.json("PATCH", "/api/v1/orgs/editco", { token: bobToken, body: { description: "x" } });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe("Must be an organization owner");
    expect((await t.json("PATCH", "/api/v1/orgs/editco", { token: aliceToken, body: { visibility: "x" } })).status).toBe(422);
    expect((await t.json("PATCH", "/api/v1/orgs/nosuch", { token: aliceToken, body: {} })).status).toBe(404);
    expect((await t.json("PATCH", "/api/v1/orgs/editco", { token: rootToken, body: { location: "admin" } })).status).toBe(200);
  });

  test("delete: refused while the organization owns repositories, then gone with its memberships", async () => {
    const repo = await t.json("POST", "/api/v1/orgs/editco/repos", { token: aliceToken, body: { name: "r" } });
    expect(repo.status).toBe(201);
    const refused = await t.json("DELETE", "/api/v1/orgs/editco", { token: aliceToken });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(/^user still has ownership of repositories \[uid: \d+\]$/);
    expect((await t.json("DELETE", "/api/v1/orgs/editco", { token: bobToken })).status).toBe(403);
    expect((await t.json("DELETE", "/api/v1/repos/editco/r", { token: aliceToken })).status).toBe(204);
    expect((await t.json("DELETE", "/api/v1/orgs/editco", { token: aliceToken })).status).toBe(204);
    expect((await t.json("GET", "/api/v1/orgs/editco", { token: rootToken })).status).toBe(404);
    expect(names((await t.json("GET", "/api/v1/user/orgs", { token: aliceToken })).body)).not.toContain("editco");
  });
});

describe("members", () => {
  test("members see all members; others only public ones; anonymous may read public_members", async () => {
    const members = await t.json("GET", "/api/v1/orgs/pubco/members", { token: aliceToken });
    expect(members.status).toBe(200);
    expect(names(members.body)).toEqual(["alice"]);
    await t.json("DELETE", "/api/v1/orgs/pubco/public_members/alice", { token: aliceToken });
    expect(names((await t.json("GET", "/api/v1/orgs/pubco/members", { token: bobToken })).body)).toEqual([]);
    expect(names((await t.json("GET", "/api/v1/orgs/pubco/public_members")).body)).toEqual([]);
    expect(names((await t.json("GET", "/api/v1/orgs/pubco/public_members", { token: rootToken })).body)).toEqual(["alice"]);
    await t.json("PUT", "/api/v1/orgs/pubco/public_members/alice", { token: aliceToken });
    expect(names((await t.json("GET", "/api/v1/orgs/pubco/members", { token: bobToken })).body)).toEqual(["alice"]);
    expect(names((await t.json("GET", "/api/v1/orgs/pubco/public_members")).body)).toEqual(["alice"]);
    expect((await t.json("GET", "/api/v1/orgs/pubco/members")).status).toBe(401);
  });

  test("members of a private organization stay hidden from outsiders", async () => {
    expect((await t.json("GET", "/api/v1/orgs/privco/members", { token: bobToken })).status).toBe(404);
    expect((await t.json("GET", "/api/v1/orgs/privco/public_members")).status).toBe(404);
    expect((await t.json("GET", "/api/v1/orgs/privco/members/alice", { token: bobToken })).status).toBe(404);
  });

  test("GET /orgs/{org}/members/{u}: 204/404 for members, 303 to the public check for others", async () => {
    expect((await t.json("GET", "/api/v1/orgs/pubco/members/alice", { token: aliceToken })).status).toBe(204);
    expect((await t.json("GET", "/api/v1/orgs/pubco/members/bob", { token: aliceToken })).status).toBe(404);
    expect((await t.json("GET", "/api/v1/orgs/pubco/members/bob", { token: rootToken })).status).toBe(404);
    expect((await t.json("GET", "/api/v1/orgs/pubco/members/bob", { token: bobToken })).status).toBe(404);
    const other = await t.request("GET", "/api/v1/orgs/pubco/members/alice", { token: bobToken });
    expect(other.status).toBe(303);
    expect(other.headers.get("location")).toBe("/api/v1/orgs/pubco/public_members/alice");
    expect((await t.json("GET", "/api/v1/orgs/pubco/members/nobody", { token: aliceToken })).status).toBe(404);
  });

  test("public_members/{u}: 204 only for a public membership; only the member changes it", async () => {
    expect((await t.json("GET", "/api/v1/orgs/pubco/public_members/alice")).status).toBe(204);
    expect((await t.json("GET", "/api/v1/orgs/pubco/public_members/bob")).status).toBe(404);
    const notMember = await t.json("PUT", "/api/v1/orgs/pubco/public_members/alice", { token: bobToken });
    expect(notMember.status).toBe(403);
    expect(notMember.body.message).toBe("Must be an organization member");
    const admin = await t.json("DELETE", "/api/v1/orgs/pubco/public_members/alice", { token: rootToken });
    expect(admin.status).toBe(403);
    expect(admin.body.message).toBe("Cannot conceal another member");
    expect((await t.json("GET", "/api/v1/orgs/pubco/public_members/alice")).status).toBe(204);
  });

  test("the last owner cannot be removed; non-owners cannot remove anyone", async () => {
    const last = await t.json("DELETE", "/api/v1/orgs/pubco/members/alice", { token: aliceToken });
    expect(last.status).toBe(422);
    expect(last.body.message).toBe(`user is the last member of owner team [uid: ${alice.id}]`);
    expect((await t.json("DELETE", "/api/v1/orgs/pubco/members/alice", { token: bobToken })).status).toBe(403);
    // Removing someone who is not a member is a no-op, as in Gitea.
    expect((await t.json("DELETE", "/api/v1/orgs/pubco/members/bob", { token: aliceToken })).status).toBe(204);
  });
});

describe("permissions in an organization", () => {
  test("owner, stranger; 404 for invisible or unknown organizations", async () => {
    const owner = await t.json("GET", "/api/v1/users/alice/orgs/pubco/permissions", { token: bobToken });
    expect(owner.status).toBe(200);
    expectShape(owner.body, OrganizationPermissions);
    expect(owner.body).toEqual({ is_owner: true, is_admin: true, can_write: true, can_read: true, can_create_repository: true });
    const stranger = await t.json("GET", "/api/v1/users/bob/orgs/pubco/permissions", { token: bobToken });
    expect(stranger.body).toEqual({ is_owner: false, is_admin: false, can_write: false, can_read: false, can_create_repository: false });
    expect((await t.json("GET", "/api/v1/users/alice/orgs/privco/permissions", { token: bobToken })).status).toBe(404);
    const unknown = await t.json("GET", "/api/v1/users/alice/orgs/nosuch/permissions", { token: bobToken });
    expect(unknown.status).toBe(404);
    expect((await t.json("GET", "/api/v1/users/nobody/orgs/pubco/permissions", { token: bobToken })).status).toBe(404);
    expect((await t.json("GET", "/api/v1/users/alice/orgs/pubco/permissions")).status).toBe(401);
  });
});

describe("avatar", () => {
  const png = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
    "base64",
  );

  test("upload serves the image at avatar_url; delete goes back to the default", async () => {
    const up = await t.json("POST", "/api/v1/orgs/pubco/avatar", { token: aliceToken, body: { image: png.toString("base64") } });
    expect(up.status).toBe(204);
    const org = (await t.json("GET", "/api/v1/orgs/pubco")).body;
    expect(org.avatar_url).toMatch(/^http:\/\/hearth\.test\/avatars\/[0-9a-f]{64}$/);
    const img = await t.request("GET", new URL(org.avatar_url).pathname);
    expect(img.status).toBe(200);
    expect(img.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await img.arrayBuffer()).equals(png)).toBe(true);
    expect((await t.json("DELETE", "/api/v1/orgs/pubco/avatar", { token: aliceToken })).status).toBe(204);
    expect((await t.json("GET", "/api/v1/orgs/pubco")).body.avatar_url).not.toContain("/avatars/");
    expect((await t.request("GET", new URL(org.avatar_url).pathname)).status).toBe(404);
  });

  test("bad base64 is 400, a non-image 422, a non-owner 403", async () => {
    const bad = await t.json("POST", "/api/v1/orgs/pubco/avatar", { token: aliceToken, body: { image: "Inva!id" } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("illegal base64 data at input byte 4");
    const text = Buffer.from("# README\n").toString("base64");
    expect((await t.json("POST", "/api/v1/orgs/pubco/avatar", { token: aliceToken, body: { image: text } })).status).toBe(422);
    expect((await t.json("POST", "/api/v1/orgs/pubco/avatar", { token: bobToken, body: { image: png.toString("base64") } })).status).toBe(403);
  });
});

describe("deleting users who belong to organizations", () => {
  test("without purge: refused while the user belongs to an organization; an org name is not a user", async () => {
    const dave = await t.user("dave");
    const daveToken = t.token(dave);
    await createOrg(daveToken, { username: "daveco" });
    const r = await t.json("DELETE", "/api/v1/admin/users/dave", { token: rootToken });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(`user still has membership of organizations [uid: ${dave.id}]`);
    const org = await t.json("DELETE", "/api/v1/admin/users/daveco", { token: rootToken });
    expect(org.status).toBe(422);
    expect(org.body.message).toBe("daveco is an organization not a user");
    expect((await t.json("GET", "/api/v1/users/dave", { token: rootToken })).status).toBe(200);
  });

  test("purge: organizations the user solely owns go with their repositories; shared ones stay", async () => {
    const erin = await t.user("erin");
    const erinToken = t.token(erin);
    const frank = await t.user("frank");
    await createOrg(erinToken, { username: "erinsolo" });
    await createOrg(erinToken, { username: "erinshared" });
    for (const org of ["erinsolo", "erinshared"]) {
      expect((await t.json("POST", `/api/v1/orgs/${org}/repos`, { token: erinToken, body: { name: "code", auto_init: true } })).status).toBe(201);
    }
    // frank co-owns erinshared and has nothing to do with erinsolo.
    const owners = (await t.json("GET", "/api/v1/orgs/erinshared/teams", { token: erinToken })).body.find(
      (x: { name: string }) => x.name === "Owners",
    );
    expect((await t.json("PUT", `/api/v1/teams/${owners.id}/members/frank`, { token: erinToken })).status).toBe(204);

    expect((await t.json("DELETE", "/api/v1/admin/users/erin?purge=true", { token: rootToken })).status).toBe(204);
    expect((await t.json("GET", "/api/v1/users/erin", { token: rootToken })).status).toBe(404);
    expect((await t.json("GET", "/api/v1/orgs/erinsolo", { token: rootToken })).status).toBe(404);
    expect((await t.json("GET", "/api/v1/repos/erinsolo/code", { token: rootToken })).status).toBe(404);
    expect((await t.json("GET", "/api/v1/orgs/erinshared", { token: rootToken })).status).toBe(200);
    expect((await t.json("GET", "/api/v1/repos/erinshared/code", { token: rootToken })).status).toBe(200);
    const members = await t.json("GET", "/api/v1/orgs/erinshared/members", { token: rootToken });
    expect(names(members.body)).toEqual(["frank"]);
    expect(frank.id).toBeGreaterThan(0);
  });
});

describe("user avatar", () => {
  test("a user uploads and deletes their own avatar; avatar_url follows", async () => {
    const gif = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
    expect((await t.json("POST", "/api/v1/user/avatar", { token: bobToken, body: { image: gif.toString("base64") } })).status).toBe(204);
    const url = (await t.json("GET", "/api/v1/user", { token: bobToken })).body.avatar_url;
    expect(url).toMatch(/\/avatars\/[0-9a-f]{64}$/);
    const img = await t.request("GET", new URL(url).pathname);
    expect(img.headers.get("content-type")).toBe("image/gif");
    expect((await t.json("DELETE", "/api/v1/user/avatar", { token: bobToken })).status).toBe(204);
    expect((await t.json("GET", "/api/v1/user", { token: bobToken })).body.avatar_url).not.toContain("/avatars/");
    expect((await t.json("POST", "/api/v1/user/avatar", { body: { image: gif.toString("base64") } })).status).toBe(401);
  });
});

describe("organizations under /users", () => {
  test("GET /users/{org} and /users/{org}/repos answer for organizations the viewer may see", async () => {
    const org = await t.json("GET", "/api/v1/users/pubco");
    expect(org.status).toBe(200);
    expect(org.body.login).toBe("pubco");
    expect((await t.json("GET", "/api/v1/users/privco", { token: bobToken })).status).toBe(404);
    expect((await t.json("GET", "/api/v1/users/privco", { token: aliceToken })).status).toBe(200);
    expect((await t.json("GET", "/api/v1/users/limco")).status).toBe(404);
    expect((await t.json("GET", "/api/v1/users/pubco/repos")).status).toBe(200);
    expect((await t.json("GET", "/api/v1/users/privco/repos", { token: bobToken })).status).toBe(404);
  });
});

describe("private organizations stay private on every organization route", () => {
  test("outsiders get 404 where members get 403", async () => {
    for (const [method, path] of [
      ["GET", "/api/v1/orgs/privco/teams"],
      ["GET", "/api/v1/orgs/privco/teams/search"],
      ["POST", "/api/v1/orgs/privco/teams"],
      ["PATCH", "/api/v1/orgs/privco"],
      ["DELETE", "/api/v1/orgs/privco"],
      ["PUT", "/api/v1/orgs/privco/public_members/bob"],
      ["POST", "/api/v1/orgs/privco/repos"],
    ] as const) {
      const r = await t.json(method, path, { token: bobToken, body: { name: "x" } });
      expect({ method, path, status: r.status }).toEqual({ method, path, status: 404 });
    }
    // a visible organization tells a signed-in non-member why
    const r = await t.json("GET", "/api/v1/orgs/pubco/teams", { token: bobToken });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe("Must be an organization member");
  });
});
