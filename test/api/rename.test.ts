import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { gitOk } from "../support/git.ts";

const t = makeTestApp("", { listen: true });
const root = await t.user("root", { admin: true });
const rootToken = t.token(root);
const alice = await t.user("alice");
const aliceToken = t.token(alice);
const bob = await t.user("bob");
const bobToken = t.token(bob);

const dir = (owner: string, repo: string) => join(t.settings.repository.root, owner, `${repo}.git`);

describe("renaming an organization", () => {
  test("owners rename it; the old name redirects, repositories and their directory follow", async () => {
    expect((await t.json("POST", "/api/v1/orgs", { token: aliceToken, body: { username: "oldco" } })).status).toBe(201);
    expect((await t.json("POST", "/api/v1/orgs/oldco/repos", { token: aliceToken, body: { name: "code", auto_init: true } })).status).toBe(201);
    expect((await t.json("POST", "/api/v1/orgs/oldco/rename", { token: bobToken, body: { new_name: "newco" } })).status).toBe(403);
    expect((await t.json("POST", "/api/v1/orgs/oldco/rename", { token: aliceToken, body: { new_name: "NewCo" } })).status).toBe(204);

    const org = await t.json("GET", "/api/v1/orgs/newco");
    expect(org.body.name).toBe("NewCo");
    const repo = await t.json("GET", "/api/v1/repos/NewCo/code");
    expect(repo.body.full_name).toBe("NewCo/code");
    expect(existsSync(dir("newco", "code"))).toBe(true);
    expect(existsSync(join(t.settings.repository.root, "oldco"))).toBe(false);

    const old = await t.request("GET", "/api/v1/orgs/oldco/members?limit=5", { token: aliceToken });
    expect(old.status).toBe(307);
    expect(old.headers.get("location")).toBe("/api/v1/orgs/NewCo/members?limit=5");
    // A renamed owner is Gitea's RedirectToUser (307), for the API and for git alike; only a
    // renamed repository is permanent (301).
    const oldRepo = await t.request("GET", "/api/v1/repos/oldco/code/branches");
    expect(oldRepo.status).toBe(307);
    expect(oldRepo.headers.get("location")).toBe("/api/v1/repos/NewCo/code/branches");
    const oldGit = await fetch(new URL("oldco/code.git/info/refs?service=git-upload-pack", t.baseUrl), { redirect: "manual" });
    expect(oldGit.status).toBe(307);
    expect(oldGit.headers.get("location")).toBe("/NewCo/code.git/info/refs?service=git-upload-pack");

    // git follows the redirect from the old name.
    const work = mkdtempSync(join(tmpdir(), "hearth-rename-"));
    await gitOk(["clone", "-q", new URL("oldco/code.git", t.baseUrl).href, join(work, "clone")]);
    expect(existsSync(join(work, "clone", "README.md"))).toBe(true);
  });

  test("bad names: taken, reserved, invalid get 422; a case change alone is allowed", async () => {
    const taken = await t.json("POST", "/api/v1/orgs/newco/rename", { token: aliceToken, body: { new_name: "bob" } });
    expect(taken.status).toBe(422);
    expect(taken.body.message).toBe("user already exists [name: bob]");
    expect((await t.json("POST", "/api/v1/orgs/newco/rename", { token: aliceToken, body: { new_name: "api" } })).body.message).toBe(
      "name is reserved [name: api]",
    );
    expect((await t.json("POST", "/api/v1/orgs/newco/rename", { token: aliceToken, body: { new_name: "-x" } })).status).toBe(422);
    expect((await t.json("POST", "/api/v1/orgs/newco/rename", { token: aliceToken, body: {} })).status).toBe(422);
    expect((await t.json("POST", "/api/v1/orgs/newco/rename", { token: aliceToken, body: { new_name: "newco" } })).status).toBe(204);
    expect((await t.json("GET", "/api/v1/orgs/newco")).body.name).toBe("newco");
  });

  test("a new account may take a former name, which then stops redirecting", async () => {
    const r = await t.json("POST", "/api/v1/orgs", { token: bobToken, body: { username: "oldco" } });
    expect(r.status).toBe(201);
    expect((await t.json("GET", "/api/v1/orgs/oldco")).body.id).toBe(r.body.id);
  });
});

describe("renaming a user (admin)", () => {
  test("the user keeps their repositories under the new name; organizations are refused", async () => {
    expect((await t.json("POST", "/api/v1/user/repos", { token: bobToken, body: { name: "mine" } })).status).toBe(201);
    expect((await t.json("POST", "/api/v1/admin/users/bob/rename", { token: aliceToken, body: { new_username: "robert" } })).status).toBe(403);
    expect((await t.json("POST", "/api/v1/admin/users/bob/rename", { token: rootToken, body: { new_username: "robert" } })).status).toBe(204);
    expect((await t.json("GET", "/api/v1/user", { token: bobToken })).body.login).toBe("robert");
    expect((await t.json("GET", "/api/v1/repos/robert/mine", { token: bobToken })).status).toBe(200);
    expect((await t.request("GET", "/api/v1/users/bob")).status).toBe(307);
    const org = await t.json("POST", "/api/v1/admin/users/newco/rename", { token: rootToken, body: { new_username: "x" } });
    expect(org.status).toBe(422);
    expect(org.body.message).toBe("newco is an organization not a user");
  });
});
