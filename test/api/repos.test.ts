import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { Repository } from "../../src/shapes/repo.ts";
import { repoPath } from "../../src/git/repo-init.ts";

const t = makeTestApp("[repository]\nDEFAULT_BRANCH = trunk\n");
const admin = await t.user("root", { admin: true });
const adminToken = t.token(admin);
const alice = await t.user("alice");
const aliceToken = t.token(alice);
const bob = await t.user("bob");
const bobToken = t.token(bob);

const create = (body: unknown, token = aliceToken) => t.json("POST", "/api/v1/user/repos", { token, body });

describe("create", () => {
  test("an empty repository with Gitea's defaults and shape", async () => {
    const r = await create({ name: "plain", description: "just a repo" });
    expect(r.status).toBe(201);
    expectShape(r.body, Repository);
    expect(r.body).toMatchObject({
      name: "plain",
      full_name: "alice/plain",
      description: "just a repo",
      empty: true,
      private: false,
      fork: false,
      default_branch: "trunk",
      html_url: "http://hearth.test/alice/plain",
      clone_url: "http://hearth.test/alice/plain.git",
      url: "http://hearth.test/api/v1/repos/alice/plain",
      permissions: { admin: true, push: true, pull: true },
      has_issues: true,
      has_pull_requests: true,
      object_format_name: "sha1",
      archived_at: "1970-01-01T00:00:00Z",
      mirror_updated: "0001-01-01T00:00:00Z",
      topics: [],
    });
    expect(existsSync(repoPath(t.settings.repository.root, "alice", "plain"))).toBe(true);
  });

  test("auto_init commits README, .gitignore and LICENSE on the default branch", async () => {
    const r = await create({ name: "Inited", auto_init: true, gitignores: "Go,Node", license: "MIT", default_branch: "dev" });
    expect(r.status).toBe(201);
    expect(r.body.empty).toBe(false);
    expect(r.body.default_branch).toBe("dev");
  });

  test("auto_init's README is Gitea's Default template, expanded and nothing added", async () => {
    const raw = async (name: string) => (await t.request("GET", `/api/v1/repos/alice/${name}/raw/README.md`, { token: aliceToken })).text();
    expect((await create({ name: "Described", auto_init: true, description: "What it does" })).status).toBe(201);
    expect(await raw("Described")).toBe("# Described\n\nWhat it does");
    expect((await create({ name: "Bare", auto_init: true })).status).toBe(201);
    expect(await raw("Bare")).toBe("# Bare\n\n");
  });

  test("names, templates and options are validated as Gitea does", async () => {
    const cases: [unknown, number, string][] = [
      [{}, 422, "[Name]: Required"],
      [{ name: "bad name" }, 422, "[Name]: AlphaDashDot"],
      [{ name: "x".repeat(101) }, 422, "[Name]: MaxSize"],
      [{ name: "a..b" }, 422, "name is invalid [a..b]: must be valid alpha or numeric or dash(-_) or dot characters"],
      [{ name: "-" }, 422, "name is reserved [name: -]"],
      [{ name: "thing.git" }, 422, "name pattern is not allowed [pattern: *.git]"],
      [{ name: "PLAIN" }, 409, "The repository with the same name already exists."],
      [{ name: "r1", auto_init: true, readme: "Fancy" }, 400, "readme template does not exist, available templates: [Default]"],
      [{ name: "r2", auto_init: true, license: "NOPE-1.0" }, 422, "license does not exist: NOPE-1.0"],
      [{ name: "r3", auto_init: true, gitignores: "Cobol" }, 422, "gitignore template does not exist: Cobol"],
      [{ name: "r4", default_branch: "bad..branch" }, 422, "invalid default branch name: bad..branch"],
      [{ name: "r5", object_format_name: "md5" }, 422, "[ObjectFormatName]: In"],
    ];
    for (const [body, status, message] of cases) {
      const r = await create(body);
      expect({ body, status: r.status, message: r.body.message }).toEqual({ body, status, message });
    }
    // Nothing half-made remains of the refused ones.
    expect(existsSync(repoPath(t.settings.repository.root, "alice", "r2"))).toBe(false);
    expect((await t.json("GET", "/api/v1/repos/alice/r2")).status).toBe(404);
  });

  test("an administrator creates for another user; the limit counts the owner's repositories", async () => {
    const made = await t.json("POST", "/api/v1/admin/users/bob/repos", { token: adminToken, body: { name: "given" } });
    expect(made.status).toBe(201);
    expect(made.body.owner.login).toBe("bob");
    await t.json("PATCH", "/api/v1/admin/users/bob", { token: adminToken, body: { login_name: "bob", max_repo_creation: 1 } });
    const refused = await create({ name: "second" }, bobToken);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("user has reached maximum limit of repositories [limit: 1]");
    // Site administrators are not limited.
    const byAdmin = await t.json("POST", "/api/v1/admin/users/bob/repos", { token: adminToken, body: { name: "second" } });
    expect(byAdmin.status).toBe(201);
  });

  test("the global MAX_CREATION_LIMIT applies too", async () => {
    const limited = makeTestApp("[repository]\nMAX_CREATION_LIMIT = 0\n");
    const u = await limited.user("capped");
    const r = await limited.json("POST", "/api/v1/user/repos", { token: limited.token(u), body: { name: "x" } });
    expect(r.status).toBe(403);
  });
});

describe("read, visibility and listing", () => {
  test("private repositories are 404 to anyone without access, visible to the owner and admins", async () => {
    await create({ name: "hidden", private: true });
    expect((await t.json("GET", "/api/v1/repos/alice/hidden")).status).toBe(404);
    expect((await t.json("GET", "/api/v1/repos/alice/hidden", { token: bobToken })).status).toBe(404);
    expect((await t.json("GET", "/api/v1/repos/alice/hidden", { token: aliceToken })).status).toBe(200);
    const asAdmin = await t.json("GET", "/api/v1/repos/alice/hidden", { token: adminToken });
    expect(asAdmin.body.permissions).toEqual({ admin: true, push: true, pull: true });
    const pub = t.token(alice, ["public-only", "read:repository"]);
    expect((await t.json("GET", "/api/v1/repos/alice/hidden", { token: pub })).status).toBe(403);
  });

  test("a public repository shows read permission to strangers and anonymous callers", async () => {
    const r = await t.json("GET", "/api/v1/repos/alice/plain");
    expect(r.body.permissions).toEqual({ admin: false, push: false, pull: true });
    expect((await t.json("GET", "/api/v1/repos/nobody/plain")).status).toBe(404);
  });

  test("GET /repositories/{id} needs a token and hides private repositories", async () => {
    const plain = await t.json("GET", "/api/v1/repos/alice/plain");
    expect((await t.json("GET", `/api/v1/repositories/${plain.body.id}`)).status).toBe(401);
    const r = await t.json("GET", `/api/v1/repositories/${plain.body.id}`, { token: bobToken });
    expect(r.body.full_name).toBe("alice/plain");
    const hidden = await t.json("GET", "/api/v1/repos/alice/hidden", { token: aliceToken });
    expect((await t.json("GET", `/api/v1/repositories/${hidden.body.id}`, { token: bobToken })).status).toBe(404);
    expect((await t.json("GET", "/api/v1/repositories/abc", { token: bobToken })).status).toBe(404);
  });

  test("/repos/search?private=false lists only public repositories of public owners, as Gitea", async () => {
    for (const [org, visibility] of [["srchlim", "limited"], ["srchpriv", "private"]]) {
      expect((await t.json("POST", "/api/v1/orgs", { token: aliceToken, body: { username: org, visibility } })).status).toBe(201);
      expect((await t.json("POST", `/api/v1/orgs/${org}/repos`, { token: aliceToken, body: { name: "srch-org" } })).status).toBe(201);
    }
    expect((await create({ name: "srch-pub" })).status).toBe(201);
    expect((await create({ name: "srch-mine", private: true })).status).toBe(201);
    const names = async (query: string) => {
      const r = await t.json("GET", `/api/v1/repos/search?q=srch-${query}`, { token: aliceToken });
      return r.body.data.map((x: { full_name: string }) => x.full_name).sort();
    };
    const everything = ["alice/srch-mine", "alice/srch-pub", "srchlim/srch-org", "srchpriv/srch-org"];
    expect(await names("")).toEqual(everything);
    expect(await names("&private=true")).toEqual(everything);
    expect(await names("&private=false")).toEqual(["alice/srch-pub"]);
    // Gitea's FormBool: a value it cannot parse is false.
    expect(await names("&private=maybe")).toEqual(["alice/srch-pub"]);
  });

  test("/user/repos, /users/{u}/repos and /repos/search apply the same rules", async () => {
    const mine = await t.json("GET", "/api/v1/user/repos", { token: aliceToken });
    expect(mine.body.map((r: { name: string }) => r.name)).toContain("hidden");
    const anon = await t.json("GET", "/api/v1/users/alice/repos");
    const names = anon.body.map((r: { name: string }) => r.name);
    expect(names).toContain("plain");
    expect(names).not.toContain("hidden");
    expect(anon.headers.get("X-Total-Count")).toBe(String(names.length));

    const search = await t.json("GET", "/api/v1/repos/search?q=hid");
    expect(search.body).toEqual({ ok: true, data: [] });
    const own = await t.json("GET", "/api/v1/repos/search?q=hid", { token: aliceToken });
    expect(own.body.data.map((r: { full_name: string }) => r.full_name)).toEqual(["alice/hidden"]);
    const desc = await t.json("GET", "/api/v1/repos/search?q=just%20a&includeDesc=true");
    expect(desc.body.data.map((r: { name: string }) => r.name)).toEqual(["plain"]);
    const bad = await t.json("GET", "/api/v1/repos/search?sort=weird");
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('Invalid sort mode: "weird"');
    const paged = await t.json("GET", "/api/v1/repos/search?limit=1&page=2");
    expect(paged.body.data).toHaveLength(1);
    expect(paged.headers.get("Link")).toContain('rel="first"');
  });
});

describe("edit", () => {
  test("only an admin of the repository may edit; private repositories stay 404 to others", async () => {
    const anon = await t.json("PATCH", "/api/v1/repos/alice/plain", { body: { description: "x" } });
    expect(anon.status).toBe(401);
    const stranger = await t.json("PATCH", "/api/v1/repos/alice/plain", { token: bobToken, body: { description: "x" } });
    expect(stranger.status).toBe(403);
    expect(stranger.body.message).toBe("user should be an owner or a collaborator with admin write of a repository");
    expect((await t.json("PATCH", "/api/v1/repos/alice/hidden", { body: {} })).status).toBe(404);
  });

  test("fields change as given; units and merge settings; archive", async () => {
    const r = await t.json("PATCH", "/api/v1/repos/alice/plain", {
      token: aliceToken,
      body: {
        description: "new words",
        website: "https://example.com",
        has_wiki: false,
        has_issues: true,
        internal_tracker: { enable_time_tracker: false },
        has_pull_requests: true,
        allow_squash_merge: false,
        default_merge_style: "rebase",
        archived: true,
      },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      description: "new words",
      website: "https://example.com",
      has_wiki: false,
      archived: true,
      allow_squash_merge: false,
      default_merge_style: "rebase",
      internal_tracker: { enable_time_tracker: false, allow_only_contributors_to_track_time: true, enable_issue_dependencies: true },
    });
    expect(r.body.archived_at).not.toBe("1970-01-01T00:00:00Z");
    const tracker = await t.json("PATCH", "/api/v1/repos/alice/plain", {
      token: aliceToken,
      body: { has_issues: true, external_tracker: { external_tracker_url: "not a url" }, description: "should not stick" },
    });
    expect(tracker.status).toBe(422);
    expect(tracker.body.message).toBe("External tracker URL not valid");
    expect((await t.json("GET", "/api/v1/repos/alice/plain")).body.description).toBe("new words");
  });

  test("renaming moves the git directory and leaves a redirect", async () => {
    await create({ name: "oldname", auto_init: true });
    const r = await t.json("PATCH", "/api/v1/repos/alice/oldname", { token: aliceToken, body: { name: "newname" } });
    expect(r.body.full_name).toBe("alice/newname");
    expect(existsSync(repoPath(t.settings.repository.root, "alice", "newname"))).toBe(true);
    expect(existsSync(repoPath(t.settings.repository.root, "alice", "oldname"))).toBe(false);
    // Gitea's RedirectToRepo: permanent, so git clients and API clients alike follow it.
    const moved = await t.request("GET", "/api/v1/repos/alice/oldname?x=1");
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe("/api/v1/repos/alice/newname?x=1");
    const clash = await t.json("PATCH", "/api/v1/repos/alice/newname", { token: aliceToken, body: { name: "plain" } });
    expect(clash.status).toBe(422);
    expect(clash.body.message).toBe("repository already exists [uname: alice, name: plain]");
    // A new repository may take the old name; the redirect gives way.
    expect((await create({ name: "oldname" })).status).toBe(201);
    expect((await t.request("GET", "/api/v1/repos/alice/oldname")).status).toBe(200);
  });

  test("the default branch moves only to a branch that exists", async () => {
    const kept = await t.json("PATCH", "/api/v1/repos/alice/newname", { token: aliceToken, body: { default_branch: "ghost" } });
    expect(kept.body.default_branch).toBe("trunk");
  });
});

describe("delete", () => {
  test("the owner deletes; others may not; the directory goes too", async () => {
    await create({ name: "doomed", auto_init: true });
    const denied = await t.json("DELETE", "/api/v1/repos/alice/doomed", { token: bobToken });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe("user should be the owner of the repo");
    expect((await t.request("DELETE", "/api/v1/repos/alice/doomed", { token: aliceToken })).status).toBe(204);
    expect((await t.json("GET", "/api/v1/repos/alice/doomed")).status).toBe(404);
    expect(existsSync(repoPath(t.settings.repository.root, "alice", "doomed"))).toBe(false);
  });

  test("a user who owns repositories is deleted only with purge, which takes the repositories too", async () => {
    const dan = await t.user("dan");
    await create({ name: "dans" }, t.token(dan));
    const refused = await t.json("DELETE", "/api/v1/admin/users/dan", { token: adminToken });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe(`user still has ownership of repositories [uid: ${dan.id}]`);
    expect((await t.request("DELETE", "/api/v1/admin/users/dan?purge=true", { token: adminToken })).status).toBe(204);
    expect(existsSync(repoPath(t.settings.repository.root, "dan", "dans"))).toBe(false);
  });
});

describe("a repository's size", () => {
  test("is set at creation and follows pushes (Gitea's UpdateRepoSize)", async () => {
    expect((await create({ name: "sized", auto_init: true })).status).toBe(201);
    const first = (await t.ok("GET", "/api/v1/repos/alice/sized", aliceToken)).size as number;
    expect(first).toBeGreaterThan(0);
    // 200 KB of incompressible bytes: the objects on disk grow by about as much.
    const bytes = crypto.getRandomValues(new Uint8Array(200_000));
    await t.ok("POST", "/api/v1/repos/alice/sized/contents/blob.bin", aliceToken, { content: Buffer.from(bytes).toString("base64"), branch: "trunk" }, 201);
    const after = (await t.ok("GET", "/api/v1/repos/alice/sized", aliceToken)).size as number;
    expect(after).toBeGreaterThanOrEqual(first + 150);
  });
});
