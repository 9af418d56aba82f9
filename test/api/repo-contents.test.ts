import { describe, expect, test } from "bun:test";
import { mkdtempSync, symlinkSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { authUrl, gitOk, localRepo } from "../support/git.ts";
import { expectShape } from "../support/shape.ts";
import { ContentsResponse, FileDeleteResponse, FileResponse, FilesResponse } from "../../src/shapes/content.ts";
import { getBranch } from "../../src/models/branch.ts";
import { getRepoById } from "../../src/models/repo.ts";

const t = makeTestApp("", { listen: true });
const alice = await t.user("alice", { password: "alice-pass-1" });
const aliceToken = t.token(alice);
const bob = await t.user("bob");
const bobToken = t.token(bob);

const b64 = (s: string | Uint8Array) => Buffer.from(s).toString("base64");
const unb64 = (s: string) => Buffer.from(s, "base64").toString("utf8");
const api = (repo: string, rest = "") => `/api/v1/repos/alice/${repo}${rest}`;

async function makeRepo(name: string, body: Record<string, unknown> = { auto_init: true }) {
  const r = await t.json("POST", "/api/v1/user/repos", { token: aliceToken, body: { name, ...body } });
  expect(r.status).toBe(201);
  return r.body as { id: number; default_branch: string };
}

/** Clones through the real git client over HTTP, as a user would. */
async function clone(repo: string, branch?: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "hearth-clone-"));
  const args = ["clone", "-q", ...(branch ? ["-b", branch] : []), authUrl(t.baseUrl, `alice/${repo}.git`, "alice", "alice-pass-1"), dir];
  await gitOk(args);
  return dir;
}

const head = async (dir: string, rev = "HEAD") => (await gitOk(["rev-parse", rev], { cwd: dir })).trim();

describe("reading contents", async () => {
  const repo = await makeRepo("reader", { auto_init: true, license: "MIT" });

  test("the root lists entries in git's order, without content, with Gitea's links", async () => {
    const r = await t.json("GET", api("reader", "/contents"));
    expect(r.status).toBe(200);
    expect(r.body.map((e: { name: string }) => e.name)).toEqual(["LICENSE", "README.md"]);
    for (const e of r.body) expectShape(e, ContentsResponse);
    const readme = r.body[1];
    const branchHead = getBranch(t.env.db, repo.id, "main")!.commitId;
    expect(readme).toMatchObject({
      path: "README.md",
      type: "file",
      content: null,
      encoding: null,
      target: null,
      submodule_git_url: null,
      last_commit_sha: branchHead,
      url: `${t.baseUrl}api/v1/repos/alice/reader/contents/README.md?ref=main`,
      html_url: `${t.baseUrl}alice/reader/src/branch/main/README.md`,
      download_url: `${t.baseUrl}alice/reader/raw/branch/main/README.md`,
      git_url: `${t.baseUrl}api/v1/repos/alice/reader/git/blobs/${readme.sha}`,
    });
    expect(readme._links).toEqual({ self: readme.url, git: readme.git_url, html: readme.html_url });
    expect(readme.last_committer_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/);
  });

  test("a file comes with its base64 content; ref may be a branch, a tag or a full commit id", async () => {
    const r = await t.json("GET", api("reader", "/contents/README.md"));
    expect(r.status).toBe(200);
    expectShape(r.body, ContentsResponse);
    expect(r.body.encoding).toBe("base64");
    expect(unb64(r.body.content)).toContain("# reader");
    expect(r.body.size).toBe(Buffer.from(unb64(r.body.content)).length);

    const sha = getBranch(t.env.db, repo.id, "main")!.commitId;
    const bySha = await t.json("GET", api("reader", `/contents/README.md?ref=${sha}`));
    expect(bySha.status).toBe(200);
    expect(bySha.body.html_url).toBe(`${t.baseUrl}alice/reader/src/commit/${sha}/README.md`);
    expect(bySha.body.url).toBe(`${t.baseUrl}api/v1/repos/alice/reader/contents/README.md?ref=${sha}`);

    // Unknown refs, short commit ids and unknown paths: 404, never 500.
    for (const path of ["/contents/README.md?ref=nope", `/contents/README.md?ref=${sha.slice(0, 10)}`, "/contents/missing.txt", "/contents?ref=..%2Fetc", "/contents/a%2F..%2FREADME.md", "/contents/.git%2Fconfig"]) {
      const bad = await t.json("GET", api("reader", path));
      expect({ path, status: bad.status }).toEqual({ path, status: 404 });
    }
    const missing = await t.json("GET", api("reader", "/contents/missing.txt"));
    expect(missing.body.message).toBe("GetContentsOrList");
  });

  test("symlinks carry their target, submodules their URL and no links, tags resolve", async () => {
    const dir = await clone("reader");
    await Bun.write(join(dir, ".gitmodules"), '[submodule "lib"]\n\tpath = vendor/lib\n\turl = https://example.com/lib.git\n');
    await gitOk(["update-index", "--add", "--cacheinfo", `160000,${await head(dir)},vendor/lib`], { cwd: dir });
    await gitOk(["add", ".gitmodules"], { cwd: dir });
    symlinkSync("README.md", join(dir, "link.md"));
    await gitOk(["add", "link.md"], { cwd: dir });
    await gitOk(["commit", "-q", "-m", "links"], { cwd: dir });
    await gitOk(["tag", "v1"], { cwd: dir });
    await gitOk(["push", "-q", "origin", "main", "v1"], { cwd: dir });

    const link = await t.json("GET", api("reader", "/contents/link.md?ref=v1"));
    expect(link.status).toBe(200);
    expectShape(link.body, ContentsResponse);
    expect(link.body).toMatchObject({ type: "symlink", target: "README.md", content: null });
    expect(link.body.html_url).toBe(`${t.baseUrl}alice/reader/src/tag/v1/link.md`);

    const sub = await t.json("GET", api("reader", "/contents/vendor/lib"));
    expect(sub.status).toBe(200);
    expect(sub.body).toMatchObject({
      type: "submodule",
      submodule_git_url: "https://example.com/lib.git",
      html_url: null,
      git_url: null,
      download_url: null,
      _links: { git: null, html: null },
    });
    const vendor = await t.json("GET", api("reader", "/contents/vendor"));
    expect(vendor.body.map((e: { type: string }) => e.type)).toEqual(["submodule"]);
  });

  test("an empty repository has no contents to list (404, as the default branch does not resolve)", async () => {
    await makeRepo("nothing", {});
    expect((await t.json("GET", api("nothing", "/contents"))).status).toBe(404);
  });
});

describe("changing files", async () => {
  const repo = await makeRepo("writer");
  const headOf = (branch = "main") => getBranch(t.env.db, repo.id, branch)?.commitId;

  test("create: 201 FileResponse, default message, the branch row follows, git sees the commit", async () => {
    const before = headOf();
    const r = await t.json("POST", api("writer", "/contents/docs/new file.txt"), { token: aliceToken, body: { content: b64("hello\n") } });
    expect(r.status).toBe(201);
    expectShape(r.body, FileResponse);
    expectShape(r.body.content, ContentsResponse);
    expect(r.body.content).toMatchObject({ name: "new file.txt", path: "docs/new file.txt", type: "file", encoding: "base64", size: 6 });
    expect(unb64(r.body.content.content)).toBe("hello\n");
    expect(r.body.content.url).toBe(`${t.baseUrl}api/v1/repos/alice/writer/contents/docs/new%20file.txt?ref=main`);
    const c = r.body.commit;
    expect(c.message).toBe("Add docs/new file.txt\n");
    expect(c.author).toMatchObject({ name: "alice", email: "alice@example.com" });
    expect(c.author.date).toMatch(/Z$/);
    expect(c.parents).toEqual([{ url: `${t.baseUrl}api/v1/repos/alice/writer/git/commits/${before}`, sha: before, created: "0001-01-01T00:00:00Z" }]);
    expect(c.created).toBe("0001-01-01T00:00:00Z");
    expect(c.html_url).toBe(`${t.baseUrl}alice/writer/commit/${c.sha}`);
    expect(r.body.content.last_commit_sha).toBe(c.sha);
    expect(r.body.verification).toEqual({ verified: false, reason: "gpg.error.not_signed_commit", signature: "", signer: null, payload: "" });
    expect(headOf()).toBe(c.sha);

    const dir = await clone("writer");
    expect(await head(dir)).toBe(c.sha);
    expect(await head(dir, "HEAD^{tree}")).toBe(c.tree.sha);
    expect(await readFile(join(dir, "docs/new file.txt"), "utf8")).toBe("hello\n");

    const again = await t.json("POST", api("writer", "/contents/docs/new file.txt"), { token: aliceToken, body: { content: b64("x") } });
    expect(again.status).toBe(422);
    expect(again.body.message).toBe("repository file already exists [path: docs/new file.txt]");
  });

  test("author, committer, dates and signoff are honoured", async () => {
    const r = await t.json("POST", api("writer", "/contents/signed.txt"), {
      token: aliceToken,
      body: {
        content: b64("s"),
        message: "  Custom message  ",
        author: { name: "Anne Doe", email: "anne@example.com" },
        committer: { name: "John Doe", email: "john@example.com" },
        dates: { author: "2000-01-01T00:00:10Z", committer: "2000-12-31T23:59:50+02:00" },
        signoff: true,
      },
    });
    expect(r.status).toBe(201);
    expect(r.body.commit.author).toEqual({ name: "Anne Doe", email: "anne@example.com", date: "2000-01-01T00:00:10Z" });
    expect(r.body.commit.committer).toEqual({ name: "John Doe", email: "john@example.com", date: "2000-12-31T21:59:50Z" });
    expect(r.body.commit.message).toBe("Custom message\n\nSigned-off-by: John Doe <john@example.com>\n");
    // One identity given is used for both.
    const one = await t.json("POST", api("writer", "/contents/one.txt"), { token: aliceToken, body: { content: b64("1"), author: { name: "Only", email: "only@example.com" } } });
    expect(one.body.commit.committer).toMatchObject({ name: "Only", email: "only@example.com" });
  });

  test("update: sha checked, 200; rename keeps the executable bit; PUT without sha creates (201)", async () => {
    const dir0 = await clone("writer");
    await Bun.write(join(dir0, "run.sh"), "#!/bin/sh\necho hi\n");
    await gitOk(["add", "--chmod=+x", "run.sh"], { cwd: dir0 });
    await gitOk(["commit", "-q", "-m", "script"], { cwd: dir0 });
    await gitOk(["push", "-q", "origin", "main"], { cwd: dir0 });

    const got = await t.json("GET", api("writer", "/contents/run.sh"));
    const wrong = await t.json("PUT", api("writer", "/contents/run.sh"), { token: aliceToken, body: { content: b64("x"), sha: "0".repeat(40) } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.message).toBe(`sha does not match [given: ${"0".repeat(40)}, expected: ${got.body.sha}]`);

    const upd = await t.json("PUT", api("writer", "/contents/run.sh"), { token: aliceToken, body: { content: b64("#!/bin/sh\necho bye\n"), sha: got.body.sha } });
    expect(upd.status).toBe(200);
    expectShape(upd.body, FileResponse);
    expect(upd.body.commit.message).toBe("Update run.sh\n");

    const moved = await t.json("PUT", api("writer", "/contents/bin/run.sh"), {
      token: aliceToken,
      body: { content: b64("#!/bin/sh\necho moved\n"), sha: upd.body.content.sha, from_path: "run.sh" },
    });
    expect(moved.status).toBe(200);
    const dir = await clone("writer");
    expect(await gitOk(["ls-files", "-s", "bin/run.sh", "run.sh"], { cwd: dir })).toMatch(/^100755 [0-9a-f]{40} 0\tbin\/run\.sh\n$/);

    const created = await t.json("PUT", api("writer", "/contents/put-new.txt"), { token: aliceToken, body: { content: b64("new") } });
    expect(created.status).toBe(201);
    expect(created.body.commit.message).toBe("Add put-new.txt\n");
    const exists = await t.json("PUT", api("writer", "/contents/put-new.txt"), { token: aliceToken, body: { content: b64("again") } });
    expect(exists.status).toBe(422);
    expect(exists.body.message).toBe("repository file already exists [path: put-new.txt]");
    const gone = await t.json("PUT", api("writer", "/contents/nothing.txt"), { token: aliceToken, body: { content: b64("x"), sha: got.body.sha } });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe("object does not exist [id: , rel_path: nothing.txt]");
  });

  test("delete: 200 FileDeleteResponse with null content; sha required and checked", async () => {
    const f = await t.json("GET", api("writer", "/contents/one.txt"));
    const noSha = await t.json("DELETE", api("writer", "/contents/one.txt"), { token: aliceToken, body: {} });
    expect(noSha.status).toBe(422);
    expect(noSha.body.message).toBe("[SHA]: Required");
    const bad = await t.json("DELETE", api("writer", "/contents/one.txt"), { token: aliceToken, body: { sha: "abc" } });
    expect(bad.status).toBe(422);
    const missing = await t.json("DELETE", api("writer", "/contents/zzz.txt"), { token: aliceToken, body: { sha: f.body.sha } });
    expect(missing.status).toBe(404);
    const r = await t.json("DELETE", api("writer", "/contents/one.txt"), { token: aliceToken, body: { sha: f.body.sha } });
    expect(r.status).toBe(200);
    expectShape(r.body, FileDeleteResponse);
    expect(r.body.content).toBeNull();
    expect(r.body.commit.message).toBe("Delete one.txt\n");
    expect((await t.json("GET", api("writer", "/contents/one.txt"))).status).toBe(404);
  });

  test("several files in one commit, in request order, deletions as null", async () => {
    const sig = await t.json("GET", api("writer", "/contents/signed.txt"));
    const before = headOf();
    const r = await t.json("POST", api("writer", "/contents"), {
      token: aliceToken,
      body: {
        files: [
          { operation: "create", path: "multi/a.txt", content: b64("a") },
          { operation: "upload", path: "multi/b.txt", content: b64("b") },
          { operation: "delete", path: "signed.txt", sha: sig.body.sha },
          { operation: "rename", path: "multi/readme.md", from_path: "README.md" },
        ],
      },
    });
    expect(r.status).toBe(201);
    expectShape(r.body, FilesResponse);
    expect(r.body.files.map((f: { path: string } | null) => f?.path ?? null)).toEqual(["multi/a.txt", "multi/b.txt", null, "multi/readme.md"]);
    expect(r.body.commit.message).toBe("Add multi/a.txt\nUpdate multi/b.txt, multi/readme.md\nDelete signed.txt\n");
    expect(r.body.commit.parents.map((p: { sha: string }) => p.sha)).toEqual([before]);
    expect(unb64(r.body.files[3].content)).toContain("# writer");
    const dir = await clone("writer");
    const files = (await gitOk(["ls-files"], { cwd: dir })).split("\n");
    expect(files).toContain("multi/readme.md");
    expect(files).not.toContain("README.md");
    expect(files).not.toContain("signed.txt");
    expect(await gitOk(["rev-list", "--count", `${before}..HEAD`], { cwd: dir })).toBe("1\n");
  });

  test("new_branch: branch made from the base; an existing one needs force_push", async () => {
    const base = headOf();
    const r = await t.json("POST", api("writer", "/contents/feature.txt"), { token: aliceToken, body: { content: b64("f"), new_branch: "feature/one" } });
    expect(r.status).toBe(201);
    expect(r.body.content.url).toBe(`${t.baseUrl}api/v1/repos/alice/writer/contents/feature.txt?ref=feature%2Fone`);
    expect(r.body.content.html_url).toBe(`${t.baseUrl}alice/writer/src/branch/feature/one/feature.txt`);
    expect(r.body.commit.parents[0].sha).toBe(base);
    expect(headOf("feature/one")).toBe(r.body.commit.sha);
    expect(headOf()).toBe(base);

    const exists = await t.json("POST", api("writer", "/contents/feature2.txt"), { token: aliceToken, body: { content: b64("f"), new_branch: "feature/one" } });
    expect(exists.status).toBe(422);
    expect(exists.body.message).toBe("branch already exists [name: feature/one]");
    const forced = await t.json("POST", api("writer", "/contents/feature2.txt"), {
      token: aliceToken,
      body: { content: b64("f"), new_branch: "feature/one", force_push: true },
    });
    expect(forced.status).toBe(201);
    expect(forced.body.commit.parents[0].sha).toBe(base);

    const onBranch = await t.json("POST", api("writer", "/contents/on-branch.txt"), { token: aliceToken, body: { content: b64("x"), branch: "feature/one" } });
    expect(onBranch.status).toBe(201);
    expect(onBranch.body.commit.parents[0].sha).toBe(forced.body.commit.sha);
    const dir = await clone("writer", "feature/one");
    expect(await head(dir)).toBe(onBranch.body.commit.sha);

    const noBranch = await t.json("POST", api("writer", "/contents/x.txt"), { token: aliceToken, body: { content: b64("x"), branch: "nope" } });
    expect(noBranch.status).toBe(404);
    expect(noBranch.body.message).toBe(`branch does not exist [repo_id: ${repo.id} name: nope]`);
  });

  test("bad input is a clear 4xx, never a 500", async () => {
    const post = (path: string, body: unknown) => t.json("POST", api("writer", path), { token: aliceToken, body });
    const many = (files: unknown[]) => post("/contents", { files });
    const cases: [Promise<{ status: number; body: any }>, number, string | RegExp][] = [
      [post("/contents/x.txt", {}), 422, "[ContentBase64]: Required"],
      [post("/contents/x.txt", { content: "not base64!" }), 422, "illegal base64 data at input byte 3"],
      [post("/contents/x.txt", { content: "YWJj=" }), 422, /^illegal base64 data at input byte/],
      [post("/contents/x.txt", { content: b64("x"), branch: "bad..name" }), 422, "[BranchName]: GitRefName"],
      [post("/contents/x.txt", { content: b64("x"), new_branch: "-x" }), 422, "[NewBranchName]: GitRefName"],
      [post("/contents/x.txt", { content: b64("x"), new_branch: "b".repeat(101) }), 422, "[NewBranchName]: MaxSize"],
      [post("/contents/x.txt", { content: b64("x"), dates: { author: "yesterday" } }), 422, /^\[\]: parsing time/],
      [post("/contents/a%2F..%2Fx.txt", { content: b64("x") }), 422, "path contains a malformed path component [path: a/../x.txt]"],
      [post("/contents/.git%2Fhooks%2Fpost-update", { content: b64("x") }), 422, /malformed path component/],
      [post("/contents/.GIT", { content: b64("x") }), 422, /malformed path component/],
      [post("/contents/a%00b", { content: b64("x") }), 422, /malformed path component/],
      [post(`/contents/${"d/".repeat(2100)}f`, { content: b64("x") }), 422, /malformed path component/],
      [post(`/contents/${"n".repeat(300)}`, { content: b64("x") }), 422, /malformed path component/],
      [post("/contents/", { content: b64("x") }), 422, /./],
      [post("/contents/docs/new file.txt/child", { content: b64("x") }), 422, "a file exists where you’re trying to create a subdirectory [path: docs/new file.txt]"],
      [post("/contents/docs", { content: b64("x") }), 422, "a directory exists where you’re trying to create a file [path: docs]"],
      [many([]), 422, "[Files]: Required"],
      [many([{ operation: "chmod", path: "x" }]), 422, "[Files.0.Operation]: In"],
      [many([{ operation: "create", path: "../etc/passwd", content: "" }]), 422, /malformed path component/],
      [many([{ operation: "create", path: "/abs", content: "" }]), 422, /malformed path component/],
      [many([{ operation: "create", path: "a//b", content: "" }]), 422, /malformed path component/],
      [many([{ operation: "create", path: "dup", content: "" }, { operation: "create", path: "dup", content: "" }]), 422, "repository file already exists [path: dup]"],
      [many([{ operation: "create", path: "p", content: "" }, { operation: "create", path: "p/q", content: "" }]), 422, /a file exists where you’re trying to create a subdirectory \[path: p\]/],
      [many([{ operation: "delete", path: "docs" }]), 422, "path is invalid [path: docs]"],
      [post("/contents/big.txt", "x".repeat(33 * 1024 * 1024)), 413, /too large/],
    ];
    for (const [pending, status, message] of cases) {
      const r = await pending;
      const expected = typeof message === "string" ? message : (expect.stringMatching(message) as unknown as string);
      expect({ status: r.status, message: r.body?.message }).toEqual({ status, message: expected });
    }
  });

  test("permissions: anonymous 401, reader 403, private 404, archived 423 (in Gitea's order)", async () => {
    const body = { content: b64("x") };
    expect((await t.json("POST", api("writer", "/contents/p.txt"), { body })).status).toBe(401);
    const reader = await t.json("POST", api("writer", "/contents/p.txt"), { token: bobToken, body });
    expect(reader.status).toBe(403);
    expect(reader.body.message).toBe("user should have a permission to write to a repo");
    await makeRepo("secret", { auto_init: true, private: true });
    expect((await t.json("POST", api("secret", "/contents/p.txt"), { token: bobToken, body })).status).toBe(404);
    expect((await t.json("GET", api("secret", "/contents"), { token: bobToken })).status).toBe(404);
    expect((await t.json("GET", api("secret", "/contents"), { token: aliceToken })).status).toBe(200);

    await makeRepo("frozen");
    expect((await t.json("PATCH", api("frozen"), { token: aliceToken, body: { archived: true } })).status).toBe(200);
    for (const token of [aliceToken, bobToken, undefined]) {
      const r = await t.json("POST", api("frozen", "/contents/p.txt"), { token, body });
      expect(r.status).toBe(423);
      expect(r.body.message).toBe("repo is not allowed to edit");
    }
    expect((await t.json("GET", api("frozen", "/contents/README.md"))).status).toBe(200);
  });

  test("concurrent changes to one branch all land (compare-and-swap, re-checked and retried)", async () => {
    const before = headOf()!;
    const results = await Promise.all(
      [1, 2, 3, 4].map((i) => t.json("POST", api("writer", `/contents/race/${i}.txt`), { token: aliceToken, body: { content: b64(String(i)) } })),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const dir = await clone("writer");
    expect(await gitOk(["rev-list", "--count", `${before}..HEAD`], { cwd: dir })).toBe("4\n");
    expect((await gitOk(["ls-files", "race"], { cwd: dir })).trim().split("\n")).toEqual(["race/1.txt", "race/2.txt", "race/3.txt", "race/4.txt"]);
    expect(headOf()).toBe(await head(dir));
  });
});

describe("the first commit into an empty repository", () => {
  test("creates the branch, makes the repository non-empty, and git clones it", async () => {
    const repo = await makeRepo("blank", {});
    const r = await t.json("POST", api("blank", "/contents/first.txt"), { token: aliceToken, body: { content: b64("first\n") } });
    expect(r.status).toBe(201);
    expect(r.body.commit.parents).toEqual([]);
    const row = getRepoById(t.env.db, repo.id)!;
    expect(row.isEmpty).toBe(false);
    expect(getBranch(t.env.db, repo.id, "main")?.commitId).toBe(r.body.commit.sha);
    expect((await t.json("GET", api("blank"))).body.empty).toBe(false);
    const dir = await clone("blank");
    expect(await readFile(join(dir, "first.txt"), "utf8")).toBe("first\n");
  });

  test("into another branch name: it becomes the default branch", async () => {
    const repo = await makeRepo("blank2", {});
    const r = await t.json("POST", api("blank2", "/contents/x.txt"), { token: aliceToken, body: { content: b64("x"), branch: "trunk" } });
    expect(r.status).toBe(201);
    expect(getRepoById(t.env.db, repo.id)!.defaultBranch).toBe("trunk");
    const dir = await clone("blank2");
    expect((await gitOk(["branch", "--show-current"], { cwd: dir })).trim()).toBe("trunk");
  });

  test("a SHA-256 repository: first commit, update and delete", async () => {
    await makeRepo("sha256", { object_format_name: "sha256" });
    const made = await t.json("POST", api("sha256", "/contents/a.txt"), { token: aliceToken, body: { content: b64("a") } });
    expect(made.status).toBe(201);
    expect(made.body.commit.sha).toMatch(/^[0-9a-f]{64}$/);
    const upd = await t.json("PUT", api("sha256", "/contents/a.txt"), { token: aliceToken, body: { content: b64("b"), sha: made.body.content.sha } });
    expect(upd.status).toBe(200);
    const del = await t.json("DELETE", api("sha256", "/contents/a.txt"), { token: aliceToken, body: { sha: upd.body.content.sha } });
    expect(del.status).toBe(200);
    const dir = await clone("sha256");
    expect(await gitOk(["log", "--format=%s"], { cwd: dir })).toBe("Delete a.txt\nUpdate a.txt\nAdd a.txt\n");
  });

  test("a pushed repository is edited on top of what was pushed", async () => {
    await makeRepo("pushed", {});
    const local = await localRepo("main");
    await gitOk(["push", "-q", authUrl(t.baseUrl, "alice/pushed.git", "alice", "alice-pass-1"), "main"], { cwd: local });
    const r = await t.json("POST", api("pushed", "/contents/second.txt"), { token: aliceToken, body: { content: b64("2") } });
    expect(r.status).toBe(201);
    expect(r.body.commit.parents[0].sha).toBe(await head(local));
  });
});
