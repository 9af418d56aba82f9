import { describe, expect, test } from "bun:test";
import { makeTestApp, ROOT_URL, type TestApp } from "../support/app.ts";

/**
 * The package management API (Gitea's `/api/v1/packages/{owner}`): packages are published through
 * the generic registry, then listed, searched, read with their files, linked to a repository,
 * unlinked and deleted, with Gitea's shapes, paging headers, refusals and messages.
 */
const t = makeTestApp();
const V1 = "/api/v1/packages";

async function publish(app: TestApp, owner: string, name: string, version: string, file: string, body: string, token: string) {
  const res = await app.request("PUT", `/api/packages/${owner}/generic/${name}/${version}/${file}`, {
    token,
    body,
    headers: { "Content-Type": "application/octet-stream" },
  });
  expect(res.status).toBe(201);
}

const sha = (alg: "md5" | "sha1" | "sha256" | "sha512", s: string) => new Bun.CryptoHasher(alg).update(s).digest("hex");

const alice = await t.user("alice");
const bob = await t.user("bob");
const aliceToken = t.token(alice, ["write:package", "write:repository", "write:user"]);
const aliceReadToken = t.token(alice, ["read:package"]);
const bobToken = t.token(bob, ["write:package", "write:repository", "write:user"]);

await publish(t, "alice", "tool", "1.0.0", "tool.bin", "one", aliceToken);
await publish(t, "alice", "tool", "1.0.0", "tool.txt", "notes", aliceToken);
await publish(t, "alice", "tool", "1.1.0", "tool.bin", "two", aliceToken);
await publish(t, "alice", "Other-Lib", "2.0", "lib.tar", "", aliceToken);

describe("listing and reading packages", () => {
  test("listPackages: every version, newest first, in Gitea's Package shape with X-Total-Count and Link", async () => {
    const r = await t.json("GET", `${V1}/alice`, { token: aliceToken });
    expect(r.status).toBe(200);
    expect(r.headers.get("x-total-count")).toBe("3");
    expect(r.body.map((p: any) => `${p.name}@${p.version}`)).toEqual(["Other-Lib@2.0", "tool@1.1.0", "tool@1.0.0"]);
    const p = r.body[0];
    expect(Object.keys(p).sort()).toEqual(["created_at", "creator", "html_url", "id", "name", "owner", "repository", "type", "version"]);
    expect(p).toMatchObject({ type: "generic", name: "Other-Lib", version: "2.0", repository: null, owner: { login: "alice" }, creator: { login: "alice" } });
    // Gitea's VersionHTMLURL: lower-cased name and version under the owner's page.
    expect(p.html_url).toBe(`${ROOT_URL}alice/-/packages/generic/other-lib/2.0`);
    expect(p.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/);

    const page = await t.json("GET", `${V1}/alice?limit=1&page=2`, { token: aliceToken });
    expect(page.body.map((x: any) => x.version)).toEqual(["1.1.0"]);
    expect(page.headers.get("x-total-count")).toBe("3");
    expect(page.headers.get("link")).toContain('rel="next"');
    expect(page.headers.get("link")).toContain('rel="prev"');
  });

  test("listPackages filters by type and by part of the name (q), and an unknown type lists nothing", async () => {
    const byName = await t.json("GET", `${V1}/alice?q=TOO`, { token: aliceToken });
    expect(byName.body.map((x: any) => x.version)).toEqual(["1.1.0", "1.0.0"]);
    expect(byName.headers.get("x-total-count")).toBe("2");
    expect((await t.json("GET", `${V1}/alice?type=generic&q=lib`, { token: aliceToken })).body.map((x: any) => x.name)).toEqual(["Other-Lib"]);
    const none = await t.json("GET", `${V1}/alice?type=npm`, { token: aliceToken });
    expect(none.body).toEqual([]);
    expect(none.headers.get("x-total-count")).toBe("0");
    // `%` and `_` are matched literally.
    expect((await t.json("GET", `${V1}/alice?q=%25`, { token: aliceToken })).body).toEqual([]);
  });

  test("getPackage: one version by type, name and version (names match case-insensitively); 404 with Gitea's message", async () => {
    const p = await t.ok("GET", `${V1}/alice/generic/tool/1.0.0`, aliceToken);
    expect(p).toMatchObject({ name: "tool", version: "1.0.0", type: "generic" });
    expect((await t.ok("GET", `${V1}/alice/generic/TOOL/1.0.0`, aliceToken)).id).toBe(p.id);
    for (const path of ["/alice/dummy/tool/1.0.0", "/alice/generic/tool/9.9", "/alice/generic/nothing/1.0.0"]) {
      const r = await t.json("GET", `${V1}${path}`, { token: aliceToken });
      expect(r.status).toBe(404);
      expect(r.body.message).toBe("GetVersionByNameAndVersion: package does not exist");
    }
  });

  test("listPackageFiles: each file with its size and hashes, in upload order", async () => {
    const files = await t.ok("GET", `${V1}/alice/generic/tool/1.0.0/files`, aliceToken);
    expect(files.map((f: any) => f.name)).toEqual(["tool.bin", "tool.txt"]);
    expect(Object.keys(files[0]).sort()).toEqual(["id", "md5", "name", "sha1", "sha256", "sha512", "size"]);
    expect(files[1]).toMatchObject({ size: 5, md5: sha("md5", "notes"), sha1: sha("sha1", "notes"), sha256: sha("sha256", "notes"), sha512: sha("sha512", "notes") });
    const empty = await t.ok("GET", `${V1}/alice/generic/other-lib/2.0/files`, aliceToken);
    expect(empty[0]).toMatchObject({ size: 0, md5: "d41d8cd98f00b204e9800998ecf8427e", sha1: "da39a3ee5e6b4b0d3255bfef95601890afd80709" });
    expect((await t.json("GET", `${V1}/alice/dummy/tool/1.0.0/files`, { token: aliceToken })).status).toBe(404);
  });

  test("listPackageVersions and getLatestPackageVersion: one package's versions, newest first; 404 for no such package", async () => {
    const r = await t.json("GET", `${V1}/alice/generic/tool`, { token: aliceToken });
    expect(r.status).toBe(200);
    expect(r.body.map((x: any) => x.version)).toEqual(["1.1.0", "1.0.0"]);
    expect(r.headers.get("x-total-count")).toBe("2");
    const paged = await t.json("GET", `${V1}/alice/generic/tool?limit=1`, { token: aliceToken });
    expect(paged.body.map((x: any) => x.version)).toEqual(["1.1.0"]);
    expect(paged.headers.get("link")).toContain('rel="next"');
    expect((await t.ok("GET", `${V1}/alice/generic/tool/-/latest`, aliceToken)).version).toBe("1.1.0");
    for (const path of ["/alice/generic/nothing", "/alice/generic/nothing/-/latest", "/alice/npm/tool"]) {
      const miss = await t.json("GET", `${V1}${path}`, { token: aliceToken });
      expect(miss.status).toBe(404);
      expect(miss.body.message).toBe("package does not exist");
    }
  });
});

describe("access", () => {
  test("a token is required; the package scope is required; an unknown owner is 404", async () => {
    const anon = await t.json("GET", `${V1}/alice`);
    expect(anon.status).toBe(401);
    expect(anon.body.message).toBe("token is required");
    const noScope = await t.json("GET", `${V1}/alice`, { token: t.token(alice, ["read:repository"]) });
    expect(noScope.status).toBe(403);
    expect(noScope.body.message).toContain("required=[read:package]");
    expect((await t.json("GET", `${V1}/nobody`, { token: aliceToken })).status).toBe(404);
    // Basic auth is a sign-in too.
    expect((await t.json("GET", `${V1}/alice`, { basic: ["bob", "password123"] })).status).toBe(200);
  });

  test("others read a public owner's packages but may not delete, link or unlink them (reqPackageAccess)", async () => {
    expect((await t.json("GET", `${V1}/alice/generic/tool/1.0.0`, { token: bobToken })).status).toBe(200);
    for (const [method, path] of [
      ["DELETE", "/alice/generic/tool/1.0.0"],
      ["POST", "/alice/generic/tool/-/link/anything"],
      ["POST", "/alice/generic/tool/-/unlink"],
    ] as const) {
      const r = await t.json(method, `${V1}${path}`, { token: bobToken });
      expect(r.status).toBe(403);
      expect(r.body.message).toBe("reqPackageAccess");
    }
    // The owner's read-only token may not write either.
    const ro = await t.json("DELETE", `${V1}/alice/generic/tool/1.0.0`, { token: aliceReadToken });
    expect(ro.status).toBe(403);
    expect(ro.body.message).toContain("required=[write:package]");
    expect((await t.json("GET", `${V1}/alice/generic/tool/1.0.0`, { token: aliceToken })).status).toBe(200);
  });

  test("a private owner's packages are refused to others, and to a public-only token of the owner", async () => {
    const root = await t.user("root", { admin: true });
    const carol = await t.user("carol");
    const carolToken = t.token(carol, ["write:package"]);
    await publish(t, "carol", "secret", "1", "s.bin", "s", carolToken);
    await t.ok("PATCH", "/api/v1/admin/users/carol", t.token(root), { login_name: "carol", source_id: 0, visibility: "private" });
    expect((await t.json("GET", `${V1}/carol`, { token: bobToken })).status).toBe(403);
    expect((await t.json("GET", `${V1}/carol`, { token: t.token(carol, ["read:package", "public-only"]) })).status).toBe(403);
    expect((await t.ok("GET", `${V1}/carol`, carolToken)).map((p: any) => p.name)).toEqual(["secret"]);
    // A site admin reaches every owner's packages.
    expect((await t.ok("GET", `${V1}/carol`, t.token(root))).length).toBe(1);
  });
});

describe("repository links", () => {
  test("link to a repository of the owner (201), shown in the package; 404 for another owner's; 400 when linked already; unlink 204", async () => {
    await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "tools" }, 201);
    await t.ok("POST", "/api/v1/user/repos", bobToken, { name: "bobs" }, 201);

    const foreign = await t.json("POST", `${V1}/alice/generic/tool/-/link/bobs`, { token: aliceToken });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe(`repository does not exist [id: 0, uid: ${alice.id}, owner_name: , name: bobs]`);
    expect((await t.json("POST", `${V1}/alice/generic/nothing/-/link/tools`, { token: aliceToken })).status).toBe(404);

    const linked = await t.request("POST", `${V1}/alice/generic/tool/-/link/tools`, { token: aliceToken });
    expect(linked.status).toBe(201);
    expect(await linked.text()).toBe("");
    const p = await t.ok("GET", `${V1}/alice/generic/tool/1.0.0`, aliceToken);
    expect(p.repository).toMatchObject({ full_name: "alice/tools", private: false });
    // Every version of the package carries the link.
    expect((await t.ok("GET", `${V1}/alice/generic/tool/-/latest`, aliceToken)).repository.name).toBe("tools");

    const again = await t.json("POST", `${V1}/alice/generic/tool/-/link/tools`, { token: aliceToken });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe("invalid argument");

    const unlinked = await t.request("POST", `${V1}/alice/generic/tool/-/unlink`, { token: aliceToken });
    expect(unlinked.status).toBe(204);
    expect((await t.ok("GET", `${V1}/alice/generic/tool/1.0.0`, aliceToken)).repository).toBeNull();
    const twice = await t.json("POST", `${V1}/alice/generic/tool/-/unlink`, { token: aliceToken });
    expect(twice.status).toBe(400);
    expect(twice.body.message).toBe("invalid argument");
  });

  test("a linked private repository is shown only to those who may see it", async () => {
    await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "hidden", private: true }, 201);
    await t.request("POST", `${V1}/alice/generic/other-lib/-/link/hidden`, { token: aliceToken });
    expect((await t.ok("GET", `${V1}/alice/generic/other-lib/2.0`, aliceToken)).repository.full_name).toBe("alice/hidden");
    expect((await t.ok("GET", `${V1}/alice/generic/other-lib/2.0`, bobToken)).repository).toBeNull();
    const listed = await t.ok("GET", `${V1}/alice?q=other`, bobToken);
    expect(listed[0].repository).toBeNull();
  });

  test("in an organization: a team with package write may delete, linking needs the repository's package unit, unlinking an org admin", async () => {
    const boss = await t.user("boss");
    const dev = await t.user("dev");
    const bossToken = t.token(boss);
    const devToken = t.token(dev, ["write:package", "read:repository"]);
    await t.ok("POST", "/api/v1/orgs", bossToken, { username: "acme" }, 201);
    const team = await t.ok("POST", "/api/v1/orgs/acme/teams", bossToken, {
      name: "packagers",
      permission: "read",
      units: ["repo.code", "repo.packages"],
      units_map: { "repo.code": "read", "repo.packages": "write" },
      includes_all_repositories: true,
    }, 201);
    await t.ok("PUT", `/api/v1/teams/${team.id}/members/dev`, bossToken, undefined, 204);
    await t.ok("POST", "/api/v1/orgs/acme/repos", bossToken, { name: "app" }, 201);

    await publish(t, "acme", "widget", "1", "w.bin", "w1", devToken);
    await publish(t, "acme", "widget", "2", "w.bin", "w2", devToken);
    expect((await t.ok("GET", `${V1}/acme/generic/widget/2`, devToken)).creator.login).toBe("dev");

    expect((await t.json("POST", `${V1}/acme/generic/widget/-/link/app`, { token: devToken })).status).toBe(201);
    const refused = await t.json("POST", `${V1}/acme/generic/widget/-/unlink`, { token: devToken });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("no permission to unlink package 'widget' from its repository, or packages are disabled");
    expect((await t.json("POST", `${V1}/acme/generic/widget/-/unlink`, { token: bossToken })).status).toBe(204);

    expect((await t.json("DELETE", `${V1}/acme/generic/widget/1`, { token: devToken })).status).toBe(204);
    expect((await t.ok("GET", `${V1}/acme/generic/widget`, devToken)).map((p: any) => p.version)).toEqual(["2"]);
    // A member without the package unit only reads.
    const reader = await t.user("reader");
    const readers = await t.ok("POST", "/api/v1/orgs/acme/teams", bossToken, { name: "readers", permission: "read", units: ["repo.code"] }, 201);
    await t.ok("PUT", `/api/v1/teams/${readers.id}/members/reader`, bossToken, undefined, 204);
    const readerToken = t.token(reader, ["write:package"]);
    expect((await t.json("GET", `${V1}/acme/generic/widget/2`, { token: readerToken })).status).toBe(200);
    expect((await t.json("DELETE", `${V1}/acme/generic/widget/2`, { token: readerToken })).status).toBe(403);
  });
});

describe("deleting", () => {
  test("deletePackage removes the version and its files; the package goes with its last version", async () => {
    await t.request("DELETE", `${V1}/alice/generic/tool/1.0.0`, { token: aliceToken }).then((r) => expect(r.status).toBe(204));
    expect((await t.json("GET", `${V1}/alice/generic/tool/1.0.0`, { token: aliceToken })).status).toBe(404);
    expect((await t.request("GET", "/api/packages/alice/generic/tool/1.0.0/tool.txt")).status).toBe(404);
    expect((await t.ok("GET", `${V1}/alice/generic/tool`, aliceToken)).map((p: any) => p.version)).toEqual(["1.1.0"]);
    expect((await t.json("DELETE", `${V1}/alice/generic/tool/1.0.0`, { token: aliceToken })).status).toBe(404);

    expect((await t.json("DELETE", `${V1}/alice/generic/tool/1.1.0`, { token: aliceToken })).status).toBe(204);
    const gone = await t.json("GET", `${V1}/alice/generic/tool`, { token: aliceToken });
    expect(gone.status).toBe(404);
    expect((await t.ok("GET", `${V1}/alice`, aliceToken)).map((p: any) => p.name)).toEqual(["Other-Lib"]);
  });
});
