import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { getPackage, listVersions } from "../../src/models/package.ts";
import { makeTestApp, ROOT_URL, type TestApp } from "../support/app.ts";

const P = "/api/packages";

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const digest = (alg: "sha1" | "sha512", bytes: Uint8Array) => new Bun.CryptoHasher(alg).update(bytes).digest();

/** A publish document as npm sends it, for `name@version` with `tarball` as its one attachment. */
function publishDoc(name: string, version: string, tarball: Uint8Array, extra: { tags?: Record<string, string>; integrity?: string; manifest?: object } = {}) {
  const unscoped = name.split("/").pop();
  return {
    _id: name,
    name,
    description: "Test Description",
    "dist-tags": extra.tags ?? { latest: version },
    versions: {
      [version]: {
        name,
        version,
        description: "Test Description",
        author: { name: "KN4CK3R" },
        bin: { cli: "./cli.sh" },
        keywords: ["one", "two"],
        dependencies: { "left-pad": "^1.0.0" },
        repository: { type: "git", url: "http://example.com/x.git" },
        dist: {
          integrity: extra.integrity ?? `sha512-${digest("sha512", tarball).toString("base64")}`,
          shasum: digest("sha1", tarball).toString("hex"),
        },
        ...extra.manifest,
      },
    },
    _attachments: { [`${name}-${version}.tgz`.replace(`${name}-`, `${unscoped}-`)]: { content_type: "application/octet-stream", data: b64(tarball), length: tarball.length } },
  };
}

const tgz = (text: string) => Bun.gzipSync(new TextEncoder().encode(text));

async function publish(t: TestApp, owner: string, name: string, doc: unknown, token?: string) {
  return t.request("PUT", `${P}/${owner}/npm/${encodeURIComponent(name)}`, { token, body: doc });
}

describe("npm registry over HTTP", () => {
  const t = makeTestApp("[packages]\nLIMIT_SIZE_NPM = 4 KiB\n");

  test("publish a scoped package, read its document, download the tarball both ways", async () => {
    const alice = await t.user("alice");
    const token = t.token(alice, ["write:package"]);
    const tarball = tgz("scoped package");
    const name = "@scope/test-package";
    expect((await publish(t, "alice", name, publishDoc(name, "1.0.1-pre", tarball), token)).status).toBe(201);

    const dup = await t.json("PUT", `${P}/alice/npm/${encodeURIComponent(name)}`, { token, body: publishDoc(name, "1.0.1-pre", tarball) });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ error: "package version already exists" });

    // npm's spelling (@scope%2fname) and the plain one (@scope/name) name the same package.
    for (const path of [`@scope%2ftest-package`, `@scope/test-package`, `%40scope%2Ftest-package`]) {
      const doc = await t.json("GET", `${P}/alice/npm/${path}`);
      expect(doc.status).toBe(200);
      expect(doc.body._id).toBe(name);
      expect(doc.body["dist-tags"]).toEqual({ latest: "1.0.1-pre" });
    }
    const { body } = await t.json("GET", `${P}/alice/npm/@scope%2ftest-package`);
    expect(body.description).toBe("Test Description");
    expect(body.author).toEqual({ name: "KN4CK3R" });
    expect(body.maintainers).toEqual([{ name: "alice" }]);
    expect(body.repository).toEqual({ type: "git", url: "http://example.com/x.git" });
    expect(Object.keys(body.time).sort()).toEqual(["1.0.1-pre", "created", "modified"]);
    const v = body.versions["1.0.1-pre"];
    expect(v._id).toBe("@scope/test-package@1.0.1-pre");
    expect(v.bin).toEqual({ cli: "./cli.sh" });
    expect(v.keywords).toEqual(["one", "two"]);
    expect(v.dependencies).toEqual({ "left-pad": "^1.0.0" });
    expect(v.dist.shasum).toBe(digest("sha1", tarball).toString("hex"));
    expect(v.dist.integrity).toBe(`sha512-${digest("sha512", tarball).toString("base64")}`);
    expect(v.dist.tarball).toBe(`${ROOT_URL}api/packages/alice/npm/%40scope%2Ftest-package/-/1.0.1-pre/test-package-1.0.1-pre.tgz`);

    const byVersion = await t.request("GET", new URL(v.dist.tarball).pathname);
    expect(byVersion.status).toBe(200);
    expect(new Uint8Array(await byVersion.arrayBuffer())).toEqual(tarball);
    const byName = await t.request("GET", `${P}/alice/npm/@scope/test-package/-/test-package-1.0.1-pre.tgz`);
    expect(new Uint8Array(await byName.arrayBuffer())).toEqual(tarball);
    expect((await t.request("HEAD", `${P}/alice/npm/@scope/test-package/-/test-package-1.0.1-pre.tgz`)).status).toBe(200);
    const api = await t.json("GET", `${P}/alice/npm/@scope/test-package/1.0.1-pre`);
    expect(api.body.dist.shasum).toBe(v.dist.shasum);
    expect((await t.json("GET", `${P}/alice/npm/@scope/test-package/latest`)).body.version).toBe("1.0.1-pre");
    // Two GETs counted, the HEAD not.
    const pkg = getPackage(t.env.db, alice.id, "npm", name)!;
    expect(listVersions(t.env.db, pkg.id).rows[0]!.downloadCount).toBe(2);

    const missing = await t.json("GET", `${P}/alice/npm/does-not-exist`);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBeString();
    expect((await t.request("GET", `${P}/alice/npm/@scope/test-package/-/1.0.1-pre/other.tgz`)).status).toBe(404);
  });

  test("dist-tags: add, list, move, delete; version-like tags refused; latest made up when missing", async () => {
    const bob = await t.user("bob");
    const token = t.token(bob, ["write:package"]);
    const name = "tagged";
    await publish(t, "bob", name, publishDoc(name, "1.0.0", tgz("a")), token);
    await publish(t, "bob", name, publishDoc(name, "1.1.0-beta.1", tgz("b"), { tags: { beta: "1.1.0-beta.1" } }), token);
    const tags = `${P}/bob/npm/-/package/${name}/dist-tags`;
    expect(await t.json("GET", tags)).toMatchObject({ status: 200, body: { latest: "1.0.0", beta: "1.1.0-beta.1" } });
    for (const bad of ["1.0", "v1.0"]) {
      const res = await t.json("PUT", `${tags}/${bad}`, { token, body: '"1.0.0"' });
      expect(res).toMatchObject({ status: 400, body: { error: "The tag name is invalid" } });
    }
    expect((await t.request("PUT", `${tags}/release`, { token, body: '"1.2"' })).status).toBe(404);
    expect((await t.request("PUT", `${tags}/release`, { token, body: '"1.0.0"' })).status).toBe(200);
    expect((await t.request("PUT", `${tags}/latest`, { token, body: '"1.1.0-beta.1"' })).status).toBe(200);
    expect((await t.json("GET", tags)).body).toEqual({ latest: "1.1.0-beta.1", beta: "1.1.0-beta.1", release: "1.0.0" });
    expect((await t.request("DELETE", `${tags}/v1.0`, { token })).status).toBe(400);
    expect((await t.request("DELETE", `${tags}/dummy`, { token })).status).toBe(200);
    expect((await t.request("DELETE", `${tags}/latest`, { token })).status).toBe(200);
    // Without a latest tag, the highest release stands in for it.
    expect((await t.json("GET", `${P}/bob/npm/${name}`)).body["dist-tags"]).toEqual({ latest: "1.0.0", beta: "1.1.0-beta.1", release: "1.0.0" });
    // A publish with an invalid tag stores nothing.
    const bad = await publish(t, "bob", name, publishDoc(name, "2.0.0", tgz("c"), { tags: { "2.0": "2.0.0" } }), token);
    expect(bad.status).toBe(400);
    expect(Object.keys((await t.json("GET", `${P}/bob/npm/${name}`)).body.versions)).toEqual(["1.0.0", "1.1.0-beta.1"]);
    expect((await t.request("PUT", `${tags}/x`, { body: '"1.0.0"' })).status).toBe(401);
  });

  test("search: the newest version of each package whose name matches, paged", async () => {
    const carol = await t.user("carol");
    const token = t.token(carol, ["write:package"]);
    await publish(t, "carol", "test-one", publishDoc("test-one", "1.0.0", tgz("1")), token);
    await publish(t, "carol", "test-one", publishDoc("test-one", "1.1.0", tgz("2")), token);
    await publish(t, "carol", "@scope/test-two", publishDoc("@scope/test-two", "0.1.0", tgz("3")), token);
    const search = (q: string) => t.json("GET", `${P}/carol/npm/-/v1/search?${q}`);
    expect((await search("text=&from=0&size=0")).body.total).toBe(2);
    expect((await search("text=gitea")).body).toEqual({ objects: [], total: 0 });
    const one = await search("text=one");
    expect(one.body.total).toBe(1);
    expect(one.body.objects[0].package).toMatchObject({ scope: "unscoped", name: "test-one", version: "1.1.0", maintainers: [], publisher: { name: "carol" } });
    const two = await search("text=two");
    expect(two.body.objects[0].package).toMatchObject({ scope: "@scope", name: "test-two" });
    const paged = await search("text=test&from=1&size=10");
    expect(paged.body.total).toBe(2);
    expect(paged.body.objects).toHaveLength(1);
  });

  test("unpublish one version, then the package; both need write access", async () => {
    const dave = await t.user("dave");
    const token = t.token(dave, ["write:package"]);
    const name = "@scope/gone";
    const root = `${P}/dave/npm/${encodeURIComponent(name)}`;
    await publish(t, "dave", name, publishDoc(name, "1.0.0", tgz("x1")), token);
    await publish(t, "dave", name, publishDoc(name, "1.0.1", tgz("x2")), token);
    expect((await t.request("PUT", `${root}/-rev/dummy`)).status).toBe(401);
    expect((await t.request("PUT", `${root}/-rev/dummy`, { token, body: "{}" })).status).toBe(200);
    expect((await t.request("DELETE", `${root}/-/1.0.0/gone-1.0.0.tgz/-rev/dummy`)).status).toBe(401);
    expect((await t.request("DELETE", `${root}/-/1.0.0/gone-1.0.0.tgz/-rev/dummy`, { token })).status).toBe(200);
    expect(Object.keys((await t.json("GET", root)).body.versions)).toEqual(["1.0.1"]);
    await publish(t, "dave", name, publishDoc(name, "1.0.2", tgz("x3")), token);
    expect((await t.request("DELETE", `${root}/-/1.0.2/gone-1.0.2.tgz`, { token })).status).toBe(200);
    expect((await t.request("DELETE", `${root}/-/1.0.2/gone-1.0.2.tgz`, { token })).status).toBe(404);
    expect(Object.keys((await t.json("GET", root)).body.versions)).toEqual(["1.0.1"]);
    expect((await t.request("DELETE", `${root}/-rev/dummy`)).status).toBe(401);
    expect((await t.request("DELETE", `${root}/-rev/dummy`, { token })).status).toBe(200);
    expect((await t.request("GET", root)).status).toBe(404);
    expect((await t.request("DELETE", `${root}/-rev/dummy`, { token })).status).toBe(404);
  });

  test("refusals: bad JSON, bad names and versions, a tarball not matching its integrity, over LIMIT_SIZE_NPM", async () => {
    const erin = await t.user("erin");
    const token = t.token(erin, ["write:package"]);
    const put = (body: unknown, name = "pkg") => t.json("PUT", `${P}/erin/npm/${name}`, { token, body });
    const badJson = await put("{not json");
    expect(badJson.status).toBe(400);
    expect(badJson.body.error).toBeString();
    expect(await put({})).toMatchObject({ status: 400, body: { error: "package is invalid" } });
    expect(await put(publishDoc("Bad Name", "1.0.0", tgz("x")))).toMatchObject({ status: 400, body: { error: "package name is invalid" } });
    expect(await put(publishDoc("pkg", "one", tgz("x")))).toMatchObject({ status: 400, body: { error: "package version is invalid" } });
    const noData = publishDoc("pkg", "1.0.0", tgz("x"));
    noData._attachments = {};
    expect(await put(noData)).toMatchObject({ status: 400, body: { error: "package attachment is invalid" } });
    const lying = publishDoc("pkg", "1.0.0", tgz("real bytes"), { integrity: `sha512-${digest("sha512", tgz("other bytes")).toString("base64")}` });
    expect(await put(lying)).toMatchObject({ status: 400, body: { error: "failed to validate integrity" } });
    const sha1 = publishDoc("pkg", "1.0.0", tgz("sha1 bytes"), { integrity: `sha1-${digest("sha1", tgz("sha1 bytes")).toString("base64")}` });
    expect((await put(sha1)).status).toBe(201);
    expect((await t.request("GET", `${P}/erin/npm/pkg`)).status).toBe(200);

    const big = crypto.getRandomValues(new Uint8Array(5000));
    expect(await put(publishDoc("pkg", "2.0.0", big))).toMatchObject({ status: 403, body: { error: "maximum allowed package type size exceeded" } });
    const huge = await put(publishDoc("pkg", "3.0.0", new Uint8Array(64 * 1024)));
    expect(huge).toMatchObject({ status: 413, body: { error: "npm publish payload exceeds size limit" } });
    expect(Object.keys((await t.json("GET", `${P}/erin/npm/pkg`)).body.versions)).toEqual(["1.0.0"]);
    expect(readdirSync(join(t.settings.server.appDataPath, "packages", "tmp"))).toEqual([]);
  });

  test("a manifest naming a repository of this site links the package to it, when the doer may write its packages", async () => {
    const hank = await t.user("hank");
    const token = t.token(hank, ["write:package"]);
    const repo = await t.ok("POST", "/api/v1/user/repos", t.token(hank), { name: "tools" }, 201);
    const linked = publishDoc("linked", "1.0.0", tgz("l"), { manifest: { repository: { type: "git", url: `git+${ROOT_URL}hank/tools.git` } } });
    expect((await publish(t, "hank", "linked", linked, token)).status).toBe(201);
    expect(getPackage(t.env.db, hank.id, "npm", "linked")!.repoId).toBe(repo.id);
    // A repository of someone else the doer may not write: refused, nothing stored.
    await t.ok("POST", "/api/v1/user/repos", t.token(await t.user("ivan")), { name: "theirs" }, 201);
    const foreign = publishDoc("foreign", "1.0.0", tgz("f"), { manifest: { repository: { type: "git", url: `${ROOT_URL}ivan/theirs` } } });
    expect(await t.json("PUT", `${P}/hank/npm/foreign`, { token, body: foreign })).toMatchObject({ status: 403, body: { error: "no permission to upload this package" } });
    expect((await t.request("GET", `${P}/hank/npm/foreign`)).status).toBe(404);
  });

  test("access: anonymous publish challenged, read-only token 403, private owner 401/403, whoami", async () => {
    const frank = await t.user("frank");
    const doc = publishDoc("secret", "1.0.0", tgz("s"));
    const anon = await t.request("PUT", `${P}/frank/npm/secret`, { body: doc });
    expect(anon.status).toBe(401);
    expect(anon.headers.get("www-authenticate")).toBe('Basic realm="Gitea Package API"');
    expect((await t.request("PUT", `${P}/frank/npm/secret`, { body: doc, token: t.token(frank, ["read:package"]) })).status).toBe(403);
    expect((await t.request("PUT", `${P}/frank/npm/secret`, { body: doc, token: t.token(frank, ["write:repository"]) })).status).toBe(403);
    expect((await t.request("PUT", `${P}/frank/npm/secret`, { body: doc, basic: ["frank", "password123"] })).status).toBe(201);
    await t.user("gina");
    expect((await t.request("PUT", `${P}/frank/npm/other`, { body: publishDoc("other", "1.0.0", tgz("o")), basic: ["gina", "password123"] })).status).toBe(403);

    const root = await t.user("root", { admin: true });
    await t.ok("PATCH", "/api/v1/admin/users/frank", t.token(root), { login_name: "frank", source_id: 0, visibility: "private" });
    expect((await t.request("GET", `${P}/frank/npm/secret`)).status).toBe(401);
    expect((await t.request("GET", `${P}/frank/npm/secret`, { basic: ["gina", "password123"] })).status).toBe(403);
    expect((await t.request("GET", `${P}/frank/npm/secret`, { token: t.token(frank, ["read:package"]) })).status).toBe(200);

    const who = await t.json("GET", `${P}/gina/npm/-/whoami`, { basic: ["gina", "password123"] });
    expect(who).toMatchObject({ status: 200, body: { username: "gina" } });
    expect((await t.request("GET", `${P}/gina/npm/-/whoami`)).status).toBe(401);
  });
});
