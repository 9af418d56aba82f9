import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { User } from "../../src/shapes/user.ts";
import { RepoCollaboratorPermission } from "../../src/shapes/repo-social.ts";

const t = makeTestApp();
const root = await t.user("root", { admin: true });
const rootToken = t.token(root);
const alice = await t.user("alice");
const aliceToken = t.token(alice);
const bob = await t.user("bob");
const bobToken = t.token(bob);
const carol = await t.user("carol");
const carolToken = t.token(carol);

async function createRepo(token: string, name: string, extra: Record<string, unknown> = {}) {
  const r = await t.json("POST", "/api/v1/user/repos", { token, body: { name, ...extra } });
  expect(r.status).toBe(201);
  return r.body;
}

await createRepo(aliceToken, "pub");
await createRepo(aliceToken, "secret", { private: true });

const base = "/api/v1/repos/alice";

describe("collaborators", () => {
  test("add with the default permission (write), check, list", async () => {
    expect((await t.json("PUT", `${base}/pub/collaborators/bob`, { token: aliceToken })).status).toBe(204);
    expect((await t.json("GET", `${base}/pub/collaborators/bob`, { token: aliceToken })).status).toBe(204);
    const notOne = await t.json("GET", `${base}/pub/collaborators/carol`, { token: aliceToken });
    expect(notOne.status).toBe(404);
    expect(notOne.body.message).toBe("not found");

    const list = await t.json("GET", `${base}/pub/collaborators`, { token: carolToken });
    expect(list.status).toBe(200);
    expect(list.headers.get("X-Total-Count")).toBe("1");
    expect(list.body.map((u: { login: string }) => u.login)).toEqual(["bob"]);
    expectShape(list.body[0], User);

    const perm = await t.json("GET", `${base}/pub/collaborators/bob/permission`, { token: bobToken });
    expect(perm.status).toBe(200);
    expectShape(perm.body, RepoCollaboratorPermission);
    expect(perm.body).toMatchObject({ permission: "write", role_name: "write", user: { login: "bob" } });
    // a write collaborator can push: the repository says so
    const repo = await t.json("GET", `${base}/pub`, { token: bobToken });
    expect(repo.body.permissions).toEqual({ admin: false, push: true, pull: true });
  });

  test("update the permission: read, admin; an unknown mode is refused", async () => {
    expect((await t.json("PUT", `${base}/pub/collaborators/bob`, { token: aliceToken, body: { permission: "read" } })).status).toBe(204);
    let perm = await t.json("GET", `${base}/pub/collaborators/bob/permission`, { token: aliceToken });
    expect(perm.body.permission).toBe("read");
    expect((await t.json("PUT", `${base}/pub/collaborators/bob`, { token: aliceToken, body: { permission: "admin" } })).status).toBe(204);
    perm = await t.json("GET", `${base}/pub/collaborators/bob/permission`, { token: aliceToken });
    expect(perm.body.permission).toBe("admin");
    // an admin collaborator may manage collaborators too
    expect((await t.json("PUT", `${base}/pub/collaborators/carol`, { token: bobToken, body: { permission: "read" } })).status).toBe(204);
    expect((await t.json("DELETE", `${base}/pub/collaborators/carol`, { token: bobToken })).status).toBe(204);

    for (const permission of ["owner", "superuser", ""]) {
      const bad = await t.json("PUT", `${base}/pub/collaborators/carol`, { token: aliceToken, body: { permission } });
      expect(bad.status).toBe(422);
      expect(bad.body.message).toBe("Invalid access mode");
    }
    expect((await t.json("GET", `${base}/pub/collaborators/carol`, { token: aliceToken })).status).toBe(404);
    const wrongType = await t.json("PUT", `${base}/pub/collaborators/carol`, { token: aliceToken, body: { permission: 3 } });
    expect(wrongType.status).toBe(422);
  });

  test("unknown users are Gitea's 422 (404 for the permission query)", async () => {
    for (const method of ["GET", "PUT", "DELETE"]) {
      const r = await t.json(method, `${base}/pub/collaborators/nobody`, { token: aliceToken });
      expect(r.status).toBe(422);
      expect(r.body.message).toBe("user does not exist [uid: 0, name: nobody]");
    }
    const perm = await t.json("GET", `${base}/pub/collaborators/nobody/permission`, { token: rootToken });
    expect(perm.status).toBe(404);
    expect(perm.body.message).toBe("user does not exist [uid: 0, name: nobody]");
  });

  test("only repository admins manage collaborators; anonymous callers need a token", async () => {
    const carolPut = await t.json("PUT", `${base}/pub/collaborators/carol`, { token: carolToken });
    expect(carolPut.status).toBe(403);
    expect(carolPut.body.message).toBe("user should be an owner or a collaborator with admin write of a repository");
    expect((await t.json("DELETE", `${base}/pub/collaborators/bob`, { token: carolToken })).status).toBe(403);
    const anon = await t.json("GET", `${base}/pub/collaborators`);
    expect(anon.status).toBe(401);
    expect(anon.body.message).toBe("token is required");
    expect((await t.json("PUT", `${base}/pub/collaborators/carol`)).status).toBe(401);
  });

  test("permission query: self, repo admin or site admin only", async () => {
    const other = await t.json("GET", `${base}/pub/collaborators/bob/permission`, { token: carolToken });
    expect(other.status).toBe(403);
    expect(other.body.message).toBe(
      "Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own",
    );
    // a non-collaborator may ask about themself: a public repository gives everyone read
    const self = await t.json("GET", `${base}/pub/collaborators/CAROL/permission`, { token: carolToken });
    expect(self.status).toBe(200);
    expect(self.body.permission).toBe("read");
    const owner = await t.json("GET", `${base}/pub/collaborators/alice/permission`, { token: rootToken });
    expect(owner.body).toMatchObject({ permission: "owner", role_name: "owner" });
    const admin = await t.json("GET", `${base}/pub/collaborators/root/permission`, { token: aliceToken });
    expect(admin.body.permission).toBe("owner");
  });

  test("a private repository: invisible (404) to outsiders, visible once a collaborator", async () => {
    expect((await t.json("GET", `${base}/secret/collaborators`, { token: carolToken })).status).toBe(404);
    expect((await t.json("PUT", `${base}/secret/collaborators/carol`, { token: carolToken })).status).toBe(404);
    expect((await t.json("GET", `${base}/secret`, { token: carolToken })).status).toBe(404);
    expect((await t.json("PUT", `${base}/secret/collaborators/carol`, { token: aliceToken, body: { permission: "read" } })).status).toBe(204);
    const seen = await t.json("GET", `${base}/secret`, { token: carolToken });
    expect(seen.status).toBe(200);
    expect(seen.body.permissions).toEqual({ admin: false, push: false, pull: true });
    const perm = await t.json("GET", `${base}/secret/collaborators/carol/permission`, { token: carolToken });
    expect(perm.body.permission).toBe("read");
    // a read collaborator still may not manage collaborators
    expect((await t.json("PUT", `${base}/secret/collaborators/bob`, { token: carolToken })).status).toBe(403);

    expect((await t.json("DELETE", `${base}/secret/collaborators/carol`, { token: aliceToken })).status).toBe(204);
    expect((await t.json("GET", `${base}/secret`, { token: carolToken })).status).toBe(404);
    // deleting someone who is no collaborator is still a 204
    expect((await t.json("DELETE", `${base}/secret/collaborators/carol`, { token: aliceToken })).status).toBe(204);
  });

  test("removing a collaborator also drops their watch", async () => {
    expect((await t.json("PUT", `${base}/pub/collaborators/carol`, { token: aliceToken })).status).toBe(204);
    expect((await t.json("PUT", `${base}/pub/subscription`, { token: carolToken })).status).toBe(200);
    const before = (await t.json("GET", `${base}/pub`)).body.watchers_count;
    expect((await t.json("DELETE", `${base}/pub/collaborators/carol`, { token: aliceToken })).status).toBe(204);
    expect((await t.json("GET", `${base}/pub/subscription`, { token: carolToken })).status).toBe(404);
    expect((await t.json("GET", `${base}/pub`)).body.watchers_count).toBe(before - 1);
  });

  test("inactive accounts cannot become collaborators", async () => {
    const dave = await t.user("dave");
    const off = await t.json("PATCH", "/api/v1/admin/users/dave", { token: rootToken, body: { login_name: "dave", source_id: 0, active: false } });
    expect(off.status).toBe(200);
    const r = await t.json("PUT", `${base}/pub/collaborators/dave`, { token: aliceToken });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe("collaborator's account is inactive");
    expect(dave.id).toBeGreaterThan(0);
  });

  test("paging", async () => {
    await createRepo(aliceToken, "many");
    for (const u of ["bob", "carol", "root"]) {
      expect((await t.json("PUT", `${base}/many/collaborators/${u}`, { token: aliceToken })).status).toBe(204);
    }
    const page = await t.json("GET", `${base}/many/collaborators?limit=2&page=2`, { token: aliceToken });
    expect(page.headers.get("X-Total-Count")).toBe("3");
    expect(page.body.map((u: { login: string }) => u.login)).toEqual(["root"]);
  });
});
