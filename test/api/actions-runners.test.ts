import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { MockRunner } from "../support/mock-runner.ts";
import { expectShape } from "../support/shape.ts";
import { ActionRunner, ActionRunnersResponse } from "../../src/shapes/actions.ts";

/**
 * Gitea 1.25's runner operations at each level — repository (reqOwner), organization
 * (reqOrgOwnership), the signed-in user, the site admin — over HTTP, with runners registered over
 * the real runner protocol with the tokens these operations hand out.
 */
const t = makeTestApp("", { listen: true });
const API = "/api/v1";
const root = await t.user("root", { admin: true });
const alice = await t.user("alice");
const bob = await t.user("bob");
const carol = await t.user("carol");
const dave = await t.user("dave");
const tok = { root: t.token(root), alice: t.token(alice), bob: t.token(bob), carol: t.token(carol), dave: t.token(dave) };

await t.ok("POST", `${API}/user/repos`, tok.alice, { name: "ci", auto_init: true, private: true }, 201);
// bob administers the repository as a collaborator: still not its owner, whom Gitea's reqOwner asks for.
await t.ok("PUT", `${API}/repos/alice/ci/collaborators/bob`, tok.alice, { permission: "admin" }, 204);
await t.ok("POST", `${API}/orgs`, tok.alice, { username: "acme" }, 201);
const team = await t.ok("POST", `${API}/orgs/acme/teams`, tok.alice, { name: "devs", permission: "write", units: ["repo.code"] }, 201);
await t.ok("PUT", `${API}/teams/${team.id}/members/dave`, tok.alice, undefined, 204);

const LABELS = ["ubuntu-latest:docker://node:20", "self-hosted"];

async function tokenAt(path: string, token: string, method = "POST"): Promise<string> {
  const body = await t.ok(method, `${API}${path}`, token);
  expect(Object.keys(body)).toEqual(["token"]);
  expect(body.token).toMatch(/^[0-9a-f]{40}$/);
  return body.token as string;
}

describe("registration tokens", () => {
  test("GET and POST answer the level's token until a runner uses it (Gitea's GetRegistrationToken)", async () => {
    const first = await tokenAt("/repos/alice/ci/actions/runners/registration-token", tok.alice, "GET");
    expect(await tokenAt("/repos/alice/ci/actions/runners/registration-token", tok.alice, "POST")).toBe(first);
    await MockRunner.register(t.baseUrl, { token: first, name: "spends-it", labels: LABELS });
    const next = await tokenAt("/repos/alice/ci/actions/runners/registration-token", tok.alice, "POST");
    expect(next).not.toBe(first);
    // A used token registers nothing more.
    await expect(MockRunner.register(t.baseUrl, { token: first, name: "again", labels: LABELS })).rejects.toThrow();
  });

  test("each level has its own token", async () => {
    const repo = await tokenAt("/repos/alice/ci/actions/runners/registration-token", tok.alice);
    const org = await tokenAt("/orgs/acme/actions/runners/registration-token", tok.alice);
    const user = await tokenAt("/user/actions/runners/registration-token", tok.alice);
    const site = await tokenAt("/admin/actions/runners/registration-token", tok.root);
    expect(await tokenAt("/admin/runners/registration-token", tok.root, "GET")).toBe(site);
    expect(new Set([repo, org, user, site]).size).toBe(4);
  });
});

const repoRunner = await MockRunner.register(t.baseUrl, {
  token: await tokenAt("/repos/alice/ci/actions/runners/registration-token", tok.alice),
  name: "repo-runner",
  labels: LABELS,
});
const orgRunner = await MockRunner.register(t.baseUrl, {
  token: await tokenAt("/orgs/acme/actions/runners/registration-token", tok.alice),
  name: "org-runner",
  labels: ["linux"],
  ephemeral: true,
});
const userRunner = await MockRunner.register(t.baseUrl, {
  token: await tokenAt("/user/actions/runners/registration-token", tok.carol),
  name: "carol-runner",
  labels: ["linux"],
});
const siteRunner = await MockRunner.register(t.baseUrl, {
  token: await tokenAt("/admin/actions/runners/registration-token", tok.root),
  name: "site-runner",
  labels: ["linux"],
});

const names = (body: { runners: { name: string }[] }) => body.runners.map((r) => r.name).sort();

describe("listing and reading runners", () => {
  test("a repository lists its own runners, as ActionRunnersResponse", async () => {
    const res = await t.json("GET", `${API}/repos/alice/ci/actions/runners`, { token: tok.alice });
    expect(res.status).toBe(200);
    expectShape(res.body, ActionRunnersResponse);
    for (const r of res.body.runners) expectShape(r, ActionRunner);
    expect(names(res.body)).toEqual(["repo-runner", "spends-it"]);
    expect(res.body.total_count).toBe(2);
    // Gitea's runner list sets no paging headers.
    expect(res.headers.get("X-Total-Count")).toBeNull();
  });

  test("a runner is offline until it is heard from, then online; labels are Gitea's custom labels", async () => {
    const id = Number(repoRunner.id);
    const before = await t.ok("GET", `${API}/repos/alice/ci/actions/runners/${id}`, tok.alice);
    expect(before).toEqual({
      id,
      name: "repo-runner",
      status: "offline",
      busy: false,
      ephemeral: false,
      labels: [
        { id: 0, name: "ubuntu-latest:docker://node:20", type: "custom" },
        { id: 1, name: "self-hosted", type: "custom" },
      ],
    });
    await repoRunner.fetchTask();
    const after = await t.ok("GET", `${API}/repos/alice/ci/actions/runners/${id}`, tok.alice);
    expect(after.status).toBe("online");
  });

  test("organization, user and admin levels list theirs; the admin lists every runner", async () => {
    const org = await t.ok("GET", `${API}/orgs/acme/actions/runners`, tok.alice);
    expect(names(org)).toEqual(["org-runner"]);
    expect(org.runners[0].ephemeral).toBe(true);
    expect(names(await t.ok("GET", `${API}/user/actions/runners`, tok.carol))).toEqual(["carol-runner"]);
    expect(names(await t.ok("GET", `${API}/user/actions/runners`, tok.alice))).toEqual([]);
    const all = await t.ok("GET", `${API}/admin/actions/runners`, tok.root);
    expect(names(all)).toEqual(["carol-runner", "org-runner", "repo-runner", "site-runner", "spends-it"]);
    expect(all.total_count).toBe(5);
    const paged = await t.ok("GET", `${API}/admin/actions/runners?limit=2&page=2`, tok.root);
    expect(paged.runners).toHaveLength(2);
    expect(paged.total_count).toBe(5);
  });

  test("a level reaches only its own runners (404 for another level's), the admin every one", async () => {
    const orgId = Number(orgRunner.id);
    expect((await t.json("GET", `${API}/repos/alice/ci/actions/runners/${orgId}`, { token: tok.alice })).status).toBe(404);
    expect((await t.json("GET", `${API}/orgs/acme/actions/runners/${Number(repoRunner.id)}`, { token: tok.alice })).status).toBe(404);
    expect((await t.json("GET", `${API}/user/actions/runners/${orgId}`, { token: tok.alice })).status).toBe(404);
    expect((await t.ok("GET", `${API}/orgs/acme/actions/runners/${orgId}`, tok.alice)).name).toBe("org-runner");
    expect((await t.ok("GET", `${API}/admin/actions/runners/${orgId}`, tok.root)).name).toBe("org-runner");
    for (const bad of ["0", "999999", "-1", "abc"]) {
      const res = await t.json("GET", `${API}/admin/actions/runners/${bad}`, { token: tok.root });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe("The target couldn't be found.");
    }
  });
});

describe("deleting runners", () => {
  test("a level deletes its runner (204), not another level's (404); a deleted runner is refused by the protocol", async () => {
    const id = Number(userRunner.id);
    expect((await t.json("DELETE", `${API}/user/actions/runners/${id}`, { token: tok.alice })).status).toBe(404);
    expect((await t.json("DELETE", `${API}/user/actions/runners/${id}`, { token: tok.carol })).status).toBe(204);
    expect((await t.json("GET", `${API}/user/actions/runners/${id}`, { token: tok.carol })).status).toBe(404);
    await expect(userRunner.fetchTask()).rejects.toThrow();
  });

  test("the admin deletes any runner", async () => {
    const id = Number(siteRunner.id);
    expect((await t.json("DELETE", `${API}/admin/actions/runners/${id}`, { token: tok.root })).status).toBe(204);
    expect(names(await t.ok("GET", `${API}/admin/actions/runners`, tok.root))).not.toContain("site-runner");
  });
});

describe("who may", () => {
  const repoPaths = [
    ["GET", "/repos/alice/ci/actions/runners"],
    ["GET", "/repos/alice/ci/actions/runners/registration-token"],
    ["POST", "/repos/alice/ci/actions/runners/registration-token"],
    ["GET", `/repos/alice/ci/actions/runners/${Number(repoRunner.id)}`],
    ["DELETE", `/repos/alice/ci/actions/runners/${Number(repoRunner.id)}`],
  ] as const;

  test("a repository's runners: its owner and site admins; a collaborator with admin access gets 403; others 404; anonymous 401", async () => {
    for (const [method, path] of repoPaths.filter(([m]) => m === "GET")) {
      expect((await t.json(method, `${API}${path}`, { token: tok.root })).status).toBe(200);
    }
    for (const [method, path] of repoPaths) {
      const asBob = await t.json(method, `${API}${path}`, { token: tok.bob });
      expect({ path, method, status: asBob.status, message: asBob.body.message }).toEqual({
        path,
        method,
        status: 403,
        message: "user should be the owner of the repo",
      });
      expect({ path, method, status: (await t.json(method, `${API}${path}`, { token: tok.carol })).status }).toEqual({ path, method, status: 404 });
      expect({ path, method, status: (await t.json(method, `${API}${path}`)).status }).toEqual({ path, method, status: 401 });
    }
  });

  test("an organization's runners: its owners; a member gets 403", async () => {
    const res = await t.json("GET", `${API}/orgs/acme/actions/runners`, { token: tok.dave });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe("Must be an organization owner");
    expect((await t.json("POST", `${API}/orgs/acme/actions/runners/registration-token`, { token: tok.dave })).status).toBe(403);
    expect((await t.json("GET", `${API}/orgs/acme/actions/runners`)).status).toBe(401);
  });

  test("the user level needs a signed-in user; the admin level a site admin", async () => {
    expect((await t.json("GET", `${API}/user/actions/runners`)).status).toBe(401);
    const res = await t.json("GET", `${API}/admin/actions/runners`, { token: tok.alice });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe("user should be the site admin");
    expect((await t.json("GET", `${API}/admin/runners/registration-token`, { token: tok.alice })).status).toBe(403);
    expect((await t.json("POST", `${API}/admin/actions/runners/registration-token`, { token: tok.alice })).status).toBe(403);
  });

  test("a token without the repository scope's write is refused a new registration token", async () => {
    const readOnly = t.token(alice, ["read:repository"]);
    expect((await t.json("GET", `${API}/repos/alice/ci/actions/runners`, { token: readOnly })).status).toBe(200);
    expect((await t.json("POST", `${API}/repos/alice/ci/actions/runners/registration-token`, { token: readOnly })).status).toBe(403);
  });
});
