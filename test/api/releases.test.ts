import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { makeTestApp, ROOT_URL } from "../support/app.ts";
import { gitOk } from "../support/git.ts";
import { expectShape } from "../support/shape.ts";
import { Release } from "../../src/shapes/release.ts";
import { gitDirOf } from "../../src/services/repo/lookup.ts";
import { releasesAfterPush } from "../../src/services/release/tag-sync.ts";

const t = makeTestApp();
const alice = await t.user("alice");
const aliceToken = t.token(alice);
const bob = await t.user("bob"); // reads proj
const bobToken = t.token(bob);
const carol = await t.user("carol"); // writes proj
const carolToken = t.token(carol);
const dave = await t.user("dave"); // a stranger
const daveToken = t.token(dave);
const ok = t.ok.bind(t);

const api = (repo: string, rest = "") => `/api/v1/repos/alice/${repo}${rest}`;
const rel = (rest = "") => api("proj", `/releases${rest}`);
const gitDir = (name: string) => gitDirOf(t.env, { name: "alice" }, { name });
const rev = (name: string, r: string) => gitOk(["--git-dir", gitDir(name), "rev-parse", "--verify", r]).then((s) => s.trim());
/** `null` sends no token. */
const create = (body: unknown, token: string | null = aliceToken, repo = "proj") =>
  t.json("POST", api(repo, "/releases"), { token: token ?? undefined, body });
const tags = (r: { tag_name: string }[]) => r.map((x) => x.tag_name);

await ok("POST", "/api/v1/user/repos", aliceToken, { name: "proj", auto_init: true }, 201);
await ok("POST", "/api/v1/user/repos", aliceToken, { name: "secret", auto_init: true, private: true }, 201);
await ok("POST", "/api/v1/user/repos", aliceToken, { name: "empty" }, 201);
await ok("PUT", api("proj", "/collaborators/bob"), aliceToken, { permission: "read" }, 204);
await ok("PUT", api("proj", "/collaborators/carol"), aliceToken, { permission: "write" }, 204);
const main = await rev("proj", "main");

describe("create", () => {
  test("a release creates its lightweight tag at the default branch; the JSON is Gitea's", async () => {
    const r = await create({ tag_name: "v1.0", name: "First", body: "notes" });
    expect(r.status).toBe(201);
    expectShape(r.body, Release);
    const id = r.body.id;
    expect(r.body).toMatchObject({
      tag_name: "v1.0",
      target_commitish: "main",
      name: "First",
      body: "notes",
      draft: false,
      prerelease: false,
      assets: [],
      url: `${ROOT_URL}api/v1/repos/alice/proj/releases/${id}`,
      html_url: `${ROOT_URL}alice/proj/releases/tag/v1.0`,
      tarball_url: `${ROOT_URL}alice/proj/archive/v1.0.tar.gz`,
      zipball_url: `${ROOT_URL}alice/proj/archive/v1.0.zip`,
      upload_url: `${ROOT_URL}api/v1/repos/alice/proj/releases/${id}/assets`,
    });
    expect(r.body.author.login).toBe("alice");
    expect(r.body.published_at).toBe(r.body.created_at);
    const tag = await ok("GET", api("proj", "/tags/v1.0"), aliceToken);
    expect(tag.commit.sha).toBe(main);
    expect(tag.id).toBe(main); // lightweight: the ref names the commit
  });

  test("tag_message makes an annotated tag; a target may be a commit id", async () => {
    const r = await create({ tag_name: "v1.1", target_commitish: main, tag_message: "Release 1.1" }, carolToken);
    expect(r.status).toBe(201);
    expect(r.body.target_commitish).toBe(main);
    expect(r.body.author.login).toBe("carol");
    const tag = await ok("GET", api("proj", "/tags/v1.1"), aliceToken);
    expect(tag.commit.sha).toBe(main);
    expect(tag.id).not.toBe(main);
    expect(tag.message).toBe("Release 1.1");
  });

  test("a release of an existing tag uses it as it is", async () => {
    await ok("POST", api("proj", "/tags"), aliceToken, { tag_name: "pre-existing" }, 201);
    const r = await create({ tag_name: "pre-existing", target_commitish: "no-such-branch" });
    expect(r.status).toBe(201);
    expect(r.body.tag_name).toBe("pre-existing");
  });

  test("a draft creates no tag", async () => {
    const r = await create({ tag_name: "v-draft", draft: true });
    expect(r.status).toBe(201);
    expect(r.body.draft).toBe(true);
    expect((await t.json("GET", api("proj", "/tags/v-draft"), { token: aliceToken })).status).toBe(404);
  });

  test("a tag that has a release is 409, compared case-insensitively, drafts included", async () => {
    const dup = await create({ tag_name: "v1.0" });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe("Release is has no Tag");
    expect((await create({ tag_name: "V1.0" })).status).toBe(409);
    expect((await create({ tag_name: "v-draft", draft: true })).status).toBe(409);
  });

  test("bad input: no tag name, an invalid tag name, an unknown target, an empty repository", async () => {
    const none = await create({ name: "x" });
    expect(none.status).toBe(422);
    expect(none.body.message).toBe("[TagName]: Required");
    const bad = await create({ tag_name: "bad..name" });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe("release tag name is not valid [tag_name: bad..name]");
    expect((await create({ tag_name: "-x" })).status).toBe(422);
    const target = await create({ tag_name: "v9", target_commitish: "nope" });
    expect(target.status).toBe(404);
    expect(target.body.message).toContain('target "nope" not found');
    expect((await t.json("GET", api("proj", "/tags/v9"), { token: aliceToken })).status).toBe(404);
    const empty = await create({ tag_name: "v1" }, aliceToken, "empty");
    expect(empty.status).toBe(422);
    expect(empty.body.message).toBe("repo is empty");
  });

  test("refusals: anonymous 401, reader 403, stranger on a private repository 404, archived 423", async () => {
    expect((await create({ tag_name: "x1" }, null)).status).toBe(401);
    const reader = await create({ tag_name: "x1" }, bobToken);
    expect(reader.status).toBe(403);
    expect(reader.body.message).toBe("user should have a permission to write to a repo");
    expect((await create({ tag_name: "x1" }, daveToken, "secret")).status).toBe(404);
    expect((await t.json("GET", api("secret", "/releases"), { token: daveToken })).status).toBe(404);
    await ok("POST", "/api/v1/user/repos", aliceToken, { name: "frozen", auto_init: true }, 201);
    await ok("PATCH", api("frozen"), aliceToken, { archived: true });
    expect((await create({ tag_name: "x1" }, aliceToken, "frozen")).status).toBe(423);
    expect((await t.json("GET", api("frozen", "/tags/x1"), { token: aliceToken })).status).toBe(404);
  });
});

describe("read", () => {
  test("get by id and by tag; drafts only for release writers", async () => {
    const list = await ok("GET", rel(), aliceToken);
    const draft = list.find((r: { tag_name: string }) => r.tag_name === "v-draft");
    const stable = list.find((r: { tag_name: string }) => r.tag_name === "v1.0");
    expect(await ok("GET", rel(`/${stable.id}`), undefined)).toEqual(stable);
    expect(await ok("GET", rel("/tags/v1.0"), daveToken)).toEqual(stable);
    expect(await ok("GET", rel(`/${draft.id}`), carolToken)).toEqual(draft);
    expect(await ok("GET", rel("/tags/v-draft"), aliceToken)).toEqual(draft);
    for (const token of [bobToken, daveToken, undefined]) {
      expect((await t.json("GET", rel(`/${draft.id}`), { token })).status).toBe(404);
      expect((await t.json("GET", rel("/tags/v-draft"), { token })).status).toBe(404);
      expect(tags(await ok("GET", rel(), token))).not.toContain("v-draft");
      expect(await ok("GET", rel("?draft=true"), token)).toEqual([]);
    }
    expect((await t.json("GET", rel("/999999"), { token: aliceToken })).status).toBe(404);
    expect((await t.json("GET", rel("/abc"), { token: aliceToken })).status).toBe(404);
    expect((await t.json("GET", rel("/tags/nope"), { token: aliceToken })).status).toBe(404);
    // A release of another repository is not found here.
    const other = await create({ tag_name: "s1" }, aliceToken, "secret");
    expect((await t.json("GET", rel(`/${other.body.id}`), { token: aliceToken })).status).toBe(404);
  });

  test("the list is newest first, filtered by draft and pre-release, paged with Gitea's headers", async () => {
    await create({ tag_name: "v2.0-rc", prerelease: true });
    const all = await t.json("GET", rel(), { token: aliceToken });
    expect(v.safeParse(v.array(Release), all.body).success).toBe(true);
    expect(tags(all.body)).toEqual(["v2.0-rc", "v-draft", "pre-existing", "v1.1", "v1.0"]);
    expect(all.headers.get("x-total-count")).toBe("5");
    expect(tags(await ok("GET", rel("?draft=true"), aliceToken))).toEqual(["v-draft"]);
    expect(tags(await ok("GET", rel("?draft=false&pre-release=true"), aliceToken))).toEqual(["v2.0-rc"]);
    expect(tags(await ok("GET", rel("?pre-release=false"), bobToken))).toEqual(["pre-existing", "v1.1", "v1.0"]);
    const page = await t.json("GET", rel("?limit=2&page=2"), { token: aliceToken });
    expect(tags(page.body)).toEqual(["pre-existing", "v1.1"]);
    expect(page.headers.get("x-total-count")).toBe("5");
    expect(page.headers.get("link")).toContain('rel="next"');
    expect(tags(await ok("GET", rel(), bobToken))).toEqual(["v2.0-rc", "pre-existing", "v1.1", "v1.0"]);
  });

  test("latest is the newest release that is neither a draft nor a prerelease", async () => {
    await ok("POST", "/api/v1/user/repos", aliceToken, { name: "latest", auto_init: true }, 201);
    const latest = (token?: string) => t.json("GET", api("latest", "/releases/latest"), { token });
    expect((await latest(aliceToken)).status).toBe(404);
    await create({ tag_name: "a" }, aliceToken, "latest");
    await create({ tag_name: "b" }, aliceToken, "latest");
    await create({ tag_name: "c", prerelease: true }, aliceToken, "latest");
    await create({ tag_name: "d", draft: true }, aliceToken, "latest");
    const r = await latest(undefined);
    expect(r.status).toBe(200);
    expectShape(r.body, Release);
    expect(r.body.tag_name).toBe("b");
    expect((await latest(aliceToken)).body.tag_name).toBe("b");
  });

  test("the repository counts its published releases", async () => {
    const repo = await ok("GET", api("latest"), aliceToken);
    expect(repo.release_counter).toBe(3); // a, b and the prerelease c; not the draft d
  });
});

describe("edit", () => {
  test("a writer renames and rewrites; absent and empty fields stay; Gitea answers 200", async () => {
    const r = (await create({ tag_name: "e1", name: "E", body: "old" })).body;
    const edited = await ok("PATCH", rel(`/${r.id}`), carolToken, { name: "E!", body: "", prerelease: true });
    expectShape(edited, Release);
    expect(edited).toMatchObject({ id: r.id, tag_name: "e1", name: "E!", body: "old", prerelease: true, draft: false });
    expect(await ok("GET", rel(`/${r.id}`), aliceToken)).toEqual(edited);
  });

  test("publishing a draft creates its tag at the target", async () => {
    const d = (await create({ tag_name: "e2", draft: true, target_commitish: main })).body;
    expect((await t.json("GET", api("proj", "/tags/e2"), { token: aliceToken })).status).toBe(404);
    const published = await ok("PATCH", rel(`/${d.id}`), aliceToken, { draft: false });
    expect(published.draft).toBe(false);
    expect((await ok("GET", api("proj", "/tags/e2"), aliceToken)).commit.sha).toBe(main);
    expect(tags(await ok("GET", rel(), bobToken))).toContain("e2");
  });

  test("a new tag name creates that tag; a name another release has is 409", async () => {
    const r = (await create({ tag_name: "e3" })).body;
    const renamed = await ok("PATCH", rel(`/${r.id}`), aliceToken, { tag_name: "e3-final" });
    expect(renamed.tag_name).toBe("e3-final");
    expect((await t.json("GET", api("proj", "/tags/e3-final"), { token: aliceToken })).status).toBe(200);
    const clash = await t.json("PATCH", rel(`/${r.id}`), { token: aliceToken, body: { tag_name: "v1.0" } });
    expect(clash.status).toBe(409);
    const invalid = await t.json("PATCH", rel(`/${r.id}`), { token: aliceToken, body: { tag_name: "a..b" } });
    expect(invalid.status).toBe(422);
  });

  test("refusals: reader 403, anonymous 401, unknown 404, a draft is unknown to readers", async () => {
    const list = await ok("GET", rel(), aliceToken);
    const id = list.find((r: { tag_name: string }) => r.tag_name === "v1.0").id;
    expect((await t.json("PATCH", rel(`/${id}`), { token: bobToken, body: { name: "x" } })).status).toBe(403);
    expect((await t.json("PATCH", rel(`/${id}`), { body: { name: "x" } })).status).toBe(401);
    expect((await t.json("PATCH", rel("/999999"), { token: aliceToken, body: { name: "x" } })).status).toBe(404);
    expect((await t.json("PATCH", rel(`/${id}`), { token: aliceToken, body: { draft: "yes" } })).status).toBe(422);
    expect((await ok("GET", rel(`/${id}`), aliceToken)).name).toBe("First");
  });
});

describe("delete", () => {
  test("deleting a release keeps its tag; the tag can get a release again", async () => {
    const r = (await create({ tag_name: "d1", name: "one" })).body;
    expect((await t.json("DELETE", rel(`/${r.id}`), { token: bobToken })).status).toBe(403);
    expect((await t.json("DELETE", rel(`/${r.id}`), { token: aliceToken })).status).toBe(204);
    expect((await t.json("GET", rel(`/${r.id}`), { token: aliceToken })).status).toBe(404);
    expect((await t.json("DELETE", rel(`/${r.id}`), { token: aliceToken })).status).toBe(404);
    expect((await t.json("GET", api("proj", "/tags/d1"), { token: aliceToken })).status).toBe(200);
    expect(tags(await ok("GET", rel(), aliceToken))).not.toContain("d1");
    const again = await create({ tag_name: "d1", name: "two" });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ id: r.id, name: "two", draft: false });
  });

  test("by tag: 204, then 404; unknown tags 404; readers 403", async () => {
    await create({ tag_name: "d2" });
    expect((await t.json("DELETE", rel("/tags/d2"), { token: bobToken })).status).toBe(403);
    expect((await t.json("DELETE", rel("/tags/d2"), { token: carolToken })).status).toBe(204);
    expect((await t.json("DELETE", rel("/tags/d2"), { token: carolToken })).status).toBe(404);
    expect((await t.json("GET", rel("/tags/d2"), { token: carolToken })).status).toBe(404);
    expect((await t.json("DELETE", rel("/tags/never"), { token: carolToken })).status).toBe(404);
    expect((await t.json("GET", api("proj", "/tags/d2"), { token: aliceToken })).status).toBe(200);
  });

  test("a draft without a tag goes entirely; its name is free again", async () => {
    const d = (await create({ tag_name: "d3", draft: true })).body;
    expect((await t.json("DELETE", rel(`/${d.id}`), { token: aliceToken })).status).toBe(204);
    const again = await create({ tag_name: "d3", draft: true });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(d.id);
  });

  test("the release counter follows deletions", async () => {
    const before = (await ok("GET", api("latest"), aliceToken)).release_counter;
    expect((await t.json("DELETE", api("latest", "/releases/tags/a"), { token: aliceToken })).status).toBe(204);
    expect((await ok("GET", api("latest"), aliceToken)).release_counter).toBe(before - 1);
  });
});

describe("tags and releases", () => {
  test("a tag with a release cannot be deleted directly (409); once the release is gone it can", async () => {
    await create({ tag_name: "t1" });
    const refused = await t.json("DELETE", api("proj", "/tags/t1"), { token: aliceToken });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe("a tag attached to a release cannot be deleted directly");
    expect((await t.json("GET", api("proj", "/tags/t1"), { token: aliceToken })).status).toBe(200);
    expect((await t.json("DELETE", rel("/tags/t1"), { token: aliceToken })).status).toBe(204);
    expect((await t.json("DELETE", api("proj", "/tags/t1"), { token: aliceToken })).status).toBe(204);
    expect((await t.json("GET", api("proj", "/tags/t1"), { token: aliceToken })).status).toBe(404);
    // The bare tag row went with the tag: a new release re-creates the tag.
    const again = await create({ tag_name: "t1" });
    expect(again.status).toBe(201);
    expect((await t.json("GET", api("proj", "/tags/t1"), { token: aliceToken })).status).toBe(200);
  });

  test("a draft's tag name cannot be taken by a new tag (409)", async () => {
    const r = await t.json("POST", api("proj", "/tags"), { token: aliceToken, body: { tag_name: "v-draft" } });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe("tag already exists [name: v-draft]");
  });

  test("a tag deleted outside the API leaves the release readable", async () => {
    const r = (await create({ tag_name: "t2" })).body;
    await gitOk(["--git-dir", gitDir("proj"), "tag", "-d", "t2"]);
    expect((await ok("GET", rel(`/${r.id}`), aliceToken)).tag_name).toBe("t2");
    // Publishing again re-creates the missing tag.
    await ok("PATCH", rel(`/${r.id}`), aliceToken, { name: "again" });
    expect((await t.json("GET", api("proj", "/tags/t2"), { token: aliceToken })).status).toBe(200);
  });
});

describe("pushed tags (releasesAfterPush, for the post-receive step)", () => {
  test("a deleted tag turns its release into a draft; pushing the tag again publishes it", async () => {
    await ok("POST", "/api/v1/user/repos", aliceToken, { name: "pushed", auto_init: true }, 201);
    const repo = await ok("GET", api("pushed"), aliceToken);
    const r = (await create({ tag_name: "p1" }, aliceToken, "pushed")).body;
    await create({ tag_name: "p2" }, aliceToken, "pushed");
    const zero = "0".repeat(40);
    const sha = await rev("pushed", "p1");
    await gitOk(["--git-dir", gitDir("pushed"), "tag", "-d", "p1"]);
    await releasesAfterPush(t.env, repo.id, gitDir("pushed"), [{ ref: "refs/tags/p1", new: zero }]);
    expect((await ok("GET", api("pushed", `/releases/${r.id}`), aliceToken)).draft).toBe(true);
    expect((await t.json("GET", api("pushed", `/releases/${r.id}`), { token: bobToken })).status).toBe(404);
    expect((await ok("GET", api("pushed"), aliceToken)).release_counter).toBe(1);
    expect((await ok("GET", api("pushed", "/releases/latest"), undefined)).tag_name).toBe("p2");
    await gitOk(["--git-dir", gitDir("pushed"), "tag", "p1", sha]);
    await releasesAfterPush(t.env, repo.id, gitDir("pushed"), [{ ref: "refs/tags/p1", new: sha }]);
    expect((await ok("GET", api("pushed", `/releases/${r.id}`), undefined)).draft).toBe(false);
    expect((await ok("GET", api("pushed"), aliceToken)).release_counter).toBe(2);
  });
});

describe("names and units", () => {
  test("a tag name with slashes works by tag, and its URLs keep the slashes", async () => {
    const r = await create({ tag_name: "release/2.0" });
    expect(r.status).toBe(201);
    expect(r.body.html_url).toBe(`${ROOT_URL}alice/proj/releases/tag/release/2.0`);
    expect(r.body.tarball_url).toBe(`${ROOT_URL}alice/proj/archive/release/2.0.tar.gz`);
    expect((await ok("GET", rel("/tags/release/2.0"), undefined)).id).toBe(r.body.id);
    expect((await ok("GET", api("proj", "/tags/release/2.0"), aliceToken)).commit.sha).toBe(main);
    expect((await t.json("DELETE", rel("/tags/release/2.0"), { token: aliceToken })).status).toBe(204);
  });

  test("with the releases unit off, readers get 403 and the repository admin still gets through", async () => {
    await ok("POST", "/api/v1/user/repos", aliceToken, { name: "nounit", auto_init: true }, 201);
    await ok("PUT", api("nounit", "/collaborators/bob"), aliceToken, { permission: "read" }, 204);
    await ok("PATCH", api("nounit"), aliceToken, { has_releases: false });
    const refused = await t.json("GET", api("nounit", "/releases"), { token: bobToken });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("user should have specific read permission or be a repo admin or a site admin");
    expect((await t.json("GET", api("nounit", "/releases"), { token: aliceToken })).status).toBe(200);
  });
});
