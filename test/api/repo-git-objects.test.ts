import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { authUrl, gitOk } from "../support/git.ts";
import { expectShape } from "../support/shape.ts";
import { GitBlobResponse, GitTreeResponse } from "../../src/shapes/commit.ts";
import { languageOf, languageStats } from "../../src/git/languages.ts";
import { catFile } from "../../src/git/catfile.ts";
import { gitDirOf } from "../../src/services/repo/lookup.ts";

// Small limits, so paging and the large-blob rule show with small data.
const t = makeTestApp("[api]\nDEFAULT_GIT_TREES_PER_PAGE = 4\nDEFAULT_MAX_BLOB_SIZE = 2000\n", { listen: true });
const alice = await t.user("alice", { password: "alice-pass" });
const bob = await t.user("bob");
const aliceToken = t.token(alice);
const bobToken = t.token(bob);
const api = (repo: string, rest = "") => `/api/v1/repos/alice/${repo}${rest}`;

async function createRepo(name: string, body: Record<string, unknown>) {
  const r = await t.json("POST", "/api/v1/user/repos", { token: aliceToken, body: { name, ...body } });
  expect(r.status).toBe(201);
}
await createRepo("objs", { auto_init: true });
await createRepo("empty", {});
await createRepo("secret", { auto_init: true, private: true });

const LFS_OID = "4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393";
const EDITORCONFIG = `# top comment
root = true

[*]
charset = UTF-8
end_of_line = LF
indent_style = space
indent_size = 2

[*.go]
indent_style = Tab ; inline comment
indent_size = tab

[Makefile]
indent_style = tab

[{package.json,*.yml}]
indent_size = 4

[docs/**.md]
indent_size = 8

[/root-only.txt]
charset = latin1

[lib/**/*.rs]
end_of_line = crlf

[file{1..3}.txt]
indent_size = 5
`;

const work = join(mkdtempSync(join(tmpdir(), "hearth-objs-")), "w");
const g = (args: string[]) => gitOk(args, { cwd: work });
await gitOk(["clone", "-q", authUrl(t.baseUrl, "alice/objs.git", "alice", "alice-pass"), work]);
const files: Record<string, string> = {
  ".editorconfig": EDITORCONFIG,
  "main.go": "package main\n\nfunc main() {}\n",
  "web/app.ts": "export const x = 1;\n",
  "web/style.scss": "a { b: c }\n",
  "vendor/lib.go": "package lib\n".repeat(50),
  "docs/guide.md": "# Guide\n",
  "README.md": "# readme\n",
  "config.yml": "a: 1\n",
  "big.bin": "x".repeat(3000),
  "pointer.bin": `version https://git-lfs.github.com/spec/v1\noid sha256:${LFS_OID}\nsize 12345\n`,
  "dir with space/é.txt": "unicode\n",
};
for (const [path, content] of Object.entries(files)) await Bun.write(join(work, path), content);
await g(["add", "."]);
await g(["update-index", "--add", "--cacheinfo", `160000,${"1".repeat(40)},sub`]);
await g(["commit", "-q", "-m", "objects"]);
const head = (await g(["rev-parse", "HEAD"])).trim();
const rootTree = (await g(["rev-parse", "HEAD^{tree}"])).trim();
const webTree = (await g(["rev-parse", "HEAD:web"])).trim();
const goBlob = (await g(["rev-parse", "HEAD:main.go"])).trim();
await g(["checkout", "-q", "-b", "other"]);
await Bun.write(join(work, ".editorconfig"), "[*]\nindent_size = 3\n");
await g(["commit", "-q", "-am", "other editorconfig"]);
await g(["tag", "t-other"]);
await g(["push", "-q", "origin", "main", "other", "t-other"]);
const lsTree = async (recursive: boolean) =>
  (await g(["ls-tree", "-z", ...(recursive ? ["-r", "-t"] : []), head])).split("\0").filter(Boolean).map((l) => l.split("\t")[1]);

describe("GET /git/trees/{sha}", () => {
  test("a commit, branch or tree id lists the tree in git's order, paged by the configured default", async () => {
    const names = await lsTree(false);
    for (const sha of [head, "main", rootTree]) {
      const r = await t.json("GET", api("objs", `/git/trees/${sha}`), { token: aliceToken });
      expect(r.status).toBe(200);
      expectShape(r.body, GitTreeResponse);
      expect(r.body).toMatchObject({ sha: rootTree, url: `${t.baseUrl}api/v1/repos/alice/objs/git/trees/${rootTree}`, page: 1 });
      expect(r.body.total_count).toBe(names.length);
      expect(r.body.tree.map((e: any) => e.path)).toEqual(names.slice(0, 4));
      expect(r.body.truncated).toBe(true);
    }
  });

  test("entries carry mode, type, size and the right URL", async () => {
    // per_page above the configured maximum (4 here) falls back to it.
    const r = await t.json("GET", api("objs", `/git/trees/${head}?per_page=100`), { token: aliceToken });
    expect(r.body.tree.length).toBe(4);
    const entries: any[] = [];
    for (let page = 1; page <= Math.ceil(r.body.total_count / 4); page++) {
      entries.push(...(await t.json("GET", api("objs", `/git/trees/${head}?page=${page}`), { token: aliceToken })).body.tree);
    }
    const byPath = Object.fromEntries(entries.map((e: any) => [e.path, e]));
    expect(byPath["main.go"]).toEqual({
      path: "main.go",
      mode: "100644",
      type: "blob",
      size: files["main.go"]!.length,
      sha: goBlob,
      url: `${t.baseUrl}api/v1/repos/alice/objs/git/blobs/${goBlob}`,
    });
    expect(byPath.web).toEqual({ path: "web", mode: "040000", type: "tree", size: 0, sha: webTree, url: `${t.baseUrl}api/v1/repos/alice/objs/git/trees/${webTree}` });
    expect(byPath.sub).toMatchObject({ mode: "160000", type: "commit", size: 0, url: "" });
  });

  test("recursive lists sub-trees and their entries with paths; pages past the end are null", async () => {
    const all = await lsTree(true);
    const r = await t.json("GET", api("objs", `/git/trees/main?recursive=1&per_page=3&page=2`), { token: aliceToken });
    expect(r.body.total_count).toBe(all.length);
    expect(r.body.tree.map((e: any) => e.path)).toEqual(all.slice(3, 6));
    expect(all).toContain("web/app.ts");
    expect(all).toContain("dir with space/é.txt");
    const lastPage = Math.ceil(all.length / 3);
    const last = await t.json("GET", api("objs", `/git/trees/main?recursive=true&per_page=3&page=${lastPage}`), { token: aliceToken });
    expect(last.body.truncated).toBe(false);
    const past = await t.json("GET", api("objs", `/git/trees/main?recursive=true&per_page=3&page=${lastPage + 1}`), { token: aliceToken });
    expect(past.body).toMatchObject({ tree: null, truncated: false, page: lastPage + 1, total_count: all.length });
    const sub = await t.json("GET", api("objs", `/git/trees/${webTree}`), { token: aliceToken });
    expect(sub.body.tree.map((e: any) => e.path)).toEqual(["app.ts", "style.scss"]);
  });

  test("unknown or hostile shas are 400 `sha not found`", async () => {
    for (const s of ["nope", "0".repeat(40), goBlob, "--all", "main%0Aother", "x".repeat(3000)]) {
      const r = await t.json("GET", api("objs", `/git/trees/${s}`), { token: aliceToken });
      expect({ s, status: r.status }).toEqual({ s, status: 400 });
    }
    const r = await t.json("GET", api("objs", "/git/trees/nope"), { token: aliceToken });
    expect(r.body.message).toBe("sha not found [nope]");
    expect((await t.json("GET", api("empty", "/git/trees/main"), { token: aliceToken })).status).toBe(400);
    expect((await t.json("GET", api("secret", `/git/trees/main`), { token: bobToken })).status).toBe(404);
  });
});

describe("GET /git/blobs/{sha}", () => {
  test("base64 content with size and url", async () => {
    const r = await t.json("GET", api("objs", `/git/blobs/${goBlob}`), { token: bobToken });
    expect(r.status).toBe(200);
    expectShape(r.body, GitBlobResponse);
    expect(r.body).toEqual({
      content: Buffer.from(files["main.go"]!).toString("base64"),
      encoding: "base64",
      url: `${t.baseUrl}api/v1/repos/alice/objs/git/blobs/${goBlob}`,
      sha: goBlob,
      size: files["main.go"]!.length,
    });
    // Go's hex decoding takes upper case too.
    const upper = await t.json("GET", api("objs", `/git/blobs/${goBlob.toUpperCase()}`), { token: bobToken });
    expect(upper.body.sha).toBe(goBlob);
  });

  test("a blob above DEFAULT_MAX_BLOB_SIZE comes without content; an LFS pointer names its object", async () => {
    const bigSha = (await g(["rev-parse", `${head}:big.bin`])).trim();
    const big = await t.json("GET", api("objs", `/git/blobs/${bigSha}`), { token: aliceToken });
    expect(big.body).toMatchObject({ content: null, encoding: null, size: 3000, sha: bigSha });
    const ptrSha = (await g(["rev-parse", `${head}:pointer.bin`])).trim();
    const ptr = await t.json("GET", api("objs", `/git/blobs/${ptrSha}`), { token: aliceToken });
    expect(ptr.body).toMatchObject({ encoding: "base64", lfs_oid: LFS_OID, lfs_size: 12345 });
    expectShape(ptr.body, GitBlobResponse);
  });

  test("Gitea's 400s for bad and unknown ids", async () => {
    const short = await t.json("GET", api("objs", "/git/blobs/abc123"), { token: aliceToken });
    expect([short.status, short.body.message]).toEqual([400, "length 6 has no matched object format: abc123"]);
    const hex = await t.json("GET", api("objs", `/git/blobs/${"g".repeat(40)}`), { token: aliceToken });
    expect([hex.status, hex.body.message]).toEqual([400, "encoding/hex: invalid byte: U+0067 'g'"]);
    const unknown = await t.json("GET", api("objs", `/git/blobs/${"1".repeat(40)}`), { token: aliceToken });
    expect([unknown.status, unknown.body.message]).toEqual([400, `object does not exist [id: ${"1".repeat(40)}, rel_path: ]`]);
    const zero = await t.json("GET", api("objs", `/git/blobs/${"0".repeat(40)}`), { token: aliceToken });
    expect(zero.status).toBe(400);
    const main = await t.json("GET", api("objs", "/git/blobs/main"), { token: aliceToken });
    expect(main.status).toBe(400);
  });
});

describe("GET /languages", () => {
  test("bytes per language over the default branch, without vendored, docs, dotfiles or data", async () => {
    const r = await t.json("GET", api("objs", "/languages"), { token: aliceToken });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      Go: files["main.go"]!.length,
      TypeScript: files["web/app.ts"]!.length,
      CSS: files["web/style.scss"]!.length,
    });
    expect((await t.json("GET", api("empty", "/languages"), { token: aliceToken })).body).toEqual({});
    expect((await t.json("GET", api("secret", "/languages"))).status).toBe(404);
  });

  test("the detection table", () => {
    expect(languageOf("a/b/c.tsx")).toBe("TypeScript");
    expect(languageOf("Makefile")).toBe("Makefile");
    expect(languageOf("node_modules/x/index.js")).toBeUndefined();
    expect(languageOf("app.min.js")).toBeUndefined();
    expect(languageOf(".github/workflows/x.py")).toBeUndefined();
    expect(languageOf("Documentation/x.c")).toBeUndefined();
    expect(languageOf("api.pb.go")).toBeUndefined();
    expect(languageOf("notes.txt")).toBeUndefined();
    expect(languageOf("LICENSE")).toBeUndefined();
    expect(languageStats([{ path: "a.py", size: 10 }, { path: "b.c", size: 30 }, { path: "c.py", size: 25 }, { path: "e.py", size: 0 }])).toEqual([
      ["Python", 35],
      ["C", 30],
    ]);
  });
});

describe("GET /editorconfig/{filepath}", () => {
  const ec = (file: string, q = "") => t.json("GET", api("objs", `/editorconfig/${encodeURIComponent(file)}${q}`), { token: aliceToken });

  test("the merged definition of the sections matching a file", async () => {
    const go = await ec("main.go");
    expect(go.status).toBe(200);
    expect(go.body).toEqual({ charset: "utf-8", indent_style: "tab", indent_size: "tab", end_of_line: "lf" });
    expect((await ec("web/app.ts")).body).toEqual({ charset: "utf-8", indent_style: "space", indent_size: "2", end_of_line: "lf" });
    expect((await ec("sub/package.json")).body.indent_size).toBe("4");
    expect((await ec("ci.yml")).body.indent_size).toBe("4");
    expect((await ec("docs/a/b.md")).body.indent_size).toBe("8");
    expect((await ec("root-only.txt")).body.charset).toBe("latin1");
    expect((await ec("sub/root-only.txt")).body.charset).toBe("utf-8");
    expect((await ec("lib/x.rs")).body.end_of_line).toBe("crlf");
    expect((await ec("lib/a/b/x.rs")).body.end_of_line).toBe("crlf");
    expect((await ec("file2.txt")).body.indent_size).toBe("5");
    expect((await ec("file4.txt")).body.indent_size).toBe("2");
  });

  test("?ref= picks a branch, tag or commit; an unknown ref falls back to the default branch", async () => {
    expect((await ec("x.c", "?ref=other")).body).toEqual({ indent_size: "3" });
    expect((await ec("x.c", "?ref=t-other")).body).toEqual({ indent_size: "3" });
    expect((await ec("x.c", `?ref=${head}`)).body.indent_size).toBe("2");
    expect((await ec("x.c", "?ref=no-such-branch")).body.indent_size).toBe("2");
    expect((await ec("x.c", `?ref=${"1".repeat(40)}`)).status).toBe(404);
    expect((await ec("x.c", "?ref=%0A")).body.indent_size).toBe("2");
  });

  test("no .editorconfig is 404", async () => {
    await createRepo("plain", { auto_init: true });
    const r = await t.json("GET", api("plain", "/editorconfig/a.go"), { token: aliceToken });
    expect(r.status).toBe(404);
    expect((await t.json("GET", api("empty", "/editorconfig/a.go"), { token: aliceToken })).status).toBe(404);
  });

});

describe("helpers", () => {
  test("one cat-file process per repository serves many reads and refuses multi-line names", async () => {
    const cf = catFile(gitDirOf(t.env, { name: "alice" }, { name: "objs" }));
    const infos = await Promise.all([head, goBlob, "main", "nope", `${head}:web/app.ts`].map((n) => cf.info(n)));
    expect(infos.map((i) => i?.type)).toEqual(["commit", "blob", "commit", undefined, "blob"]);
    const obj = await cf.read(goBlob);
    expect(obj!.content.toString()).toBe(files["main.go"]!);
    expect(catFile(gitDirOf(t.env, { name: "alice" }, { name: "objs" }))).toBe(cf);
  });

  test("a repository deleted and created again under the same name is never read from the old process", async () => {
    await createRepo("again", { auto_init: true, description: "first" });
    const first = await t.json("GET", api("again", "/git/trees/main"), { token: aliceToken });
    expect(first.status).toBe(200);
    expect((await t.json("DELETE", api("again"), { token: aliceToken })).status).toBe(204);
    await createRepo("again", { auto_init: true, readme: "Default", license: "MIT" });
    const second = await t.json("GET", api("again", "/git/trees/main"), { token: aliceToken });
    expect(second.status).toBe(200);
    expect(second.body.sha).not.toBe(first.body.sha);
    const main = (await gitOk(["--git-dir", gitDirOf(t.env, { name: "alice" }, { name: "again" }), "rev-parse", "main^{tree}"])).trim();
    expect(second.body.sha).toBe(main);
  });
});
