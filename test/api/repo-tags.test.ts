import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { makeTestApp } from "../support/app.ts";
import { authUrl, gitOk } from "../support/git.ts";
import { expectShape } from "../support/shape.ts";
import { AnnotatedTag, Reference, Tag } from "../../src/shapes/branch.ts";
import { gitDirOf } from "../../src/services/repo/lookup.ts";

const t = makeTestApp("", { listen: true });
const alice = await t.user("alice", { password: "alice-pass" });
const bob = await t.user("bob");
const aliceToken = t.token(alice);
const bobToken = t.token(bob);
const api = (repo: string, rest = "") => `/api/v1/repos/alice/${repo}${rest}`;
const gitDir = (name: string) => gitDirOf(t.env, { name: "alice" }, { name });
const rev = (name: string, r: string) => gitOk(["--git-dir", gitDir(name), "rev-parse", "--verify", r]).then((s) => s.trim());

async function createRepo(name: string, body: Record<string, unknown> = { auto_init: true }) {
  const r = await t.json("POST", "/api/v1/user/repos", { token: aliceToken, body: { name, ...body } });
  expect(r.status).toBe(201);
}

const createTag = (body: unknown, token: string | null = aliceToken, repo = "r") =>
  t.json("POST", api(repo, "/tags"), { token: token ?? undefined, body });

await createRepo("r");
await createRepo("empty", {});
const main = await rev("r", "main");

describe("POST /tags", () => {
  test("a lightweight tag carries its commit's message and time", async () => {
    const r = await createTag({ tag_name: "v1" });
    expect(r.status).toBe(201);
    expectShape(r.body, Tag);
    expect(r.body).toMatchObject({
      name: "v1",
      message: "Initial commit",
      id: main,
      commit: { sha: main, url: `${t.baseUrl}api/v1/repos/alice/r/git/commits/${main}` },
      zipball_url: `${t.baseUrl}alice/r/archive/v1.zip`,
      tarball_url: `${t.baseUrl}alice/r/archive/v1.tar.gz`,
    });
    expect(r.body.commit.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(await rev("r", "refs/tags/v1")).toBe(main);
  });

  test("a message makes an annotated tag with the doer as tagger", async () => {
    const r = await createTag({ tag_name: "release/2.0", message: "second release", target: "main" });
    expect(r.status).toBe(201);
    const tagObject = await rev("r", "refs/tags/release/2.0");
    expect(tagObject).not.toBe(main);
    expect(r.body).toMatchObject({
      name: "release/2.0",
      message: "second release",
      id: tagObject,
      // Gitea's quirk: the commit URL names the tag object, the sha the commit.
      commit: { sha: main, url: `${t.baseUrl}api/v1/repos/alice/r/git/commits/${tagObject}` },
      zipball_url: `${t.baseUrl}alice/r/archive/release%2F2.0.zip`,
    });
    const raw = await gitOk(["--git-dir", gitDir("r"), "cat-file", "tag", tagObject]);
    expect(raw).toContain("tagger alice <alice@example.com>");
    expect(raw.endsWith("\n\nsecond release\n")).toBe(true);
  });

  test("targets a commit sha or another tag", async () => {
    const bySha = await createTag({ tag_name: "by-sha", target: main });
    expect(bySha.body.id).toBe(main);
    const byTag = await createTag({ tag_name: "by-tag", target: "release/2.0" });
    expect(byTag.body.commit.sha).toBe(main);
  });

  test("conflicts, bad names and unknown targets are 4xx, never 500", async () => {
    const dup = await createTag({ tag_name: "v1" });
    expect([dup.status, dup.body.message]).toEqual([409, "tag already exists [name: v1]"]);
    const nested = await createTag({ tag_name: "v1/sub" });
    expect(nested.status).toBe(409);
    const nestedAnnotated = await createTag({ tag_name: "release", message: "clashes with release/2.0" });
    expect([nestedAnnotated.status, nestedAnnotated.body.message]).toEqual([409, "tag already exists [name: release]"]);
    expect((await createTag({})).body.message).toBe("[TagName]: Required");
    for (const name of ["bad..tag", "-d", "--force", "a b", "x.lock", "a@{1}", "ctl\u0001", "t".repeat(100_000)]) {
      const r = await createTag({ tag_name: name });
      expect([name.slice(0, 20), r.status]).toEqual([name.slice(0, 20), 422]);
      expect(r.body.message.startsWith("release tag name is not valid")).toBe(true);
    }
    for (const target of ["nope", "--all", "0".repeat(40), "main\nHEAD", "q".repeat(50_000)]) {
      const r = await createTag({ tag_name: "never", target });
      expect(r.status).toBe(404);
      expect(r.body.message.startsWith("target not found: ")).toBe(true);
    }
    expect((await t.json("GET", api("r", "/tags/never"))).status).toBe(404);
  });

  test("needs a signed-in writer on a non-archived repository; an empty repository has no target", async () => {
    const anon = await createTag({ tag_name: "x" }, null);
    expect([anon.status, anon.body.message]).toEqual([401, "token is required"]);
    const reader = await createTag({ tag_name: "x" }, bobToken);
    expect([reader.status, reader.body.message]).toEqual([403, "user should have a permission to write to a repo"]);
    const empty = await createTag({ tag_name: "x" }, aliceToken, "empty");
    expect(empty.status).toBe(404);
  });
});

describe("GET /tags", () => {
  test("pushed tags show up; annotated first, newest first; paged with X-Total-Count only", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "hearth-tags-")), "w");
    await gitOk(["clone", "-q", authUrl(t.baseUrl, "alice/r.git", "alice", "alice-pass"), dir]);
    await gitOk(["tag", "-a", "-m", "pushed one", "pushed"], {
      cwd: dir,
      env: { GIT_COMMITTER_DATE: "2031-05-06T07:08:09+05:30" },
    });
    await gitOk(["push", "-q", "origin", "pushed"], { cwd: dir });

    const r = await t.json("GET", api("r", "/tags"));
    expect(r.status).toBe(200);
    for (const tag of r.body) expectShape(tag, Tag);
    expect(r.headers.get("x-total-count")).toBe("5");
    expect(r.headers.get("link")).toBeNull();
    const names = r.body.map((x: { name: string }) => x.name);
    expect(names.slice(0, 2)).toEqual(["pushed", "release/2.0"]);
    expect(new Set(names)).toEqual(new Set(["pushed", "release/2.0", "v1", "by-sha", "by-tag"]));
    expect(r.body[0].commit.created).toBe("2031-05-06T07:08:09+05:30");
    expect(r.body[0].message).toBe("pushed one");

    const page = await t.json("GET", api("r", "/tags?limit=2&page=3"));
    expect(page.body.length).toBe(1);
    expect(page.headers.get("x-total-count")).toBe("5");
    const empty = await t.json("GET", api("empty", "/tags"));
    expect([empty.status, empty.body]).toEqual([200, []]);
  });

  test("GET /tags/{tag} finds names with slashes; unknown names are 404 with Gitea's message", async () => {
    for (const path of ["release/2.0", "release%2F2.0"]) {
      const r = await t.json("GET", api("r", `/tags/${path}`));
      expect(r.status).toBe(200);
      expect(r.body.name).toBe("release/2.0");
    }
    const missing = await t.json("GET", api("r", "/tags/v9"));
    expect([missing.status, missing.body.message]).toEqual([404, "tag doesn't exist: v9"]);
    for (const path of ["release", "*", "v%2A", "..%2F..%2Fconfig", "%ZZ", "x".repeat(3000)]) {
      expect((await t.json("GET", api("r", `/tags/${path}`))).status).toBe(404);
    }
  });
});

describe("DELETE /tags/{tag}", () => {
  test("removes the tag; unknown tags are 404; only writers", async () => {
    expect((await t.json("DELETE", api("r", "/tags/by-sha"), { token: bobToken })).status).toBe(403);
    expect((await t.json("DELETE", api("r", "/tags/by-sha"))).status).toBe(401);
    const r = await t.request("DELETE", api("r", "/tags/by-sha"), { token: aliceToken });
    expect(r.status).toBe(204);
    expect((await t.json("GET", api("r", "/tags/by-sha"))).status).toBe(404);
    expect((await t.json("DELETE", api("r", "/tags/by-sha"), { token: aliceToken })).status).toBe(404);
    expect((await t.json("DELETE", api("r", "/tags/-d"), { token: aliceToken })).status).toBe(404);
    expect((await t.json("DELETE", api("r", "/tags/*"), { token: aliceToken })).status).toBe(404);
    expect((await t.json("GET", api("r", "/tags/v1"))).status).toBe(200);
  });
});

describe("GET /git/tags/{sha}", () => {
  test("an annotated tag object, its commit, the tagger in UTC", async () => {
    const sha = await rev("r", "refs/tags/pushed");
    const r = await t.json("GET", api("r", `/git/tags/${sha}`));
    expect(r.status).toBe(200);
    expectShape(r.body, AnnotatedTag);
    expect(r.body).toEqual({
      tag: "pushed",
      sha,
      url: `${t.baseUrl}api/v1/repos/alice/r/git/tags/${sha}`,
      message: "pushed one\n",
      tagger: { name: "Test", email: "test@example.com", date: "2031-05-06T01:38:09Z" },
      object: { type: "commit", sha: main, url: `${t.baseUrl}api/v1/repos/alice/r/git/commits/${main}` },
      verification: { verified: false, reason: "gpg.error.not_signed_commit", signature: "", signer: null, payload: "" },
    });
  });

  test("anything else is 400 with the underlying error", async () => {
    const cases: [string, string][] = [
      ["xyz", "length 3 has no matched object format: xyz"],
      ["g".repeat(40), "encoding/hex: invalid byte: U+0067 'g'"],
      [main, `object does not exist [id: ${main}, rel_path: ]`],
      ["1".repeat(40), `object does not exist [id: ${"1".repeat(40)}, rel_path: ]`],
    ];
    for (const [sha, message] of cases) {
      const r = await t.json("GET", api("r", `/git/tags/${sha}`));
      expect([r.status, r.body.message]).toEqual([400, message]);
    }
  });
});

describe("GET /git/refs", () => {
  test("every ref, by name, with the object type and URLs", async () => {
    const r = await t.json("GET", api("r", "/git/refs"));
    expect(r.status).toBe(200);
    expectShape(r.body[0], Reference);
    expect(v.safeParse(v.array(Reference), r.body).success).toBe(true);
    const names = r.body.map((x: { ref: string }) => x.ref);
    expect(names).toEqual([...names].sort());
    expect(names).toContain("refs/heads/main");
    const main_ = r.body.find((x: { ref: string }) => x.ref === "refs/heads/main");
    expect(main_).toEqual({
      ref: "refs/heads/main",
      url: `${t.baseUrl}api/v1/repos/alice/r/git/refs/heads/main`,
      object: { type: "commit", sha: main, url: `${t.baseUrl}api/v1/repos/alice/r/git/commits/${main}` },
    });
    const annotated = r.body.find((x: { ref: string }) => x.ref === "refs/tags/release/2.0");
    expect(annotated.object.type).toBe("tag");
    expect(annotated.object.url).toBe(`${t.baseUrl}api/v1/repos/alice/r/git/tags/${annotated.object.sha}`);
  });

  test("a filter is a prefix below refs/; a single match is still a list; no match is 404", async () => {
    const exact = await t.json("GET", api("r", "/git/refs/heads/main"));
    expect(exact.status).toBe(200);
    expect(exact.body.map((x: { ref: string }) => x.ref)).toEqual(["refs/heads/main"]);
    const prefix = await t.json("GET", api("r", "/git/refs/heads/ma"));
    expect(prefix.body.map((x: { ref: string }) => x.ref)).toEqual(["refs/heads/main"]);
    const tags = await t.json("GET", api("r", "/git/refs/tags"));
    expect(tags.body.every((x: { ref: string }) => x.ref.startsWith("refs/tags/"))).toBe(true);
    expect(tags.body.length).toBe(4);
    const slashed = await t.json("GET", api("r", "/git/refs/tags%2Frelease"));
    expect(slashed.body.map((x: { ref: string }) => x.ref)).toEqual(["refs/tags/release/2.0"]);
    for (const path of ["heads/nope", "..%2F..", "%ZZ", "--all", "z".repeat(4000)]) {
      const r = await t.json("GET", api("r", `/git/refs/${path}`));
      expect([path.slice(0, 10), r.status]).toEqual([path.slice(0, 10), 404]);
    }
    expect((await t.json("GET", api("empty", "/git/refs"))).status).toBe(404);
  });

  test("a private repository's refs are 404 to strangers", async () => {
    await createRepo("hidden", { auto_init: true, private: true });
    expect((await t.json("GET", api("hidden", "/git/refs"), { token: bobToken })).status).toBe(404);
    expect((await t.json("GET", api("hidden", "/tags"))).status).toBe(404);
    expect((await t.json("GET", api("hidden", "/git/refs"), { token: aliceToken })).status).toBe(200);
  });
});

describe("archived repositories", () => {
  test("refuse tag changes with 423", async () => {
    await createRepo("old");
    await t.json("PATCH", api("old"), { token: aliceToken, body: { archived: true } });
    const r = await createTag({ tag_name: "late" }, aliceToken, "old");
    expect([r.status, r.body.message]).toEqual([423, "alice/old is archived"]);
    expect((await t.json("DELETE", api("old", "/tags/x"), { token: aliceToken })).status).toBe(423);
    expect((await t.json("GET", api("old", "/tags"))).status).toBe(200);
  });
});
