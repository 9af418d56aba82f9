import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { gitOk } from "../support/git.ts";
import { expectShape } from "../support/shape.ts";
import { TagProtection } from "../../src/shapes/tag-protection.ts";
import { compileTagPattern } from "../../src/services/protection/tag-rules.ts";
import { gitDirOf } from "../../src/services/repo/lookup.ts";

const t = makeTestApp();
const alice = await t.user("alice"); // owns tp and the acme organization
const bob = await t.user("bob"); // writes tp; in acme's devs team
const carol = await t.user("carol"); // reads tp
const dave = await t.user("dave"); // writes acme/orgtp, in no allowed team
const aliceToken = t.token(alice);
const bobToken = t.token(bob);
const carolToken = t.token(carol);
const daveToken = t.token(dave);
const api = (rest = "", repo = "alice/tp") => `/api/v1/repos/${repo}${rest}`;
const tagRef = async (repo: string, tag: string) => {
  const [owner, name] = repo.split("/") as [string, string];
  const out = await gitOk(["--git-dir", gitDirOf(t.env, { name: owner }, { name }), "tag", "--list", tag]);
  return out.trim();
};

await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "tp", auto_init: true }, 201);
await t.ok("PUT", api("/collaborators/bob"), aliceToken, { permission: "write" }, 204);
await t.ok("PUT", api("/collaborators/carol"), aliceToken, { permission: "read" }, 204);
await t.ok("POST", "/api/v1/orgs", aliceToken, { username: "acme" }, 201);
const acme = await t.ok("GET", "/api/v1/orgs/acme", aliceToken);
await t.ok("POST", "/api/v1/orgs/acme/repos", aliceToken, { name: "orgtp", auto_init: true }, 201);
const devs = await t.ok("POST", "/api/v1/orgs/acme/teams", aliceToken, { name: "devs", permission: "write", units: ["repo.code", "repo.releases"], includes_all_repositories: true }, 201);
await t.ok("PUT", `/api/v1/teams/${devs.id}/members/bob`, aliceToken, undefined, 204);
await t.ok("POST", "/api/v1/orgs/acme/teams", aliceToken, { name: "outsiders", permission: "read", units: ["repo.wiki"] }, 201);
await t.ok("PUT", api("/collaborators/dave", "acme/orgtp"), aliceToken, { permission: "write" }, 204);

const create = (body: Record<string, unknown>, token = aliceToken, repo = "alice/tp") =>
  t.json("POST", api("/tag_protections", repo), { token, body });
const edit = (id: number | string, body: Record<string, unknown>, token = aliceToken) =>
  t.json("PATCH", api(`/tag_protections/${id}`), { token, body });
const del = (id: number | string, token = aliceToken, repo = "alice/tp") => t.json("DELETE", api(`/tag_protections/${id}`, repo), { token });

describe("tag protection CRUD", () => {
  test("create, get, list, edit and delete with Gitea's JSON", async () => {
    const r = await create({ name_pattern: "  v*  ", whitelist_usernames: ["bob"] });
    expect(r.status).toBe(201);
    expectShape(r.body, TagProtection);
    expect(r.body).toMatchObject({ name_pattern: "v*", whitelist_usernames: ["bob"], whitelist_teams: [] });
    expect(Date.parse(r.body.created_at)).toBeGreaterThan(0);
    const id = r.body.id as number;

    expect(await t.ok("GET", api(`/tag_protections/${id}`), aliceToken)).toEqual(r.body);
    const list = await t.ok("GET", api("/tag_protections"), aliceToken);
    expect(list.map((p: { id: number }) => p.id)).toEqual([id]);

    // Only the fields given change; a list given replaces the old one, names come back sorted.
    const e1 = await edit(id, { whitelist_usernames: ["Bob", "alice"] });
    expect(e1.status).toBe(200);
    expect(e1.body).toMatchObject({ id, name_pattern: "v*", whitelist_usernames: ["alice", "bob"], whitelist_teams: [] });
    const e2 = await edit(id, { name_pattern: "release-*" });
    expect(e2.body).toMatchObject({ name_pattern: "release-*", whitelist_usernames: ["alice", "bob"] });

    expect((await del(id)).status).toBe(204);
    expect((await t.json("GET", api(`/tag_protections/${id}`), { token: aliceToken })).status).toBe(404);
    expect((await del(id)).status).toBe(404);
    expect(await t.ok("GET", api("/tag_protections"), aliceToken)).toEqual([]);
  });

  test("refusals: empty pattern or lists 400, duplicate 403, unknown user 422, bad patterns 422", async () => {
    const empty = await create({ name_pattern: "  ", whitelist_usernames: ["bob"] });
    expect(empty).toMatchObject({ status: 400, body: { message: "name_pattern are empty" } });
    const noLists = await create({ name_pattern: "x*", whitelist_usernames: [], whitelist_teams: [] });
    expect(noLists).toMatchObject({ status: 400, body: { message: "both whitelist_usernames and whitelist_teams are empty" } });
    const unknown = await create({ name_pattern: "x*", whitelist_usernames: ["bob", "nobody"] });
    expect(unknown).toMatchObject({ status: 422, body: { message: "user does not exist [uid: 0, name: nobody]" } });
    // An organization is not a user that can be allow-listed.
    expect((await create({ name_pattern: "x*", whitelist_usernames: ["acme"] })).status).toBe(422);
    const badRegexp = await create({ name_pattern: "/v(1/", whitelist_usernames: ["bob"] });
    expect(badRegexp.status).toBe(422);
    expect(badRegexp.body.message).toContain("name_pattern");
    expect((await create({ name_pattern: "v[1", whitelist_usernames: ["bob"] })).status).toBe(422);
    expect(await t.ok("GET", api("/tag_protections"), aliceToken)).toEqual([]);

    const made = await create({ name_pattern: "dup", whitelist_usernames: ["bob"] });
    expect(made.status).toBe(201);
    expect(await create({ name_pattern: "dup", whitelist_usernames: ["alice"] })).toMatchObject({
      status: 403,
      body: { message: "Tag protection already exist" },
    });
    expect((await edit(made.body.id, { whitelist_usernames: ["nobody"] })).status).toBe(422);
    expect((await edit(made.body.id, { name_pattern: "/(/" })).status).toBe(422);
    expect(await t.ok("GET", api(`/tag_protections/${made.body.id}`), aliceToken)).toMatchObject({
      name_pattern: "dup",
      whitelist_usernames: ["bob"],
    });
    await del(made.body.id);
  });

  test("404 for unknown, foreign or malformed ids; 403 for non-admins; 401 anonymous", async () => {
    const foreign = await create({ name_pattern: "v*", whitelist_usernames: ["bob"] }, aliceToken, "acme/orgtp");
    expect(foreign.status).toBe(201);
    for (const id of [foreign.body.id, 999999, "abc"]) {
      expect((await t.json("GET", api(`/tag_protections/${id}`), { token: aliceToken })).status).toBe(404);
      expect((await edit(id, { name_pattern: "x" })).status).toBe(404);
      expect((await del(id)).status).toBe(404);
    }
    // A writer and a reader are not repository administrators.
    for (const token of [bobToken, carolToken]) {
      expect((await t.json("GET", api("/tag_protections"), { token })).status).toBe(403);
      expect((await create({ name_pattern: "w*", whitelist_usernames: ["bob"] }, token)).status).toBe(403);
    }
    expect((await t.json("GET", api(`/tag_protections/${foreign.body.id}`, "acme/orgtp"), { token: daveToken })).status).toBe(403);
    expect((await t.json("GET", api("/tag_protections"))).status).toBe(401);
    expect((await del(foreign.body.id, aliceToken, "acme/orgtp")).status).toBe(204);
  });

  test("archived repositories refuse create and edit (423)", async () => {
    await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "old", auto_init: true }, 201);
    const made = await create({ name_pattern: "v*", whitelist_usernames: ["bob"] }, aliceToken, "alice/old");
    expect(made.status).toBe(201);
    await t.ok("PATCH", api("", "alice/old"), aliceToken, { archived: true });
    expect((await create({ name_pattern: "w*", whitelist_usernames: ["bob"] }, aliceToken, "alice/old")).status).toBe(423);
    const patch = await t.json("PATCH", api(`/tag_protections/${made.body.id}`, "alice/old"), { token: aliceToken, body: { name_pattern: "x" } });
    expect(patch.status).toBe(423);
    // Listing still works.
    expect((await t.ok("GET", api("/tag_protections", "alice/old"), aliceToken)).length).toBe(1);
  });

  test("teams: organization repositories only; unknown team 422; users without access are not shown", async () => {
    const r = await create({ name_pattern: "t*", whitelist_teams: ["devs"] }, aliceToken, "acme/orgtp");
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ whitelist_teams: ["devs"], whitelist_usernames: [] });
    // outsiders has no code or pull request access to the repository: kept, but not shown.
    const e = await t.json("PATCH", api(`/tag_protections/${r.body.id}`, "acme/orgtp"), {
      token: aliceToken,
      body: { whitelist_teams: ["outsiders", "devs"] },
    });
    expect(e.body.whitelist_teams).toEqual(["devs"]);
    const unknown = await create({ name_pattern: "u*", whitelist_teams: ["nope"] }, aliceToken, "acme/orgtp");
    expect(unknown).toMatchObject({ status: 422, body: { message: `team does not exist [org_id ${acme.id}, team_id 0, name: nope]` } });
    await del(r.body.id, aliceToken, "acme/orgtp");

    // On a user's repository team names are ignored (Gitea), so the rule allows nobody.
    const userRepo = await create({ name_pattern: "t*", whitelist_teams: ["devs"] });
    expect(userRepo.status).toBe(201);
    expect(userRepo.body.whitelist_teams).toEqual([]);
    await del(userRepo.body.id);

    // dave cannot read this private repository: allow-listed, but not shown.
    await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "priv", private: true }, 201);
    await t.ok("PUT", api("/collaborators/carol", "alice/priv"), aliceToken, { permission: "read" }, 204);
    const priv = await create({ name_pattern: "v*", whitelist_usernames: ["dave", "carol"] }, aliceToken, "alice/priv");
    expect(priv.body.whitelist_usernames).toEqual(["carol"]);
  });
});

describe("protected tags through the API", () => {
  test("tag create and delete: refused off the allow-list (repository owner included), allowed on it", async () => {
    const rule = await t.ok("POST", api("/tag_protections"), aliceToken, { name_pattern: "v*", whitelist_usernames: ["bob"] }, 201);
    const asAlice = await t.json("POST", api("/tags"), { token: aliceToken, body: { tag_name: "v1.0" } });
    expect(asAlice).toMatchObject({ status: 422, body: { message: "user not allowed to create protected tag" } });
    expect(await tagRef("alice/tp", "v1.0")).toBe("");
    await t.ok("POST", api("/tags"), bobToken, { tag_name: "v1.0", message: "annotated" }, 201);
    // An unprotected name is free for any writer.
    await t.ok("POST", api("/tags"), aliceToken, { tag_name: "x1" }, 201);

    const del1 = await t.json("DELETE", api("/tags/v1.0"), { token: aliceToken });
    expect(del1).toMatchObject({ status: 422, body: { message: "user not allowed to delete protected tag" } });
    expect(await tagRef("alice/tp", "v1.0")).toBe("v1.0");
    // A missing tag is still 404 before protection is considered.
    expect((await t.json("DELETE", api("/tags/v9"), { token: aliceToken })).status).toBe(404);
    expect((await t.json("DELETE", api("/tags/v1.0"), { token: bobToken })).status).toBe(204);
    expect(await tagRef("alice/tp", "v1.0")).toBe("");
    await t.ok("DELETE", api(`/tag_protections/${rule.id}`), aliceToken, undefined, 204);
  });

  test("several matching rules: one that allows the user is enough", async () => {
    const a = await t.ok("POST", api("/tag_protections"), aliceToken, { name_pattern: "r*", whitelist_usernames: ["alice"] }, 201);
    const b = await t.ok("POST", api("/tag_protections"), aliceToken, { name_pattern: "/^r\\d+$/", whitelist_usernames: ["bob"] }, 201);
    await t.ok("POST", api("/tags"), bobToken, { tag_name: "r1" }, 201);
    await t.ok("POST", api("/tags"), aliceToken, { tag_name: "r2" }, 201);
    // Only the glob matches `rc`: bob is not on its list.
    expect((await t.json("POST", api("/tags"), { token: bobToken, body: { tag_name: "rc" } })).status).toBe(422);
    await t.ok("DELETE", api(`/tag_protections/${a.id}`), aliceToken, undefined, 204);
    await t.ok("DELETE", api(`/tag_protections/${b.id}`), aliceToken, undefined, 204);
  });

  test("team allow-lists on an organization repository", async () => {
    const rule = await create({ name_pattern: "v*", whitelist_teams: ["devs"] }, aliceToken, "acme/orgtp");
    expect(rule.status).toBe(201);
    // alice owns the organization but is not in devs.
    for (const token of [daveToken, aliceToken]) {
      const r = await t.json("POST", api("/tags", "acme/orgtp"), { token, body: { tag_name: "v1" } });
      expect(r).toMatchObject({ status: 422, body: { message: "user not allowed to create protected tag" } });
    }
    await t.ok("POST", api("/tags", "acme/orgtp"), bobToken, { tag_name: "v1" }, 201);
    expect((await t.json("DELETE", api("/tags/v1", "acme/orgtp"), { token: daveToken })).status).toBe(422);
    expect((await t.json("DELETE", api("/tags/v1", "acme/orgtp"), { token: bobToken })).status).toBe(204);
    await del(rule.body.id, aliceToken, "acme/orgtp");
  });

  test("a release that would create a protected tag is refused; an existing tag or a draft is not", async () => {
    const rule = await t.ok("POST", api("/tag_protections"), aliceToken, { name_pattern: "rel-*", whitelist_usernames: ["alice"] }, 201);
    const refused = await t.json("POST", api("/releases"), { token: bobToken, body: { tag_name: "rel-1", name: "one" } });
    expect(refused).toMatchObject({ status: 422, body: { message: "release tag name is protected [tag_name: rel-1]" } });
    expect(await tagRef("alice/tp", "rel-1")).toBe("");
    expect(await t.ok("GET", api("/releases"), aliceToken)).toEqual([]);

    // A draft creates no tag; publishing it would, so bob cannot publish it, alice can.
    const draft = await t.ok("POST", api("/releases"), bobToken, { tag_name: "rel-2", name: "two", draft: true }, 201);
    const publish = await t.json("PATCH", api(`/releases/${draft.id}`), { token: bobToken, body: { draft: false } });
    expect(publish).toMatchObject({ status: 422, body: { message: "release tag name is protected [tag_name: rel-2]" } });
    expect(await tagRef("alice/tp", "rel-2")).toBe("");
    await t.ok("PATCH", api(`/releases/${draft.id}`), aliceToken, { draft: false });
    expect(await tagRef("alice/tp", "rel-2")).toBe("rel-2");

    // A tag that already exists is not created again: bob may make a release of it.
    await t.ok("POST", api("/tags"), aliceToken, { tag_name: "rel-3" }, 201);
    await t.ok("POST", api("/releases"), bobToken, { tag_name: "rel-3", name: "three" }, 201);
    await t.ok("POST", api("/releases"), aliceToken, { tag_name: "rel-1", name: "one" }, 201);
    await t.ok("DELETE", api(`/tag_protections/${rule.id}`), aliceToken, undefined, 204);
  });
});

describe("name patterns", () => {
  const m = (pattern: string, name: string) => compileTagPattern(pattern)(name);
  test("a plain name matches only itself, case-sensitively", () => {
    expect(m("v1.0", "v1.0")).toBe(true);
    expect(m("v1.0", "v1x0")).toBe(false);
    expect(m("v1.0", "V1.0")).toBe(false);
    expect(m("v1.0", "v1.0.1")).toBe(false);
  });
  test("globs have no separator: `*` crosses `/`", () => {
    expect(m("v*", "v1/rc")).toBe(true);
    expect(m("v*", "xv1")).toBe(false);
    expect(m("v?.{0,1}", "v2.1")).toBe(true);
    expect(m("v?.{0,1}", "v2.2")).toBe(false);
    expect(m("v[0-9]*", "va")).toBe(false);
  });
  test("/regexp/ matches anywhere unless anchored; Go's leading flags are understood", () => {
    expect(m("/rc/", "v1-rc2")).toBe(true);
    expect(m("/^v\\d+$/", "v12")).toBe(true);
    expect(m("/^v\\d+$/", "v1a")).toBe(false);
    expect(m("/(?i)^release$/", "RELEASE")).toBe(true);
    expect(m("/^release$/", "RELEASE")).toBe(false);
    // `/` alone is a glob naming the tag `/`.
    expect(m("/", "/")).toBe(true);
  });
});
