import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { ActionVariable } from "../../src/shapes/action-variable.ts";
import { findVariable, type VariableLevel } from "../../src/models/action-variable.ts";

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

const ORG = "/api/v1/orgs/acme/actions/variables";
const REPO = "/api/v1/repos/alice/hr/actions/variables";
const USER = "/api/v1/user/actions/variables";
const ANON = "";

/** As alice unless told; "" is anonymous. */
const call = (method: string, path: string, body?: unknown, token = aliceToken) =>
  t.json(method, path, { token: token || undefined, body });
const post = (path: string, body: unknown, token = aliceToken) => call("POST", path, body, token);
const put = (path: string, body: unknown, token = aliceToken) => call("PUT", path, body, token);
const get = (path: string, token = aliceToken) => call("GET", path, undefined, token);
const del = (path: string, token = aliceToken) => call("DELETE", path, undefined, token);
const row = (level: VariableLevel, name: string) => findVariable(t.env.db, level, name);

describe("create, read, update, rename, delete", () => {
  for (const [label, base, level, ids] of [
    ["organization", ORG, () => ({ ownerId: acmeId }), () => ({ owner_id: acmeId, repo_id: 0 })],
    ["repository", REPO, () => ({ repoId: hrId }), () => ({ owner_id: 0, repo_id: hrId })],
    ["user", USER, () => ({ ownerId: alice.id }), () => ({ owner_id: alice.id, repo_id: 0 })],
  ] as const) {
    test(`${label}: 201, 409 for the same name in any case, 200 with the value, 204 on update and rename, 404 after delete`, async () => {
      const created = await post(`${base}/deploy_target`, { value: "staging", description: "where to" });
      expect(created.status).toBe(201);
      expect(created.body).toBeUndefined();
      expect(row(level(), "DEPLOY_TARGET")).toMatchObject({ name: "DEPLOY_TARGET", data: "staging", description: "where to" });

      const again = await post(`${base}/Deploy_Target`, { value: "other" });
      expect(again.status).toBe(409);
      expect(again.body.message).toBe("variable name Deploy_Target already exists");
      expect(row(level(), "DEPLOY_TARGET")!.data).toBe("staging");

      const got = await get(`${base}/deploy_TARGET`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual({ ...ids(), name: "DEPLOY_TARGET", data: "staging", description: "where to" });
      expectShape(got.body, ActionVariable);

      // Gitea's update sets the description too: none given clears it.
      const updated = await put(`${base}/deploy_target`, { value: "production" });
      expect(updated.status).toBe(204);
      expect(updated.body).toBeUndefined();
      expect((await get(`${base}/DEPLOY_TARGET`)).body).toEqual({ ...ids(), name: "DEPLOY_TARGET", data: "production", description: "" });

      const id = row(level(), "DEPLOY_TARGET")!.id;
      expect((await put(`${base}/DEPLOY_TARGET`, { name: "target", value: "eu", description: "renamed" })).status).toBe(204);
      const renamed = row(level(), "TARGET")!;
      expect(renamed).toMatchObject({ id, data: "eu", description: "renamed" });
      expect(row(level(), "DEPLOY_TARGET")).toBeUndefined();
      const gone = await get(`${base}/DEPLOY_TARGET`);
      expect(gone.status).toBe(404);
      expect(gone.body.message).toBe("variable not found");
      expect((await put(`${base}/DEPLOY_TARGET`, { value: "x" })).status).toBe(404);

      expect((await del(`${base}/target`)).status).toBe(204);
      expect(row(level(), "TARGET")).toBeUndefined();
      const twice = await del(`${base}/TARGET`);
      expect(twice.status).toBe(404);
      expect(twice.body.message).toBe("variable not found");
    });
  }

  test("renaming onto another variable's name is a 409 and changes nothing; a change of case only is the same name", async () => {
    await t.ok("POST", `${ORG}/FIRST`, aliceToken, { value: "1" }, 201);
    await t.ok("POST", `${ORG}/SECOND`, aliceToken, { value: "2" }, 201);
    const clash = await put(`${ORG}/first`, { name: "second", value: "changed" });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toBe("variable name second already exists");
    expect(row({ ownerId: acmeId }, "FIRST")!.data).toBe("1");
    expect(row({ ownerId: acmeId }, "SECOND")!.data).toBe("2");
    expect((await put(`${ORG}/first`, { name: "First", value: "one" })).status).toBe(204);
    expect(row({ ownerId: acmeId }, "FIRST")!.data).toBe("one");
    // An empty name keeps the variable's name.
    expect((await put(`${ORG}/first`, { name: "", value: "uno" })).status).toBe(204);
    expect(row({ ownerId: acmeId }, "FIRST")!.data).toBe("uno");
    await t.ok("DELETE", `${ORG}/FIRST`, aliceToken, undefined, 204);
    await t.ok("DELETE", `${ORG}/SECOND`, aliceToken, undefined, 204);
  });
});

describe("names, values and bodies, as Gitea checks them", () => {
  test("invalid names are Gitea's shared 400 `invalid secret name`, on create and on rename; lookups of one are 404", async () => {
    for (const name of ["1ABC", "A-B", "A.B", "GITEA_TOKEN", "gitea_x", "GITHUB_TOKEN", "github_", "%C3%A9T%C3%A9"]) {
      const r = await post(`${ORG}/${name}`, { value: "x" });
      expect({ name, status: r.status, message: r.body?.message }).toEqual({ name, status: 400, message: "invalid secret name" });
      expect((await get(`${ORG}/${name}`)).status).toBe(404);
      expect((await del(`${ORG}/${name}`)).status).toBe(404);
    }
    for (const name of ["_", "_x1", "GITEAX", "GIT_HUB", "a1_B2"]) {
      expect({ name, status: (await post(`${ORG}/${name}`, { value: "x" })).status }).toEqual({ name, status: 201 });
      expect(row({ ownerId: acmeId }, name.toUpperCase())).toBeDefined();
      expect((await del(`${ORG}/${name}`)).status).toBe(204);
    }
    await t.ok("POST", `${ORG}/KEEP`, aliceToken, { value: "kept" }, 201);
    const bad = await put(`${ORG}/KEEP`, { name: "GITHUB_X", value: "changed" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("invalid secret name");
    expect(row({ ownerId: acmeId }, "KEEP")!.data).toBe("kept");
    await t.ok("DELETE", `${ORG}/KEEP`, aliceToken, undefined, 204);
  });

  test("names starting with CI are ordinary names in Gitea 1.25: created, renamed to and deleted", async () => {
    // Gitea 1.23/1.24 refused them (envNameCIRegexMatch, `(?i)^CI`); 1.25's services/actions/variables.go
    // no longer has that rule, so hearth does not either.
    for (const name of ["CI", "ci_token", "CIRCLE"]) {
      expect({ name, status: (await post(`${ORG}/${name}`, { value: "x" })).status }).toEqual({ name, status: 201 });
      expect((await del(`${ORG}/${name}`)).status).toBe(204);
    }
    await t.ok("POST", `${ORG}/PLAIN`, aliceToken, { value: "v" }, 201);
    expect((await put(`${ORG}/PLAIN`, { name: "CI_PLAIN", value: "v" })).status).toBe(204);
    expect(row({ ownerId: acmeId }, "CI_PLAIN")).toBeDefined();
    await t.ok("DELETE", `${ORG}/CI_PLAIN`, aliceToken, undefined, 204);
  });

  test("`value` is required and non-empty (422, Gitea's binding), before the name is checked", async () => {
    for (const body of [{}, { value: "" }, { description: "only" }, undefined]) {
      const r = await post(`${ORG}/OK_NAME`, body);
      expect({ body, status: r.status, message: r.body?.message }).toEqual({ body, status: 422, message: "[Value]: Required" });
    }
    expect((await post(`${ORG}/1BAD`, {})).status).toBe(422);
    expect(row({ ownerId: acmeId }, "OK_NAME")).toBeUndefined();
    await t.ok("POST", `${ORG}/OK_NAME`, aliceToken, { value: "v" }, 201);
    expect((await put(`${ORG}/OK_NAME`, { name: "NEW" })).status).toBe(422);
    expect(row({ ownerId: acmeId }, "OK_NAME")!.data).toBe("v");
    await t.ok("DELETE", `${ORG}/OK_NAME`, aliceToken, undefined, 204);
  });

  test("CRLF line breaks are stored as LF, everything else as sent", async () => {
    expect((await post(`${REPO}/MULTI`, { value: "one\r\ntwo\rthree\n  " })).status).toBe(201);
    expect((await get(`${REPO}/MULTI`)).body.data).toBe("one\ntwo\rthree\n  ");
    expect((await put(`${REPO}/MULTI`, { value: "a\r\n\r\nb" })).status).toBe(204);
    expect(row({ repoId: hrId }, "MULTI")!.data).toBe("a\n\nb");
    await del(`${REPO}/MULTI`);
  });

  test("values up to 65536 characters (not bytes) are taken, more is Gitea's 400 `data too long`; descriptions are cut at 4096", async () => {
    expect((await post(`${ORG}/BIG`, { value: "é".repeat(65536) })).status).toBe(201);
    expect(row({ ownerId: acmeId }, "BIG")!.data).toBe("é".repeat(65536));
    const tooLong = await put(`${ORG}/BIG`, { value: "x".repeat(65537) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toBe("data too long");
    expect(row({ ownerId: acmeId }, "BIG")!.data).toBe("é".repeat(65536));
    expect((await post(`${ORG}/BIG2`, { value: "😀".repeat(65537) })).status).toBe(400);
    expect(row({ ownerId: acmeId }, "BIG2")).toBeUndefined();
    // A CRLF counts as one character once made LF.
    expect((await post(`${ORG}/BIG3`, { value: "x".repeat(65535) + "\r\n" })).status).toBe(201);

    expect((await put(`${ORG}/BIG`, { value: "v", description: "ü".repeat(5000) })).status).toBe(204);
    expect(row({ ownerId: acmeId }, "BIG")!.description).toBe("ü".repeat(4096));
    expect((await post(`${ORG}/BIG4`, { value: "v", description: "d".repeat(4097) })).status).toBe(201);
    expect(row({ ownerId: acmeId }, "BIG4")!.description).toBe("d".repeat(4096));
    for (const name of ["BIG", "BIG3", "BIG4"]) await t.ok("DELETE", `${ORG}/${name}`, aliceToken, undefined, 204);
  });
});

describe("permissions", () => {
  test("organization: owners and site admins; members 403, an org the caller cannot see 404, no token 401", async () => {
    expect((await post(`${ORG}/P`, { value: "x" }, ANON)).status).toBe(401);
    expect((await get(ORG, ANON)).status).toBe(401);
    const member = await post(`${ORG}/P`, {}, bobToken);
    expect(member.status).toBe(403); // before the body's 422, as Gitea's middleware orders them
    expect(member.body.message).toBe("Must be an organization owner");
    expect((await get(ORG, bobToken)).status).toBe(403);
    expect((await get(`${ORG}/P`, bobToken)).status).toBe(403);
    expect((await put(`${ORG}/P`, { value: "x" }, bobToken)).status).toBe(403);
    expect((await del(`${ORG}/P`, carolToken)).status).toBe(403);
    expect((await get("/api/v1/orgs/hidden/actions/variables", carolToken)).status).toBe(404);
    expect((await post("/api/v1/orgs/hidden/actions/variables/P", { value: "x" }, carolToken)).status).toBe(404);
    expect((await post("/api/v1/orgs/nosuch/actions/variables/P", { value: "x" })).status).toBe(404);
    expect((await post(`${ORG}/P`, { value: "x" }, rootToken)).status).toBe(201);
    expect((await get(`${ORG}/P`, rootToken)).body.data).toBe("x");
    expect((await del(`${ORG}/P`, rootToken)).status).toBe(204);
  });

  test("repository: the owner, org owners and admin teams, site admins (reqOwner, as its secrets); an admin collaborator 403", async () => {
    expect((await post(`${REPO}/P`, { value: "x" }, ANON)).status).toBe(401);
    const collaborator = await post(`${REPO}/P`, { value: "x" }, bobToken);
    expect(collaborator.status).toBe(403);
    expect(collaborator.body.message).toBe("user should be the owner of the repo");
    expect((await get(REPO, bobToken)).status).toBe(403);
    expect((await post(`${REPO}/P`, { value: "x" }, carolToken)).status).toBe(403);
    expect((await post("/api/v1/repos/alice/private/actions/variables/P", { value: "x" }, carolToken)).status).toBe(404);
    expect((await get("/api/v1/repos/alice/nosuch/actions/variables")).status).toBe(404);
    expect((await post(`${REPO}/P`, { value: "x" }, rootToken)).status).toBe(201);
    expect((await get(`${REPO}/P`, bobToken)).status).toBe(403);
    expect((await del(`${REPO}/P`, rootToken)).status).toBe(204);

    // acme/tools: a member of acme's admin team gets owner access to it, a reader does not.
    const dave = await t.user("dave");
    await t.ok("PUT", `/api/v1/teams/${admins.id}/members/dave`, aliceToken, undefined, 204);
    await t.ok("PUT", `/api/v1/teams/${admins.id}/repos/acme/tools`, aliceToken, undefined, 204);
    const tools = "/api/v1/repos/acme/tools/actions/variables";
    expect((await post(`${tools}/P`, { value: "x" }, t.token(dave))).status).toBe(201);
    expect((await put(`${tools}/P`, { value: "y" }, aliceToken)).status).toBe(204);
    expect((await put(`${tools}/P`, { value: "z" }, bobToken)).status).toBe(403);
    expect((await get(`${tools}/P`, t.token(dave))).body).toMatchObject({ owner_id: 0, data: "y" });
    expect((await del(`${tools}/P`)).status).toBe(204);
  });

  test("token scopes: write:<category> to change, read:<category> to read", async () => {
    const readOrg = t.token(alice, ["read:organization"]);
    expect((await post(`${ORG}/S`, { value: "x" }, t.token(alice, ["write:organization"]))).status).toBe(201);
    expect((await get(ORG, readOrg)).status).toBe(200);
    expect((await get(`${ORG}/S`, readOrg)).status).toBe(200);
    expect((await put(`${ORG}/S`, { value: "y" }, readOrg)).status).toBe(403);
    expect((await get(`${ORG}/S`, t.token(alice, ["read:repository"]))).status).toBe(403);
    expect((await del(`${ORG}/S`, t.token(alice, ["write:repository"]))).status).toBe(403);
    expect((await del(`${ORG}/S`, t.token(alice, ["write:organization"]))).status).toBe(204);

    expect((await post(`${REPO}/S`, { value: "x" }, t.token(alice, ["write:organization"]))).status).toBe(403);
    expect((await post(`${REPO}/S`, { value: "x" }, t.token(alice, ["write:repository"]))).status).toBe(201);
    expect((await get(REPO, t.token(alice, ["read:repository"]))).status).toBe(200);
    await del(`${REPO}/S`);

    expect((await post(`${USER}/S`, { value: "x" }, t.token(alice, ["read:user"]))).status).toBe(403);
    expect((await post(`${USER}/S`, { value: "x" }, t.token(alice, ["write:user"]))).status).toBe(201);
    expect((await get(`${USER}/S`, t.token(alice, ["read:user"]))).status).toBe(200);
    expect((await get(USER, ANON)).status).toBe(401);
    expect((await del(`${USER}/S`, ANON)).status).toBe(401);
    expect((await del(`${USER}/S`, t.token(alice, ["write:user"]))).status).toBe(204);
  });
});

describe("lists", () => {
  test("by name, paged, with values and X-Total-Count, no Link header, at every level", async () => {
    for (const base of [ORG, REPO, USER]) {
      for (const name of ["delta", "ALPHA", "echo", "charlie", "bravo"]) {
        expect((await post(`${base}/${name}`, { value: `v-${name}`, description: `d-${name}` })).status).toBe(201);
      }
      const all = await get(base);
      expect(all.status).toBe(200);
      expect(all.headers.get("X-Total-Count")).toBe("5");
      expect(all.body.map((s: { name: string }) => s.name)).toEqual(["ALPHA", "BRAVO", "CHARLIE", "DELTA", "ECHO"]);
      for (const s of all.body) expectShape(s, ActionVariable);
      expect(all.body[0]).toMatchObject({ data: "v-ALPHA", description: "d-ALPHA" });

      const page2 = await get(`${base}?page=2&limit=2`);
      expect(page2.headers.get("X-Total-Count")).toBe("5");
      expect(page2.headers.get("Link")).toBeNull();
      expect(page2.body.map((s: { name: string }) => s.name)).toEqual(["CHARLIE", "DELTA"]);
      expect((await get(`${base}?page=4&limit=2`)).body).toEqual([]);

      for (const name of ["alpha", "bravo", "charlie", "delta", "echo"]) expect((await del(`${base}/${name}`)).status).toBe(204);
      const empty = await get(base);
      expect(empty.body).toEqual([]);
      expect(empty.headers.get("X-Total-Count")).toBe("0");
    }
  });
});

describe("levels stay apart", () => {
  test("the same name at the user, organization and repository levels is three variables; each level reaches only its own", async () => {
    expect((await post(`${USER}/SHARED`, { value: "user" })).status).toBe(201);
    expect((await post(`${ORG}/SHARED`, { value: "org" })).status).toBe(201);
    expect((await post(`${REPO}/SHARED`, { value: "repo" })).status).toBe(201);
    expect((await get(`${USER}/SHARED`)).body).toMatchObject({ owner_id: alice.id, repo_id: 0, data: "user" });
    expect((await get(`${ORG}/SHARED`)).body).toMatchObject({ owner_id: acmeId, repo_id: 0, data: "org" });
    expect((await get(`${REPO}/SHARED`)).body).toMatchObject({ owner_id: 0, repo_id: hrId, data: "repo" });

    expect((await put(`${USER}/SHARED`, { name: "MINE", value: "user2" })).status).toBe(204);
    expect((await get(`${ORG}/SHARED`)).body.data).toBe("org");
    expect((await get(`${REPO}/SHARED`)).body.data).toBe("repo");
    expect((await del(`${REPO}/SHARED`)).status).toBe(204);
    expect((await del(`${REPO}/SHARED`)).status).toBe(404);
    expect((await get(`${ORG}/SHARED`)).body.data).toBe("org");
    expect((await del(`${ORG}/SHARED`)).status).toBe(204);
    expect((await get(`${USER}/MINE`)).body.data).toBe("user2");
    // Another user sees none of alice's.
    expect((await get(`${USER}/MINE`, carolToken)).status).toBe(404);
    expect((await get(USER, carolToken)).body).toEqual([]);
    expect((await del(`${USER}/MINE`)).status).toBe(204);
  });
});

describe("deleting the owner deletes its variables", () => {
  test("repository, user and organization", async () => {
    await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "doomed" }, 201);
    const doomedId = (await t.ok("GET", "/api/v1/repos/alice/doomed", aliceToken)).id as number;
    expect((await post("/api/v1/repos/alice/doomed/actions/variables/GOES", { value: "x" })).status).toBe(201);
    expect((await post(`${USER}/STAYS`, { value: "x" })).status).toBe(201);
    expect((await post(`${REPO}/STAYS`, { value: "x" })).status).toBe(201);
    await t.ok("DELETE", "/api/v1/repos/alice/doomed", aliceToken, undefined, 204);
    expect(row({ repoId: doomedId }, "GOES")).toBeUndefined();
    expect(row({ ownerId: alice.id }, "STAYS")).toBeDefined();
    expect(row({ repoId: hrId }, "STAYS")).toBeDefined();

    const erin = await t.user("erin");
    expect((await post(`${USER}/GOES`, { value: "x" }, t.token(erin))).status).toBe(201);
    await t.ok("DELETE", "/api/v1/admin/users/erin", rootToken, undefined, 204);
    expect(row({ ownerId: erin.id }, "GOES")).toBeUndefined();

    await t.ok("POST", "/api/v1/orgs", aliceToken, { username: "shortlived" }, 201);
    const orgId = (await t.ok("GET", "/api/v1/orgs/shortlived", aliceToken)).id as number;
    expect((await post("/api/v1/orgs/shortlived/actions/variables/GOES", { value: "x" })).status).toBe(201);
    await t.ok("DELETE", "/api/v1/orgs/shortlived", aliceToken, undefined, 204);
    expect(row({ ownerId: orgId }, "GOES")).toBeUndefined();
    expect(row({ ownerId: alice.id }, "STAYS")).toBeDefined();
    await del(`${USER}/STAYS`);
    await del(`${REPO}/STAYS`);
  });
});
