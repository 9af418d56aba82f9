import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";

const t = makeTestApp();
const root = await t.user("root", { admin: true });
const rootToken = t.token(root);
const alice = await t.user("alice");
const aliceToken = t.token(alice);
const bob = await t.user("bob");
const bobToken = t.token(bob);
const carol = await t.user("carol");
const carolToken = t.token(carol);

async function ok(method: string, path: string, token: string, body?: unknown, status = 200) {
  const r = await t.json(method, path, { token, body });
  expect({ path, status: r.status, body: r.status === status ? undefined : r.body }).toEqual({ path, status, body: undefined });
  return r.body;
}

await ok("POST", "/api/v1/orgs", aliceToken, { username: "acme" }, 201);
await ok("POST", "/api/v1/orgs", aliceToken, { username: "hidden", visibility: "private" }, 201);
await ok("POST", "/api/v1/orgs", carolToken, { username: "other" }, 201);
const creators = await ok("POST", "/api/v1/orgs/acme/teams", aliceToken, {
  name: "creators",
  permission: "read",
  units: ["repo.code"],
  can_create_org_repo: true,
}, 201);
const readers = await ok("POST", "/api/v1/orgs/acme/teams", aliceToken, { name: "readers", permission: "read", units: ["repo.code"] }, 201);
const everything = await ok("POST", "/api/v1/orgs/acme/teams", aliceToken, {
  name: "everything",
  permission: "read",
  units: ["repo.code"],
  includes_all_repositories: true,
}, 201);
const otherTeam = await ok("POST", "/api/v1/orgs/other/teams", carolToken, { name: "x", permission: "read", units: ["repo.code"] }, 201);
await ok("PUT", `/api/v1/teams/${creators.id}/members/bob`, aliceToken, undefined, 204);
await ok("PUT", `/api/v1/teams/${readers.id}/members/carol`, aliceToken, undefined, 204);

const teamRepoNames = async (teamId: number) =>
  ((await ok("GET", `/api/v1/teams/${teamId}/repos`, rootToken)) as { name: string }[]).map((r) => r.name).sort();

describe("POST /orgs/{org}/repos", () => {
  test("an owner creates; the repository joins the all-repositories teams (Owners included)", async () => {
    const repo = await ok("POST", "/api/v1/orgs/acme/repos", aliceToken, { name: "one", private: true }, 201);
    expect(repo.owner.login).toBe("acme");
    expect(repo.permissions).toEqual({ admin: true, push: true, pull: true });
    expect(await teamRepoNames(everything.id)).toContain("one");
    expect(await teamRepoNames(readers.id)).not.toContain("one");
  });

  test("a member of a team allowed to create becomes the new repository's administrator", async () => {
    const repo = await ok("POST", "/api/v1/orgs/acme/repos", bobToken, { name: "bobs", private: true }, 201);
    expect(repo.permissions).toEqual({ admin: true, push: true, pull: true });
    const collaborators = await ok("GET", "/api/v1/repos/acme/bobs/collaborators", aliceToken);
    expect(collaborators.map((u: { login: string }) => u.login)).toEqual(["bob"]);
  });

  test("members of teams without the right get 403, outsiders of a private org 404, unknown orgs 422", async () => {
    const member = await t.json("POST", "/api/v1/orgs/acme/repos", { token: carolToken, body: { name: "no" } });
    expect(member.status).toBe(403);
    expect(member.body.message).toBe("Given user is not allowed to create repository in organization.");
    expect((await t.json("POST", "/api/v1/orgs/hidden/repos", { token: bobToken, body: { name: "no" } })).status).toBe(404);
    expect((await t.json("POST", "/api/v1/orgs/nosuch/repos", { token: bobToken, body: { name: "no" } })).status).toBe(404);
    const unknown = await t.json("POST", "/api/v1/org/nosuch/repos", { token: bobToken, body: { name: "no" } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toBe("org does not exist [id: 0, name: nosuch]");
    expect((await t.json("POST", "/api/v1/orgs/acme/repos", { token: rootToken, body: { name: "byadmin" } })).status).toBe(201);
    expect((await t.json("POST", "/api/v1/org/acme/repos", { token: aliceToken, body: { name: "deprecated" } })).status).toBe(201);
    expect((await t.json("POST", "/api/v1/orgs/acme/repos", { token: aliceToken, body: { name: "one" } })).status).toBe(409);
  });

  test("private and internal as Gitea's ToRepo: a public repository of a private owner is internal", async () => {
    await ok("POST", "/api/v1/orgs", aliceToken, { username: "limitedco", visibility: "limited" }, 201);
    await ok("POST", "/api/v1/orgs", aliceToken, { username: "publicco" }, 201);
    const flags = async (org: string, name: string, priv: boolean) => {
      const r = await ok("POST", `/api/v1/orgs/${org}/repos`, aliceToken, { name, private: priv }, 201);
      return { private: r.private, internal: r.internal };
    };
    expect(await flags("hidden", "inside", false)).toEqual({ private: false, internal: true });
    expect(await flags("hidden", "secret", true)).toEqual({ private: true, internal: false });
    // Only a private owner makes a repository internal; a limited one does not.
    expect(await flags("limitedco", "members", false)).toEqual({ private: false, internal: false });
    expect(await flags("publicco", "open", false)).toEqual({ private: false, internal: false });
    expect((await ok("GET", "/api/v1/repos/hidden/inside", aliceToken)).internal).toBe(true);
  });

  test("GET /orgs/{org}/repos lists what the viewer may see", async () => {
    const anon = (await t.json("GET", "/api/v1/orgs/acme/repos")).body.map((r: { name: string }) => r.name);
    expect(anon).toEqual(["byadmin", "deprecated"]);
    const owner = (await ok("GET", "/api/v1/orgs/acme/repos", aliceToken)).map((r: { name: string }) => r.name);
    expect(owner.sort()).toEqual(["bobs", "byadmin", "deprecated", "one"]);
    expect((await t.json("GET", "/api/v1/orgs/hidden/repos", { token: bobToken })).status).toBe(404);
  });
});

describe("transfers and organizations", () => {
  test("an owner who may create org repositories moves a repository in at once, with the teams asked for", async () => {
    await ok("POST", "/api/v1/user/repos", aliceToken, { name: "mine", private: true }, 201);
    const r = await ok("POST", "/api/v1/repos/alice/mine/transfer", aliceToken, { new_owner: "acme", team_ids: [readers.id] }, 202);
    expect(r.full_name).toBe("acme/mine");
    expect(await teamRepoNames(readers.id)).toContain("mine");
    expect(await teamRepoNames(everything.id)).toContain("mine");
    // carol reads it through the readers team
    expect((await ok("GET", "/api/v1/repos/acme/mine", carolToken)).permissions).toEqual({ admin: false, push: false, pull: true });
  });

  test("team ids are checked: unknown 422, another organization's 403, a user recipient 422", async () => {
    await ok("POST", "/api/v1/user/repos", aliceToken, { name: "mine2" }, 201);
    const unknown = await t.json("POST", "/api/v1/repos/alice/mine2/transfer", { token: aliceToken, body: { new_owner: "acme", team_ids: [99999] } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toBe("team 99999 not found");
    const foreign = await t.json("POST", "/api/v1/repos/alice/mine2/transfer", {
      token: aliceToken,
      body: { new_owner: "acme", team_ids: [otherTeam.id] },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.message).toMatch(new RegExp(`^team ${otherTeam.id} belongs not to org \\d+$`));
    expect((await ok("GET", "/api/v1/repos/alice/mine2", aliceToken)).full_name).toBe("alice/mine2");
  });

  test("to an organization the doer cannot create in: pending, accepted by someone who can", async () => {
    await ok("POST", "/api/v1/user/repos", carolToken, { name: "gift" }, 201);
    const pending = await ok("POST", "/api/v1/repos/carol/gift/transfer", carolToken, { new_owner: "acme", team_ids: [readers.id] }, 201);
    expect(pending.full_name).toBe("carol/gift");
    // carol is only in the read team: she cannot accept on the organization's behalf
    expect((await t.json("POST", "/api/v1/repos/carol/gift/transfer/accept", { token: carolToken })).status).toBe(403);
    const accepted = await ok("POST", "/api/v1/repos/carol/gift/transfer/accept", bobToken, undefined, 202);
    expect(accepted.full_name).toBe("acme/gift");
    expect(await teamRepoNames(readers.id)).toContain("gift");
  });

  test("a private organization is not revealed to an outsider", async () => {
    await ok("POST", "/api/v1/user/repos", bobToken, { name: "bobrepo" }, 201);
    const r = await t.json("POST", "/api/v1/repos/bob/bobrepo/transfer", { token: bobToken, body: { new_owner: "hidden" } });
    expect(r.status).toBe(404);
    expect(r.body.message).toBe("The new owner does not exist or cannot be found");
  });

  test("leaving an organization takes the repository out of its teams", async () => {
    await ok("POST", "/api/v1/repos/acme/mine/transfer", rootToken, { new_owner: "alice" }, 202);
    expect(await teamRepoNames(readers.id)).not.toContain("mine");
    expect(await teamRepoNames(everything.id)).not.toContain("mine");
    expect((await t.json("GET", "/api/v1/repos/alice/mine", { token: carolToken })).status).toBe(404);
  });
});

describe("a repository's teams", () => {
  test("list, check, add and remove by team name", async () => {
    await ok("POST", "/api/v1/orgs/acme/repos", aliceToken, { name: "shared" }, 201);
    const list = await ok("GET", "/api/v1/repos/acme/shared/teams", aliceToken);
    expect(list.map((x: { name: string }) => x.name)).toEqual(["everything", "Owners"]);
    expect(list[0].organization.name).toBe("acme");
    expect((await t.json("GET", "/api/v1/repos/acme/shared/teams/readers", { token: aliceToken })).status).toBe(404);
    await ok("PUT", "/api/v1/repos/acme/shared/teams/readers", aliceToken, undefined, 204);
    expect((await ok("GET", "/api/v1/repos/acme/shared/teams/readers", carolToken)).name).toBe("readers");
    const again = await t.json("PUT", "/api/v1/repos/acme/shared/teams/readers", { token: aliceToken });
    expect(again.status).toBe(422);
    expect(again.body.message).toBe("team 'readers' is already added to repo");
    await ok("DELETE", "/api/v1/repos/acme/shared/teams/readers", aliceToken, undefined, 204);
    const gone = await t.json("DELETE", "/api/v1/repos/acme/shared/teams/readers", { token: aliceToken });
    expect(gone.status).toBe(422);
    expect(gone.body.message).toBe("team 'readers' was not added to repo");
    expect((await t.json("PUT", "/api/v1/repos/acme/shared/teams/nosuch", { token: aliceToken })).status).toBe(404);
  });

  test("repository admins need the organization's consent; readers may not; user repositories get 405", async () => {
    // bob administers acme/bobs as its creator, but is no organization owner
    const refused = await t.json("PUT", "/api/v1/repos/acme/bobs/teams/readers", { token: bobToken });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("user is nor repo admin nor owner");
    await ok("PATCH", "/api/v1/orgs/acme", aliceToken, { repo_admin_change_team_access: true });
    await ok("PUT", "/api/v1/repos/acme/bobs/teams/readers", bobToken, undefined, 204);
    expect((await t.json("DELETE", "/api/v1/repos/acme/bobs/teams/readers", { token: carolToken })).status).toBe(403);
    await ok("POST", "/api/v1/user/repos", bobToken, { name: "solo" }, 201);
    const user = await t.json("GET", "/api/v1/repos/bob/solo/teams", { token: bobToken });
    expect(user.status).toBe(405);
    expect(user.body.message).toBe("repo is not owned by an organization");
    expect((await t.json("GET", "/api/v1/repos/acme/shared/teams")).status).toBe(401);
  });
});

describe("admin teams", () => {
  test("a member of an admin team that has the repository may do what owners do (transfer), without it not", async () => {
    const admins = await ok("POST", "/api/v1/orgs/acme/teams", aliceToken, { name: "admins", permission: "admin" }, 201);
    expect(admins.permission).toBe("admin");
    await ok("PUT", `/api/v1/teams/${admins.id}/members/carol`, aliceToken, undefined, 204);
    await ok("POST", "/api/v1/orgs/acme/repos", aliceToken, { name: "ceded", private: true }, 201);
    // the team does not have the repository yet: carol cannot see it
    expect((await t.json("GET", "/api/v1/repos/acme/ceded", { token: carolToken })).status).toBe(404);
    await ok("PUT", `/api/v1/teams/${admins.id}/repos/acme/ceded`, aliceToken, undefined, 204);
    expect((await ok("GET", "/api/v1/repos/acme/ceded", carolToken)).permissions).toEqual({ admin: true, push: true, pull: true });
    const moved = await ok("POST", "/api/v1/repos/acme/ceded/transfer", carolToken, { new_owner: "carol" }, 202);
    expect(moved.full_name).toBe("carol/ceded");
  });
});

describe("organization labels and transfers", () => {
  test("a repository leaving the organization loses the organization's labels on its issues", async () => {
    await ok("POST", "/api/v1/orgs/acme/repos", aliceToken, { name: "labelled" }, 201);
    const orgLabel = await ok("POST", "/api/v1/orgs/acme/labels", aliceToken, { name: "org-wide", color: "#00aabb" }, 201);
    const repoLabel = await ok("POST", "/api/v1/repos/acme/labelled/labels", aliceToken, { name: "local", color: "#112233" }, 201);
    const issue = await ok("POST", "/api/v1/repos/acme/labelled/issues", aliceToken, { title: "t", labels: [orgLabel.id, repoLabel.id] }, 201);
    expect(issue.labels.map((l: { name: string }) => l.name).sort()).toEqual(["local", "org-wide"]);
    await ok("POST", "/api/v1/repos/acme/labelled/transfer", rootToken, { new_owner: "alice" }, 202);
    const after = await ok("GET", "/api/v1/repos/alice/labelled/issues/1", aliceToken);
    expect(after.labels.map((l: { name: string }) => l.name)).toEqual(["local"]);
  });
});
