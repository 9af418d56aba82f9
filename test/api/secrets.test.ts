import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { Secret } from "../../src/shapes/secret.ts";
import { findSecret, type SecretLevel } from "../../src/models/secret.ts";
import { openSecretData } from "../../src/services/secrets/seal.ts";
import { secrets } from "../../src/db/schema/index.ts";
import { eq } from "drizzle-orm";

const t = makeTestApp();
const alice = await t.user("alice"); // owns alice/hr, alice/private and the acme and hidden organizations
const bob = await t.user("bob"); // admin collaborator on alice/hr; member (not owner) of acme
const carol = await t.user("carol"); // nothing
const root = await t.user("root", { admin: true });
const aliceToken = t.token(alice);
const bobToken = t.token(bob);
const carolToken = t.token(carol);
const rootToken = t.token(root);

await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "hr" }, 201);
await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "private", private: true }, 201);
await t.ok("PUT", "/api/v1/repos/alice/hr/collaborators/bob", aliceToken, { permission: "admin" }, 204);
await t.ok("POST", "/api/v1/orgs", aliceToken, { username: "acme" }, 201);
await t.ok("POST", "/api/v1/orgs", aliceToken, { username: "hidden", visibility: "private" }, 201);
await t.ok("POST", "/api/v1/orgs/acme/repos", aliceToken, { name: "tools" }, 201);
const admins = await t.ok("POST", "/api/v1/orgs/acme/teams", aliceToken, { name: "admins", permission: "admin" }, 201);
await t.ok("POST", "/api/v1/orgs/acme/teams", aliceToken, { name: "readers", permission: "read", units: ["repo.code"] }, 201);
const readers = (await t.ok("GET", "/api/v1/orgs/acme/teams", aliceToken)).find((x: { name: string }) => x.name === "readers");
await t.ok("PUT", `/api/v1/teams/${readers.id}/members/bob`, aliceToken, undefined, 204);

const hrId = (await t.ok("GET", "/api/v1/repos/alice/hr", aliceToken)).id as number;
const acmeId = (await t.ok("GET", "/api/v1/orgs/acme", aliceToken)).id as number;

const ORG = "/api/v1/orgs/acme/actions/secrets";
const REPO = "/api/v1/repos/alice/hr/actions/secrets";
const USER = "/api/v1/user/actions/secrets";

/** As alice unless told; "" is anonymous. */
const put = (path: string, body: unknown, token = aliceToken) => t.json("PUT", path, { token: token || undefined, body });
const del = (path: string, token = aliceToken) => t.json("DELETE", path, { token: token || undefined });
const ANON = "";
const row = (level: SecretLevel, name: string) => findSecret(t.env.db, level, name);

describe("create or update, one PUT for both", () => {
  for (const [label, base, level] of [
    ["organization", ORG, () => ({ ownerId: acmeId })],
    ["repository", REPO, () => ({ repoId: hrId })],
    ["user", USER, () => ({ ownerId: alice.id })],
  ] as const) {
    test(`${label}: 201 when created, 204 when updated, with an empty body; delete 204 then 404`, async () => {
      const created = await put(`${base}/deploy_key`, { data: "first", description: "the key" });
      expect(created.status).toBe(201);
      expect(created.body).toBeUndefined();
      const stored = row(level(), "DEPLOY_KEY")!;
      expect(stored).toMatchObject({ name: "DEPLOY_KEY", description: "the key" });
      expect(openSecretData(t.env, stored)).toBe("first");

      // The name matches case-insensitively: this updates the same secret.
      const updated = await put(`${base}/Deploy_Key`, { data: "second" });
      expect(updated.status).toBe(204);
      expect(updated.body).toBeUndefined();
      const after = row(level(), "DEPLOY_KEY")!;
      expect(after.id).toBe(stored.id);
      expect(after.createdUnix).toBe(stored.createdUnix);
      // Gitea's update sets the description too: none given clears it.
      expect(after.description).toBe("");
      expect(openSecretData(t.env, after)).toBe("second");

      expect((await del(`${base}/deploy_KEY`)).status).toBe(204);
      expect(row(level(), "DEPLOY_KEY")).toBeUndefined();
      const again = await del(`${base}/DEPLOY_KEY`);
      expect(again.status).toBe(404);
      expect(again.body.message).toBe("secret was not found [name: ]");
    });
  }

  test("the value is kept exactly as sent (the API does not normalise line breaks) and never returned", async () => {
    const value = "line one\r\nline two\n  ";
    expect((await put(`${REPO}/MULTI`, { data: value })).status).toBe(201);
    expect(openSecretData(t.env, row({ repoId: hrId }, "MULTI")!)).toBe(value);
    const list = await t.json("GET", REPO, { token: aliceToken });
    expect(JSON.stringify(list.body)).not.toContain("line one");
    expect(list.body.find((s: { name: string }) => s.name === "MULTI")).toEqual({
      name: "MULTI",
      description: "",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/),
    });
    await del(`${REPO}/MULTI`);
  });
});

describe("names and bodies, as Gitea checks them", () => {
  test("invalid names are Gitea's 400 `invalid secret name`; stored names are upper-cased", async () => {
    for (const name of ["1ABC", "A-B", "A.B", "GITEA_TOKEN", "gitea_x", "GITHUB_TOKEN", "github_", "%C3%A9T%C3%A9"]) {
      const r = await put(`${ORG}/${name}`, { data: "x" });
      expect({ name, status: r.status, message: r.body?.message }).toEqual({ name, status: 400, message: "invalid secret name" });
    }
    for (const name of ["_", "_x1", "GITEAX", "GIT_HUB", "a1_B2"]) {
      expect({ name, status: (await put(`${ORG}/${name}`, { data: "x" })).status }).toEqual({ name, status: 201 });
      expect(row({ ownerId: acmeId }, name.toUpperCase())).toBeDefined();
      expect((await del(`${ORG}/${name}`)).status).toBe(204);
    }
  });

  test("`data` is required and non-empty (422, Gitea's binding), before the name is checked", async () => {
    for (const body of [{}, { data: "" }, { description: "only" }, undefined]) {
      const r = await put(`${ORG}/OK_NAME`, body);
      expect({ body, status: r.status, message: r.body?.message }).toEqual({ body, status: 422, message: "[Data]: Required" });
    }
    expect((await put(`${ORG}/1BAD`, {})).status).toBe(422);
    expect(row({ ownerId: acmeId }, "OK_NAME")).toBeUndefined();
  });

  test("data up to 65536 bytes is taken, more is Gitea's 400 `data too long`; descriptions are cut at 4096 characters", async () => {
    expect((await put(`${ORG}/BIG`, { data: "é".repeat(32768) })).status).toBe(201);
    const tooLong = await put(`${ORG}/BIG`, { data: "é".repeat(32768) + "x" });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toBe("data too long");
    expect((await put(`${ORG}/BIG2`, { data: "x".repeat(65537) })).status).toBe(400);
    expect(row({ ownerId: acmeId }, "BIG2")).toBeUndefined();

    expect((await put(`${ORG}/BIG`, { data: "v", description: "ü".repeat(5000) })).status).toBe(204);
    expect(row({ ownerId: acmeId }, "BIG")!.description).toBe("ü".repeat(4096));
    await del(`${ORG}/BIG`);
  });
});

describe("permissions", () => {
  test("organization: owners and site admins; members 403, an org the caller cannot see 404, no token 401", async () => {
    expect((await put(`${ORG}/P`, { data: "x" }, ANON)).status).toBe(401);
    expect((await t.json("GET", ORG)).status).toBe(401);
    const member = await put(`${ORG}/P`, {}, bobToken);
    expect(member.status).toBe(403); // before the body's 422, as Gitea's middleware orders them
    expect(member.body.message).toBe("Must be an organization owner");
    expect((await t.json("GET", ORG, { token: bobToken })).status).toBe(403);
    expect((await del(`${ORG}/P`, carolToken)).status).toBe(403);
    expect((await t.json("GET", "/api/v1/orgs/hidden/actions/secrets", { token: carolToken })).status).toBe(404);
    expect((await put("/api/v1/orgs/hidden/actions/secrets/P", { data: "x" }, carolToken)).status).toBe(404);
    expect((await put("/api/v1/orgs/nosuch/actions/secrets/P", { data: "x" })).status).toBe(404);
    expect((await put(`${ORG}/P`, { data: "x" }, rootToken)).status).toBe(201);
    expect((await del(`${ORG}/P`, rootToken)).status).toBe(204);
  });

  test("repository: the owner, org owners and admin teams, site admins (Gitea 1.25's reqOwner); an admin collaborator 403", async () => {
    expect((await put(`${REPO}/P`, { data: "x" }, ANON)).status).toBe(401);
    const collaborator = await put(`${REPO}/P`, { data: "x" }, bobToken);
    expect(collaborator.status).toBe(403);
    expect(collaborator.body.message).toBe("user should be the owner of the repo");
    expect((await t.json("GET", REPO, { token: bobToken })).status).toBe(403);
    expect((await put(`${REPO}/P`, { data: "x" }, carolToken)).status).toBe(403);
    expect((await put("/api/v1/repos/alice/private/actions/secrets/P", { data: "x" }, carolToken)).status).toBe(404);
    expect((await t.json("GET", "/api/v1/repos/alice/nosuch/actions/secrets", { token: aliceToken })).status).toBe(404);
    expect((await put(`${REPO}/P`, { data: "x" }, rootToken)).status).toBe(201);
    expect((await del(`${REPO}/P`, rootToken)).status).toBe(204);

    // acme/tools: a member of acme's admin team gets owner access to it, a reader does not.
    const dave = await t.user("dave");
    await t.ok("PUT", `/api/v1/teams/${admins.id}/members/dave`, aliceToken, undefined, 204);
    await t.ok("PUT", `/api/v1/teams/${admins.id}/repos/acme/tools`, aliceToken, undefined, 204);
    const tools = "/api/v1/repos/acme/tools/actions/secrets";
    expect((await put(`${tools}/P`, { data: "x" }, t.token(dave))).status).toBe(201);
    expect((await put(`${tools}/P`, { data: "y" }, aliceToken)).status).toBe(204);
    expect((await put(`${tools}/P`, { data: "y" }, bobToken)).status).toBe(403);
    expect((await del(`${tools}/P`)).status).toBe(204);
  });

  test("token scopes: write:<category> for PUT and DELETE, read:<category> for lists", async () => {
    const readOrg = t.token(alice, ["read:organization"]);
    expect((await t.json("GET", ORG, { token: readOrg })).status).toBe(200);
    expect((await put(`${ORG}/S`, { data: "x" }, readOrg)).status).toBe(403);
    expect((await put(`${ORG}/S`, { data: "x" }, t.token(alice, ["write:repository"]))).status).toBe(403);
    expect((await put(`${ORG}/S`, { data: "x" }, t.token(alice, ["write:organization"]))).status).toBe(201);
    expect((await del(`${ORG}/S`, t.token(alice, ["write:organization"]))).status).toBe(204);

    expect((await put(`${REPO}/S`, { data: "x" }, t.token(alice, ["write:organization"]))).status).toBe(403);
    expect((await t.json("GET", REPO, { token: t.token(alice, ["read:repository"]) })).status).toBe(200);
    expect((await put(`${REPO}/S`, { data: "x" }, t.token(alice, ["write:repository"]))).status).toBe(201);
    await del(`${REPO}/S`);

    expect((await put(`${USER}/S`, { data: "x" }, t.token(alice, ["read:user"]))).status).toBe(403);
    expect((await put(`${USER}/S`, { data: "x" }, t.token(alice, ["write:user"]))).status).toBe(201);
    expect((await del(`${USER}/S`, t.token(alice, ["write:user"]))).status).toBe(204);
    expect((await del(`${USER}/S`, ANON)).status).toBe(401);
  });
});

describe("lists", () => {
  test("by name, paged, with X-Total-Count; the organization's list has no Link header, the repository's has", async () => {
    for (const name of ["delta", "ALPHA", "echo", "charlie", "bravo"]) {
      expect((await put(`${ORG}/${name}`, { data: `v-${name}`, description: `d-${name}` })).status).toBe(201);
      expect((await put(`${REPO}/${name}`, { data: `v-${name}` })).status).toBe(201);
    }
    const all = await t.json("GET", ORG, { token: aliceToken });
    expect(all.status).toBe(200);
    expect(all.headers.get("X-Total-Count")).toBe("5");
    expect(all.body.map((s: { name: string }) => s.name)).toEqual(["ALPHA", "BRAVO", "CHARLIE", "DELTA", "ECHO"]);
    for (const s of all.body) expectShape(s, Secret);
    expect(all.body[0].description).toBe("d-ALPHA");

    const page2 = await t.json("GET", `${ORG}?page=2&limit=2`, { token: aliceToken });
    expect(page2.headers.get("X-Total-Count")).toBe("5");
    expect(page2.headers.get("Link")).toBeNull();
    expect(page2.body.map((s: { name: string }) => s.name)).toEqual(["CHARLIE", "DELTA"]);
    expect((await t.json("GET", `${ORG}?page=4&limit=2`, { token: aliceToken })).body).toEqual([]);

    const repoPage = await t.json("GET", `${REPO}?page=3&limit=2`, { token: aliceToken });
    expect(repoPage.headers.get("X-Total-Count")).toBe("5");
    expect(repoPage.headers.get("Link")).toContain('rel="first"');
    expect(repoPage.body.map((s: { name: string }) => s.name)).toEqual(["ECHO"]);
    expect(JSON.stringify(repoPage.body)).not.toContain("v-echo");

    for (const name of ["alpha", "bravo", "charlie", "delta", "echo"]) {
      expect((await del(`${ORG}/${name}`)).status).toBe(204);
      expect((await del(`${REPO}/${name}`)).status).toBe(204);
    }
    expect((await t.json("GET", ORG, { token: aliceToken })).headers.get("X-Total-Count")).toBe("0");
  });
});

describe("levels stay apart", () => {
  test("a user's delete removes the user's secret only, never an organization's or repository's of the same name, and back", async () => {
    const clear = { user: "user-value-7f3a", org: "org-value-7f3a", repo: "repo-value-7f3a" };
    expect((await put(`${USER}/SHARED`, { data: clear.user })).status).toBe(201);
    expect((await put(`${ORG}/SHARED`, { data: clear.org })).status).toBe(201);
    expect((await put(`${REPO}/SHARED`, { data: clear.repo })).status).toBe(201);
    const names = async (path: string) => (await t.ok("GET", path, aliceToken)).map((s: { name: string }) => s.name);

    expect((await del(`${USER}/SHARED`)).status).toBe(204);
    expect(row({ ownerId: alice.id }, "SHARED")).toBeUndefined();
    expect(await names(ORG)).toContain("SHARED");
    expect(await names(REPO)).toContain("SHARED");
    expect((await del(`${USER}/SHARED`)).status).toBe(404);

    expect((await put(`${USER}/SHARED`, { data: clear.user })).status).toBe(201);
    expect((await del(`${REPO}/SHARED`)).status).toBe(204);
    expect(await names(REPO)).not.toContain("SHARED");
    expect(openSecretData(t.env, row({ ownerId: alice.id }, "SHARED")!)).toBe(clear.user);
    expect((await del(`${ORG}/SHARED`)).status).toBe(204);
    expect(openSecretData(t.env, row({ ownerId: alice.id }, "SHARED")!)).toBe(clear.user);
    // Each level's PUT found its own row: three creations above, not updates of one another.
    expect((await del(`${USER}/SHARED`)).status).toBe(204);
  });

  test("values are stored sealed: no clear value in the database files, and a sealed value does not open on another row", async () => {
    const marker = "CLEAR-SECRET-VALUE-5d1e9c";
    expect((await put(`${REPO}/SEALED`, { data: marker })).status).toBe(201);
    expect((await put(`${USER}/SEALED`, { data: marker })).status).toBe(201);
    const repoRow = row({ repoId: hrId }, "SEALED")!;
    expect(repoRow.data).not.toContain(marker);
    expect(repoRow.data.startsWith("v1:")).toBe(true);
    const path = t.settings.database.path;
    for (const file of [path, `${path}-wal`]) {
      if (!existsSync(file)) continue;
      expect(readFileSync(file).includes(Buffer.from(marker))).toBe(false);
    }
    // The user's row carrying the repository's sealed value does not open: the level is bound in.
    const userRow = row({ ownerId: alice.id }, "SEALED")!;
    expect(() => openSecretData(t.env, { ...userRow, data: repoRow.data })).toThrow();
    t.env.db.update(secrets).set({ data: repoRow.data }).where(eq(secrets.id, userRow.id)).run();
    expect(() => openSecretData(t.env, row({ ownerId: alice.id }, "SEALED")!)).toThrow();
    await del(`${REPO}/SEALED`);
    await del(`${USER}/SEALED`);
  });
});

describe("deleting the owner deletes its secrets", () => {
  test("repository, user and organization", async () => {
    await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "doomed" }, 201);
    const doomedId = (await t.ok("GET", "/api/v1/repos/alice/doomed", aliceToken)).id as number;
    expect((await put("/api/v1/repos/alice/doomed/actions/secrets/GOES", { data: "x" })).status).toBe(201);
    expect((await put(`${USER}/STAYS`, { data: "x" })).status).toBe(201);
    await t.ok("DELETE", "/api/v1/repos/alice/doomed", aliceToken, undefined, 204);
    expect(row({ repoId: doomedId }, "GOES")).toBeUndefined();
    expect(row({ ownerId: alice.id }, "STAYS")).toBeDefined();

    const erin = await t.user("erin");
    expect((await put(`${USER}/GOES`, { data: "x" }, t.token(erin))).status).toBe(201);
    await t.ok("DELETE", "/api/v1/admin/users/erin", rootToken, undefined, 204);
    expect(row({ ownerId: erin.id }, "GOES")).toBeUndefined();

    await t.ok("POST", "/api/v1/orgs", aliceToken, { username: "shortlived" }, 201);
    const orgId = (await t.ok("GET", "/api/v1/orgs/shortlived", aliceToken)).id as number;
    expect((await put("/api/v1/orgs/shortlived/actions/secrets/GOES", { data: "x" })).status).toBe(201);
    await t.ok("DELETE", "/api/v1/orgs/shortlived", aliceToken, undefined, 204);
    expect(row({ ownerId: orgId }, "GOES")).toBeUndefined();
    expect(row({ ownerId: alice.id }, "STAYS")).toBeDefined();
    await del(`${USER}/STAYS`);
  });
});
