import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { Team, TeamSearchResult } from "../../src/shapes/team.ts";
import { Organization } from "../../src/shapes/org.ts";

const t = makeTestApp();
const root = await t.user("root", { admin: true });
const rootToken = t.token(root);
// alice owns "acme"; bob, carol and dave join it through teams; erin stays outside.
const alice = await t.user("alice");
const aliceToken = t.token(alice);
const bob = await t.user("bob");
const bobToken = t.token(bob);
const carol = await t.user("carol");
const carolToken = t.token(carol);
const dave = await t.user("dave");
const daveToken = t.token(dave);
const erin = await t.user("erin");
const erinToken = t.token(erin);
const frankToken = t.token(await t.user("frank"));

const ALL_UNITS = [
  "repo.code",
  "repo.issues",
  "repo.pulls",
  "repo.releases",
  "repo.wiki",
  "repo.ext_wiki",
  "repo.ext_issues",
  "repo.projects",
  "repo.packages",
  "repo.actions",
];

async function ok<T = any>(method: string, path: string, token: string, body?: unknown, status = 200): Promise<T> {
  const r = await t.json(method, path, { token, body });
  if (r.status !== status) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function createOrg(token: string, username: string, visibility = "public") {
  return ok("POST", "/api/v1/orgs", token, { username, visibility }, 201);
}

async function createTeam(org: string, body: Record<string, unknown>, token = aliceToken) {
  return ok("POST", `/api/v1/orgs/${org}/teams`, token, body, 201);
}

const addMember = (id: number, user: string, token = aliceToken) =>
  ok("PUT", `/api/v1/teams/${id}/members/${user}`, token, undefined, 204);

const names = (list: { name: string }[]) => list.map((x) => x.name);

await createOrg(aliceToken, "acme");
await createOrg(aliceToken, "other");

describe("create", () => {
  test("a units list: 201, every unit at the read or write permission, the team itself none, organization filled", async () => {
    const r = await t.json("POST", "/api/v1/orgs/acme/teams", {
      token: aliceToken,
      body: {
        name: "Writers",
        description: "they write",
        permission: "write",
        units: ["repo.code", "REPO.issues", "repo.ext_wiki", "repo.nonsense", "repo.code"],
        can_create_org_repo: true,
      },
    });
    expect(r.status).toBe(201);
    expectShape(r.body, Team);
    expectShape(r.body.organization, Organization);
    expect(r.body).toMatchObject({
      name: "Writers",
      description: "they write",
      // Gitea 1.25: below admin a team's own mode is none; the access is in its units.
      permission: "none",
      includes_all_repositories: false,
      can_create_org_repo: true,
      units: ["repo.code", "repo.issues", "repo.ext_wiki"],
      units_map: { "repo.code": "write", "repo.issues": "write", "repo.ext_wiki": "write" },
    });
    const read = await createTeam("acme", { name: "listed-read", permission: "read", units: ["repo.code"] });
    expect(read.units_map).toEqual({ "repo.code": "read" });
    // Without read or write the listed units get none.
    for (const permission of [undefined, "owner", "bogus"]) {
      const none = await createTeam("acme", { name: `listed-${permission}`, permission, units: ["repo.code"] });
      expect({ permission, team: none.permission, units: none.units_map }).toEqual({ permission, team: "none", units: { "repo.code": "none" } });
    }
    expect(r.body.organization).toMatchObject({ name: "acme", username: "acme" });
  });

  test("units_map wins over units: each unit keeps its mode (none entries too), the team itself none", async () => {
    const body = await createTeam("acme", {
      name: "mapped",
      permission: "write",
      units: ["repo.pulls"],
      units_map: { "repo.code": "read", "repo.issues": "write", "repo.wiki": "none", "repo.ext_issues": "read", "repo.bogus": "read" },
    });
    expect(body.permission).toBe("none");
    expect(body.units_map).toEqual({ "repo.code": "read", "repo.issues": "write", "repo.wiki": "none", "repo.ext_issues": "read" });
    expect(body.units.toSorted()).toEqual(["repo.code", "repo.ext_issues", "repo.issues", "repo.wiki"]);
  });

  test("admin: every unit, whatever units were named, and units_map shows the team's mode", async () => {
    const body = await createTeam("acme", { name: "admins", permission: "admin", units: ["repo.code"] });
    expect(body.permission).toBe("admin");
    expect(body.units.toSorted()).toEqual(ALL_UNITS.toSorted());
    expect(body.units_map).toEqual(Object.fromEntries(ALL_UNITS.map((u) => [u, "admin"])));
  });

  test("units_map modes: admin stays a unit mode; owner is none (no way to make another Owners team)", async () => {
    const admin = await createTeam("acme", { name: "map-admin", units_map: { "repo.code": "admin", "repo.issues": "admin" } });
    expect(admin.permission).toBe("none");
    expect(admin.units_map).toEqual({ "repo.code": "admin", "repo.issues": "admin" });
    const owner = await createTeam("acme", { name: "map-owner", permission: "owner", units_map: { "repo.code": "owner" } });
    expect([owner.permission, owner.units_map]).toEqual(["none", { "repo.code": "none" }]);
    // Deletable, unlike the Owners team.
    expect((await t.json("DELETE", `/api/v1/teams/${owner.id}`, { token: aliceToken })).status).toBe(204);
    expect((await t.json("DELETE", `/api/v1/teams/${admin.id}`, { token: aliceToken })).status).toBe(204);
  });

  test("no units below admin: 422 with Gitea's message (Gitea answers 500)", async () => {
    for (const body of [{ name: "nounits", permission: "read" }, { name: "nounits", units: [] }, { name: "nounits", units_map: {} }]) {
      const r = await t.json("POST", "/api/v1/orgs/acme/teams", { token: aliceToken, body });
      expect({ body, status: r.status, message: r.body.message }).toEqual({
        body,
        status: 422,
        message: "units permission should not be empty",
      });
    }
  });

  test("a name already taken, in any case, is 422 with Gitea's message", async () => {
    const acme = await ok("GET", "/api/v1/orgs/acme", aliceToken);
    for (const name of ["writers", "WRITERS", "owners"]) {
      const r = await t.json("POST", "/api/v1/orgs/acme/teams", { token: aliceToken, body: { name, units: ["repo.code"] } });
      expect({ status: r.status, message: r.body.message }).toEqual({
        status: 422,
        message: `team already exists [org_id: ${acme.id}, name: ${name.toLowerCase()}]`,
      });
    }
    // The same name in another organization is fine.
    await createTeam("other", { name: "Writers", units: ["repo.code"] });
  });

  test("invalid input is 422", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ units: ["repo.code"] }, "[Name]: Required"],
      [{ name: "", units: ["repo.code"] }, "[Name]: Required"],
      [{ name: "bad name", units: ["repo.code"] }, "[Name]: AlphaDashDot"],
      [{ name: "a/b", units: ["repo.code"] }, "[Name]: AlphaDashDot"],
      [{ name: "x".repeat(256), units: ["repo.code"] }, "[Name]: MaxSize"],
      [{ name: "ok", description: "d".repeat(256), units: ["repo.code"] }, "[Description]: MaxSize"],
      [{ name: "new", units: ["repo.code"] }, "name is reserved [name: new]"],
    ];
    for (const [body, message] of cases) {
      const r = await t.json("POST", "/api/v1/orgs/acme/teams", { token: aliceToken, body });
      expect({ body, status: r.status, message: r.body.message }).toEqual({ body, status: 422, message });
    }
  });

  test("members who are not owners get 403; non-members 403 as non-members; unknown org 404", async () => {
    const team = await createTeam("acme", { name: "bobs", units: ["repo.code"], permission: "read" });
    await addMember(team.id, "bob");
    const body = { name: "sneaky", units: ["repo.code"] };
    const member = await t.json("POST", "/api/v1/orgs/acme/teams", { token: bobToken, body });
    expect([member.status, member.body.message]).toEqual([403, "Must be an organization owner"]);
    const outsider = await t.json("POST", "/api/v1/orgs/acme/teams", { token: erinToken, body });
    expect([outsider.status, outsider.body.message]).toEqual([403, "Must be an organization member"]);
    expect((await t.json("POST", "/api/v1/orgs/nope/teams", { token: aliceToken, body })).status).toBe(404);
    expect((await t.json("POST", "/api/v1/orgs/acme/teams", { body })).status).toBe(401);
    // A site admin outside the organization may.
    const admin = await t.json("POST", "/api/v1/orgs/acme/teams", { token: rootToken, body: { name: "by-root", units: ["repo.code"] } });
    expect(admin.status).toBe(201);
    const list = await ok<any[]>("GET", "/api/v1/orgs/acme/teams?limit=50", aliceToken);
    expect(names(list)).not.toContain("sneaky");
  });

  test("a token without write:organization is refused", async () => {
    const token = t.token(alice, ["read:organization"]);
    const r = await t.json("POST", "/api/v1/orgs/acme/teams", { token, body: { name: "scoped", units: ["repo.code"] } });
    expect(r.status).toBe(403);
  });
});

describe("list and search", () => {
  test("members list the teams, Owners first with owner permission on every unit", async () => {
    const r = await t.json("GET", "/api/v1/orgs/acme/teams?limit=50", { token: bobToken });
    expect(r.status).toBe(200);
    for (const team of r.body) expectShape(team, Team);
    expect(r.headers.get("x-total-count")).toBe(String(r.body.length));
    const owners = r.body[0];
    expect(owners).toMatchObject({
      name: "Owners",
      permission: "owner",
      includes_all_repositories: true,
      can_create_org_repo: true,
    });
    expect(owners.units.toSorted()).toEqual(ALL_UNITS.toSorted());
    expect(owners.units_map).toEqual(Object.fromEntries(ALL_UNITS.map((u) => [u, "owner"])));
    expect(owners.organization).toMatchObject({ name: "acme" });
    const rest = names(r.body.slice(1));
    expect(rest).toEqual(rest.toSorted((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(rest).toContain("Writers");
  });

  test("pagination: limit and page, X-Total-Count", async () => {
    const all = await ok<any[]>("GET", "/api/v1/orgs/acme/teams?limit=50", aliceToken);
    const r = await t.json("GET", "/api/v1/orgs/acme/teams?limit=2&page=2", { token: aliceToken });
    expect(names(r.body)).toEqual(names(all.slice(2, 4)));
    expect(r.headers.get("x-total-count")).toBe(String(all.length));
  });

  test("non-members get 403, anonymous 401", async () => {
    const r = await t.json("GET", "/api/v1/orgs/acme/teams", { token: erinToken });
    expect([r.status, r.body.message]).toEqual([403, "Must be an organization member"]);
    expect((await t.json("GET", "/api/v1/orgs/acme/teams")).status).toBe(401);
    expect((await t.json("GET", "/api/v1/orgs/acme/teams", { token: rootToken })).status).toBe(200);
  });

  test("search: {ok, data}; name keyword, optionally the description; non-admins only see their own teams", async () => {
    const r = await t.json("GET", "/api/v1/orgs/acme/teams/search?q=WRIT", { token: aliceToken });
    expect(r.status).toBe(200);
    expectShape(r.body, TeamSearchResult);
    expect(r.body.ok).toBe(true);
    // alice is only in Owners.
    expect(names(r.body.data)).toEqual([]);

    const admin = await ok("GET", "/api/v1/orgs/acme/teams/search?q=WRIT", rootToken);
    expect(names(admin.data)).toEqual(["Writers"]);
    expect(admin.data[0].organization).toMatchObject({ name: "acme" });
    const byDesc = await ok("GET", "/api/v1/orgs/acme/teams/search?q=they", rootToken);
    expect(names(byDesc.data)).toEqual(["Writers"]);
    const nameOnly = await ok("GET", "/api/v1/orgs/acme/teams/search?q=they&include_desc=false", rootToken);
    expect(names(nameOnly.data)).toEqual([]);
    const everything = await t.json("GET", "/api/v1/orgs/acme/teams/search?limit=2", { token: rootToken });
    expect(everything.body.data.length).toBe(2);
    expect(Number(everything.headers.get("x-total-count"))).toBeGreaterThan(2);

    const bobs = await ok("GET", "/api/v1/orgs/acme/teams/search", bobToken);
    expect(names(bobs.data)).toEqual(["bobs"]);
    // LIKE wildcards in the keyword are literal.
    expect(names((await ok("GET", "/api/v1/orgs/acme/teams/search?q=%25", rootToken)).data)).toEqual([]);
    expect((await t.json("GET", "/api/v1/orgs/acme/teams/search", { token: erinToken })).status).toBe(403);
  });

  test("GET /user/teams: the doer's teams across organizations, each with its organization", async () => {
    const r = await t.json("GET", "/api/v1/user/teams", { token: aliceToken });
    expect(r.status).toBe(200);
    for (const team of r.body) expectShape(team, Team);
    const pairs = r.body.map((x: any) => `${x.organization.name}/${x.name}`).toSorted();
    expect(pairs).toEqual(["acme/Owners", "other/Owners"]);
    expect(r.headers.get("x-total-count")).toBe("2");
    const bobs = await ok<any[]>("GET", "/api/v1/user/teams", bobToken);
    expect(bobs.map((x) => `${x.organization.name}/${x.name}`)).toEqual(["acme/bobs"]);
    expect(await ok("GET", "/api/v1/user/teams", erinToken)).toEqual([]);
  });

  test("GET /user/teams needs the user scope only (it sits in Gitea's /user group)", async () => {
    const userOnly = t.token(alice, ["read:user"]);
    expect((await t.json("GET", "/api/v1/user/teams", { token: userOnly })).status).toBe(200);
    const orgOnly = t.token(alice, ["read:organization"]);
    expect((await t.json("GET", "/api/v1/user/teams", { token: orgOnly })).status).toBe(403);
    expect((await t.json("GET", "/api/v1/user/teams")).status).toBe(401);
  });
});

describe("one team", () => {
  let writers: any;
  test("setup", async () => {
    writers = (await ok<any[]>("GET", "/api/v1/orgs/acme/teams?limit=50", aliceToken)).find((x) => x.name === "Writers");
    await addMember(writers.id, "carol");
  });

  test("GET /teams/{id}: site admin, owner and team member pass; other members 403; outsiders and unknown ids 404", async () => {
    for (const token of [rootToken, aliceToken, carolToken]) {
      const r = await t.json("GET", `/api/v1/teams/${writers.id}`, { token });
      expect(r.status).toBe(200);
      expectShape(r.body, Team);
      expect(r.body).toMatchObject({ id: writers.id, name: "Writers", organization: { name: "acme" } });
    }
    const member = await t.json("GET", `/api/v1/teams/${writers.id}`, { token: bobToken });
    expect([member.status, member.body.message]).toEqual([403, "Must be a team member"]);
    expect((await t.json("GET", `/api/v1/teams/${writers.id}`, { token: erinToken })).status).toBe(404);
    expect((await t.json("GET", "/api/v1/teams/99999", { token: rootToken })).status).toBe(404);
    expect((await t.json("GET", "/api/v1/teams/abc", { token: rootToken })).status).toBe(404);
    expect((await t.json("GET", `/api/v1/teams/${writers.id}`)).status).toBe(401);
  });

  test("PATCH: only given fields change", async () => {
    const r = await t.json("PATCH", `/api/v1/teams/${writers.id}`, { token: aliceToken, body: { description: "new desc" } });
    expect(r.status).toBe(200);
    expectShape(r.body, Team);
    expect(r.body).toMatchObject({ ...writers, description: "new desc" });
  });

  test("PATCH: permission with units; includes_all_repositories only changes along with a permission", async () => {
    const edited = await ok("PATCH", `/api/v1/teams/${writers.id}`, aliceToken, {
      name: "Scribes",
      permission: "read",
      units: ["repo.code", "repo.pulls"],
      includes_all_repositories: false,
    });
    expect(edited).toMatchObject({
      name: "Scribes",
      permission: "none",
      units: ["repo.code", "repo.pulls"],
      units_map: { "repo.code": "read", "repo.pulls": "read" },
    });
    const ignored = await ok("PATCH", `/api/v1/teams/${writers.id}`, aliceToken, { includes_all_repositories: true });
    expect(ignored.includes_all_repositories).toBe(false);
    const got = await ok("GET", `/api/v1/teams/${writers.id}`, aliceToken);
    expect(got).toEqual(ignored);
  });

  test("PATCH: units_map replaces the units, with or without a permission; a units list without one gives none", async () => {
    const mapped = await ok("PATCH", `/api/v1/teams/${writers.id}`, aliceToken, {
      permission: "write",
      units_map: { "repo.code": "write", "repo.issues": "write", "repo.releases": "read" },
    });
    expect(mapped.permission).toBe("none");
    expect(mapped.units_map).toEqual({ "repo.code": "write", "repo.issues": "write", "repo.releases": "read" });
    const unitsOnly = await ok("PATCH", `/api/v1/teams/${writers.id}`, aliceToken, {
      units_map: { "repo.code": "write", "repo.issues": "write" },
    });
    expect(unitsOnly.units_map).toEqual({ "repo.code": "write", "repo.issues": "write" });
    const listOnly = await ok("PATCH", `/api/v1/teams/${writers.id}`, aliceToken, { units: ["repo.code"] });
    expect(listOnly.units_map).toEqual({ "repo.code": "none" });
    // Nothing about units: they stay.
    const kept = await ok("PATCH", `/api/v1/teams/${writers.id}`, aliceToken, { permission: "write" });
    expect(kept.units_map).toEqual({ "repo.code": "none" });
  });

  test("PATCH: to admin gives every unit; back to write keeps the unit list at the new mode", async () => {
    const admin = await ok("PATCH", `/api/v1/teams/${writers.id}`, aliceToken, { permission: "admin", units: ["repo.code"] });
    expect(admin.permission).toBe("admin");
    expect(admin.units_map).toEqual(Object.fromEntries(ALL_UNITS.map((u) => [u, "admin"])));
    const write = await ok("PATCH", `/api/v1/teams/${writers.id}`, aliceToken, { permission: "write" });
    expect(write.permission).toBe("none");
    expect(write.units_map).toEqual(Object.fromEntries(ALL_UNITS.map((u) => [u, "write"])));
    const named = await ok("PATCH", `/api/v1/teams/${writers.id}`, aliceToken, {
      name: "Writers",
      permission: "write",
      units: ["repo.code", "repo.issues"],
    });
    expect(named).toMatchObject({ name: "Writers", permission: "none", units_map: { "repo.code": "write", "repo.issues": "write" } });
  });

  test("PATCH: a name another team has is 422; a bad name 422; an empty name is ignored", async () => {
    const acme = await ok("GET", "/api/v1/orgs/acme", aliceToken);
    const taken = await t.json("PATCH", `/api/v1/teams/${writers.id}`, { token: aliceToken, body: { name: "BOBS" } });
    expect([taken.status, taken.body.message]).toEqual([422, `team already exists [org_id: ${acme.id}, name: bobs]`]);
    const bad = await t.json("PATCH", `/api/v1/teams/${writers.id}`, { token: aliceToken, body: { name: "a b" } });
    expect([bad.status, bad.body.message]).toEqual([422, "[Name]: AlphaDashDot"]);
    const empty = await ok("PATCH", `/api/v1/teams/${writers.id}`, aliceToken, { name: "" });
    expect(empty.name).toBe("Writers");
    // Renaming to itself in another case is not a conflict.
    expect((await ok("PATCH", `/api/v1/teams/${writers.id}`, aliceToken, { name: "WRITERS" })).name).toBe("WRITERS");
    await ok("PATCH", `/api/v1/teams/${writers.id}`, aliceToken, { name: "Writers" });
  });

  test("PATCH and DELETE need an owner: a team member gets 404, another org member 403, an outsider 404", async () => {
    // Gitea's reqOrgOwnership answers 404 when only a team is in its context.
    expect((await t.json("PATCH", `/api/v1/teams/${writers.id}`, { token: carolToken, body: { description: "x" } })).status).toBe(404);
    expect((await t.json("DELETE", `/api/v1/teams/${writers.id}`, { token: carolToken })).status).toBe(404);
    const member = await t.json("PATCH", `/api/v1/teams/${writers.id}`, { token: bobToken, body: { description: "x" } });
    expect([member.status, member.body.message]).toEqual([403, "Must be a team member"]);
    expect((await t.json("PATCH", `/api/v1/teams/${writers.id}`, { token: erinToken, body: {} })).status).toBe(404);
    expect((await t.json("DELETE", `/api/v1/teams/${writers.id}`, { token: erinToken })).status).toBe(404);
    expect((await ok("GET", `/api/v1/teams/${writers.id}`, aliceToken)).description).toBe("new desc");
  });

  test("the Owners team keeps its permission, repositories and name, and cannot be deleted", async () => {
    const owners = (await ok<any[]>("GET", "/api/v1/orgs/acme/teams", aliceToken))[0];
    const edited = await ok("PATCH", `/api/v1/teams/${owners.id}`, aliceToken, {
      description: "the bosses",
      permission: "read",
      units: ["repo.code"],
      includes_all_repositories: false,
      can_create_org_repo: false,
    });
    expect(edited).toMatchObject({
      name: "Owners",
      description: "the bosses",
      permission: "owner",
      includes_all_repositories: true,
      can_create_org_repo: true,
    });
    expect(edited.units_map).toEqual(Object.fromEntries(ALL_UNITS.map((u) => [u, "owner"])));
    const renamed = await t.json("PATCH", `/api/v1/teams/${owners.id}`, { token: aliceToken, body: { name: "Bosses" } });
    expect(renamed.status).toBe(422);
    const del = await t.json("DELETE", `/api/v1/teams/${owners.id}`, { token: aliceToken });
    expect(del.status).toBe(422);
    expect((await t.json("GET", `/api/v1/teams/${owners.id}`, { token: aliceToken })).status).toBe(200);
  });

  test("DELETE: 204, the team is gone and members left in no team leave the organization", async () => {
    const temp = await createTeam("acme", { name: "temp", units: ["repo.code"] });
    await addMember(temp.id, "dave");
    await addMember(temp.id, "carol");
    expect((await t.json("GET", "/api/v1/orgs/acme/members/dave", { token: aliceToken })).status).toBe(204);
    expect((await t.json("DELETE", `/api/v1/teams/${temp.id}`, { token: aliceToken })).status).toBe(204);
    expect((await t.json("GET", `/api/v1/teams/${temp.id}`, { token: aliceToken })).status).toBe(404);
    expect((await t.json("GET", "/api/v1/orgs/acme/members/dave", { token: aliceToken })).status).toBe(404);
    // carol is still in Writers.
    expect((await t.json("GET", "/api/v1/orgs/acme/members/carol", { token: aliceToken })).status).toBe(204);
  });
});

describe("members", () => {
  test("PUT makes the user a team and organization member; GET lists them; DELETE of the last team leaves the org", async () => {
    const team = await createTeam("acme", { name: "crew", units: ["repo.code"] });
    expect((await t.json("GET", "/api/v1/orgs/acme/members/dave", { token: aliceToken })).status).toBe(404);
    await addMember(team.id, "dave");
    await addMember(team.id, "dave"); // again: no-op
    await addMember(team.id, "carol");
    expect((await t.json("GET", "/api/v1/orgs/acme/members/dave", { token: aliceToken })).status).toBe(204);

    const list = await t.json("GET", `/api/v1/teams/${team.id}/members`, { token: daveToken });
    expect(list.status).toBe(200);
    expect(list.body.map((u: any) => u.login)).toEqual(["carol", "dave"]);
    expect(list.headers.get("x-total-count")).toBe("2");

    const one = await t.json("GET", `/api/v1/teams/${team.id}/members/dave`, { token: aliceToken });
    expect([one.status, one.body.login]).toEqual([200, "dave"]);
    expect((await t.json("GET", `/api/v1/teams/${team.id}/members/bob`, { token: aliceToken })).status).toBe(404);
    expect((await t.json("GET", `/api/v1/teams/${team.id}/members/ghost-user`, { token: aliceToken })).status).toBe(404);

    expect((await t.json("DELETE", `/api/v1/teams/${team.id}/members/dave`, { token: aliceToken })).status).toBe(204);
    expect((await t.json("GET", `/api/v1/teams/${team.id}/members/dave`, { token: aliceToken })).status).toBe(404);
    expect((await t.json("GET", "/api/v1/orgs/acme/members/dave", { token: aliceToken })).status).toBe(404);
    // carol is in another team too: she stays in the organization.
    expect((await t.json("DELETE", `/api/v1/teams/${team.id}/members/carol`, { token: aliceToken })).status).toBe(204);
    expect((await t.json("GET", "/api/v1/orgs/acme/members/carol", { token: aliceToken })).status).toBe(204);
    // Removing a non-member is a no-op.
    expect((await t.json("DELETE", `/api/v1/teams/${team.id}/members/erin`, { token: aliceToken })).status).toBe(204);
    expect((await ok<any[]>("GET", `/api/v1/teams/${team.id}/members`, aliceToken)).length).toBe(0);
  });

  test("only owners change members (others 404, as Gitea, or 403 outside the team); unknown users 404", async () => {
    const team = await createTeam("acme", { name: "crew2", units: ["repo.code"] });
    await addMember(team.id, "carol");
    expect((await t.json("PUT", `/api/v1/teams/${team.id}/members/dave`, { token: carolToken })).status).toBe(404);
    expect((await t.json("DELETE", `/api/v1/teams/${team.id}/members/carol`, { token: carolToken })).status).toBe(404);
    expect((await t.json("PUT", `/api/v1/teams/${team.id}/members/dave`, { token: bobToken })).status).toBe(403);
    expect((await t.json("PUT", `/api/v1/teams/${team.id}/members/nobody`, { token: aliceToken })).status).toBe(404);
    expect((await t.json("PUT", `/api/v1/teams/${team.id}/members/other`, { token: aliceToken })).status).toBe(404);
    expect((await t.json("GET", `/api/v1/teams/${team.id}/members`, { token: bobToken })).status).toBe(403);
    expect((await t.json("GET", `/api/v1/teams/${team.id}/members`, { token: erinToken })).status).toBe(404);
  });

  test("the last Owners member cannot be removed (422); with a second owner they can", async () => {
    const owners = (await ok<any[]>("GET", "/api/v1/orgs/other/teams", aliceToken))[0];
    const last = await t.json("DELETE", `/api/v1/teams/${owners.id}/members/alice`, { token: aliceToken });
    expect(last.status).toBe(422);
    expect(last.body.message).toBe(`user is the last member of owner team [uid: ${alice.id}]`);
    await addMember(owners.id, "dave");
    // dave is now an owner of "other": he may create teams there.
    await createTeam("other", { name: "daves", units: ["repo.code"] }, daveToken);
    expect((await t.json("DELETE", `/api/v1/teams/${owners.id}/members/alice`, { token: daveToken })).status).toBe(204);
    expect((await t.json("GET", "/api/v1/orgs/other/members/alice", { token: daveToken })).status).toBe(404);
    const daveLast = await t.json("DELETE", `/api/v1/teams/${owners.id}/members/dave`, { token: daveToken });
    expect(daveLast.status).toBe(422);
    await addMember(owners.id, "alice", daveToken);
  });
});

describe("repositories", () => {
  let readers: any;
  let writers: any;
  let admins: any;
  let issuesOnly: any;
  let everything: any;
  test("setup: private repositories and teams", async () => {
    await createOrg(aliceToken, "repoco");
    for (const name of ["secret", "plain", "docs"]) {
      await ok("POST", "/api/v1/orgs/repoco/repos", aliceToken, { name, private: true, auto_init: true }, 201);
    }
    await ok("POST", "/api/v1/orgs/other/repos", aliceToken, { name: "elsewhere", private: true }, 201);
    readers = await createTeam("repoco", { name: "readers", permission: "read", units: ["repo.code", "repo.issues"] });
    writers = await createTeam("repoco", { name: "writers", permission: "write", units: ["repo.code", "repo.issues"] });
    admins = await createTeam("repoco", { name: "admins", permission: "admin" });
    issuesOnly = await createTeam("repoco", { name: "issues", units_map: { "repo.issues": "read" } });
    everything = await createTeam("repoco", { name: "everything", permission: "read", units: ["repo.code"], includes_all_repositories: true });
    await addMember(readers.id, "bob");
    await addMember(writers.id, "carol");
    await addMember(admins.id, "dave");
    await addMember(issuesOnly.id, "erin");
  });

  test("PUT adds an organization repository: 204, listed with the doer's permissions, counted", async () => {
    for (const team of [readers, writers, admins, issuesOnly]) {
      expect((await t.json("PUT", `/api/v1/teams/${team.id}/repos/repoco/secret`, { token: aliceToken })).status).toBe(204);
    }
    await ok("PUT", `/api/v1/teams/${readers.id}/repos/repoco/docs`, aliceToken, undefined, 204);
    await ok("PUT", `/api/v1/teams/${readers.id}/repos/RepoCo/docs`, aliceToken, undefined, 204); // again: no-op
    const r = await t.json("GET", `/api/v1/teams/${readers.id}/repos`, { token: bobToken });
    expect(r.status).toBe(200);
    expect(r.body.map((x: any) => x.full_name)).toEqual(["repoco/docs", "repoco/secret"]);
    expect(r.headers.get("x-total-count")).toBe("2");
    expect(r.body[0].permissions).toEqual({ admin: false, push: false, pull: true });

    const one = await t.json("GET", `/api/v1/teams/${readers.id}/repos/repoco/secret`, { token: bobToken });
    expect([one.status, one.body.full_name]).toEqual([200, "repoco/secret"]);
    expect((await t.json("GET", `/api/v1/teams/${readers.id}/repos/repoco/plain`, { token: bobToken })).status).toBe(404);
  });

  test("PUT: a repository of another organization or a missing one is 404", async () => {
    expect((await t.json("PUT", `/api/v1/teams/${readers.id}/repos/other/elsewhere`, { token: aliceToken })).status).toBe(404);
    expect((await t.json("PUT", `/api/v1/teams/${readers.id}/repos/repoco/elsewhere`, { token: aliceToken })).status).toBe(404);
    expect((await t.json("PUT", `/api/v1/teams/${readers.id}/repos/repoco/missing`, { token: aliceToken })).status).toBe(404);
  });

  test("PUT/DELETE need admin access to the repository: team members without it get 403", async () => {
    const r = await t.json("PUT", `/api/v1/teams/${readers.id}/repos/repoco/plain`, { token: bobToken });
    expect([r.status, r.body.message]).toEqual([403, "Must have admin-level access to the repository"]);
    const d = await t.json("DELETE", `/api/v1/teams/${readers.id}/repos/repoco/secret`, { token: bobToken });
    expect(d.status).toBe(403);
    // Outsiders do not see the team at all; other members are told it is not theirs.
    expect((await t.json("PUT", `/api/v1/teams/${readers.id}/repos/repoco/plain`, { token: frankToken })).status).toBe(404);
    const other = await t.json("PUT", `/api/v1/teams/${readers.id}/repos/repoco/plain`, { token: erinToken });
    expect([other.status, other.body.message]).toEqual([403, "Must be a team member"]);
    // dave administers secret through his admin team and may give it to his own team (already there) but not plain.
    expect((await t.json("PUT", `/api/v1/teams/${admins.id}/repos/repoco/secret`, { token: daveToken })).status).toBe(204);
    expect((await t.json("PUT", `/api/v1/teams/${admins.id}/repos/repoco/plain`, { token: daveToken })).status).toBe(403);
  });

  test("a read team member reads a private repository: pull true, push false", async () => {
    const r = await t.json("GET", "/api/v1/repos/repoco/secret", { token: bobToken });
    expect(r.status).toBe(200);
    expect(r.body.permissions).toEqual({ admin: false, push: false, pull: true });
    expect((await t.json("GET", "/api/v1/repos/repoco/secret/contents", { token: bobToken })).status).toBe(200);
    // A repository the team does not have stays hidden.
    expect((await t.json("GET", "/api/v1/repos/repoco/plain", { token: bobToken })).status).toBe(404);
  });

  test("a write team member pushes; an admin team member administers", async () => {
    const w = await ok("GET", "/api/v1/repos/repoco/secret", carolToken);
    expect(w.permissions).toEqual({ admin: false, push: true, pull: true });
    const a = await ok("GET", "/api/v1/repos/repoco/secret", daveToken);
    expect(a.permissions).toEqual({ admin: true, push: true, pull: true });
  });

  test("an issues-only team sees the repository but not its code", async () => {
    const r = await t.json("GET", "/api/v1/repos/repoco/secret", { token: erinToken });
    expect(r.status).toBe(200);
    expect(r.body.permissions).toEqual({ admin: false, push: false, pull: false });
    expect((await t.json("GET", "/api/v1/repos/repoco/secret/contents", { token: erinToken })).status).toBe(403);
    expect((await t.json("GET", "/api/v1/repos/repoco/secret/contents/README.md", { token: erinToken })).status).toBe(403);
  });

  test("includes_all_repositories: every existing and every new repository, and removal is a no-op", async () => {
    const before = await t.json("GET", `/api/v1/teams/${everything.id}/repos`, { token: aliceToken });
    expect(before.body.map((x: any) => x.name)).toEqual(["docs", "plain", "secret"]);
    await ok("POST", "/api/v1/orgs/repoco/repos", aliceToken, { name: "fresh", private: true }, 201);
    const after = await t.json("GET", `/api/v1/teams/${everything.id}/repos`, { token: aliceToken });
    expect(after.body.map((x: any) => x.name)).toEqual(["docs", "fresh", "plain", "secret"]);
    expect(after.headers.get("x-total-count")).toBe("4");
    expect((await t.json("DELETE", `/api/v1/teams/${everything.id}/repos/repoco/fresh`, { token: aliceToken })).status).toBe(204);
    expect((await ok<any[]>("GET", `/api/v1/teams/${everything.id}/repos`, aliceToken)).length).toBe(4);
    // The Owners team too.
    const owners = (await ok<any[]>("GET", "/api/v1/orgs/repoco/teams", aliceToken))[0];
    expect((await ok<any[]>("GET", `/api/v1/teams/${owners.id}/repos`, aliceToken)).length).toBe(4);
    // Switching it on later adds what exists.
    const late = await ok("PATCH", `/api/v1/teams/${readers.id}`, aliceToken, { permission: "read", includes_all_repositories: true });
    expect(late.includes_all_repositories).toBe(true);
    expect((await ok<any[]>("GET", `/api/v1/teams/${readers.id}/repos`, aliceToken)).length).toBe(4);
    await ok("PATCH", `/api/v1/teams/${readers.id}`, aliceToken, { permission: "read", includes_all_repositories: false });
  });

  test("DELETE takes the repository from the team and its members lose access", async () => {
    expect((await t.json("DELETE", `/api/v1/teams/${writers.id}/repos/repoco/secret`, { token: aliceToken })).status).toBe(204);
    expect((await ok<any[]>("GET", `/api/v1/teams/${writers.id}/repos`, aliceToken)).length).toBe(0);
    expect((await t.json("GET", "/api/v1/repos/repoco/secret", { token: carolToken })).status).toBe(404);
    // Removing a repository the team does not have is fine.
    expect((await t.json("DELETE", `/api/v1/teams/${writers.id}/repos/repoco/secret`, { token: aliceToken })).status).toBe(204);
  });

  test("leaving the team takes the access away", async () => {
    expect((await t.json("DELETE", `/api/v1/teams/${admins.id}/members/dave`, { token: aliceToken })).status).toBe(204);
    expect((await t.json("GET", "/api/v1/repos/repoco/secret", { token: daveToken })).status).toBe(404);
  });
});
