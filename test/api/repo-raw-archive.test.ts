import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { authUrl, gitClient, gitOk } from "../support/git.ts";
import { getBranch } from "../../src/models/branch.ts";

const t = makeTestApp("", { listen: true });
const alice = await t.user("alice", { password: "alice-pass-1" });
const aliceToken = t.token(alice);
const bob = await t.user("bob");
const bobToken = t.token(bob);

const b64 = (s: string | Uint8Array) => Buffer.from(s).toString("base64");
const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
const BIG = Buffer.alloc(3 * 1024 * 1024 + 17, 0);
for (let i = 0; i < BIG.length; i++) BIG[i] = (i * 7919) % 251;

const made = await t.json("POST", "/api/v1/user/repos", { token: aliceToken, body: { name: "Files", auto_init: true } });
const repoId = made.body.id as number;
const files: [string, string | Uint8Array][] = [
  ["page.html", "<!DOCTYPE html><html><script>alert(1)</script></html>"],
  ["pic.png", PNG],
  ["blob.bin", Buffer.from([0, 1, 2, 3, 4, 5, 0xff])],
  ["logo.svg", '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
  ["latin1.txt", Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])],
  ["dir/nested.txt", "nested\n"],
  ['dir/naïve "q" \\1.txt', "odd name\n"],
  ["big.bin", BIG],
  ["empty.txt", ""],
];
const change = await t.json("POST", "/api/v1/repos/alice/Files/contents", {
  token: aliceToken,
  body: { files: files.map(([path, content]) => ({ operation: "create", path, content: b64(content) })) },
});
expect(change.status).toBe(201);
// A symlink, a branch with a slash and a tag, pushed with the real git client.
const work = mkdtempSync(join(tmpdir(), "hearth-raw-"));
const remote = authUrl(t.baseUrl, "alice/Files.git", "alice", "alice-pass-1");
await gitOk(["clone", "-q", remote, work]);
symlinkSync("dir/nested.txt", join(work, "link"));
await gitOk(["add", "link"], { cwd: work });
await gitOk(["commit", "-q", "-m", "link"], { cwd: work });
await gitOk(["push", "-q", "origin", "main"], { cwd: work });
await gitOk(["checkout", "-q", "-b", "feature/x"], { cwd: work });
writeFileSync(join(work, "dir/nested.txt"), "on the feature branch\n");
await gitOk(["commit", "-q", "-am", "feature"], { cwd: work });
await gitOk(["tag", "v1.0", "main"], { cwd: work });
await gitOk(["push", "-q", "origin", "feature/x", "v1.0"], { cwd: work });
const mainHead = getBranch(t.env.db, repoId, "main")!.commitId;

const raw = (path: string, opts: { token?: string; headers?: Record<string, string> } = {}) =>
  t.request("GET", `/api/v1/repos/alice/Files/${path}`, opts);

describe("raw", () => {
  test("a text file: text/plain with its charset, sandboxed, inline, cacheable by ETag", async () => {
    const r = await raw("raw/README.md");
    expect(r.status).toBe(200);
    expect(await r.text()).toContain("# Files");
    const h = Object.fromEntries(r.headers);
    expect(h).toMatchObject({
      "content-type": "text/plain; charset=utf-8",
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      "content-disposition": `inline; filename="README.md"; filename*=UTF-8''README.md`,
      "x-gitea-object-type": "file",
    });
    expect(h.etag).toMatch(/^"[0-9a-f]{40}"$/);
    expect(new Date(h["last-modified"]!).getTime()).toBeGreaterThan(0);
    expect(Number(h["content-length"])).toBeGreaterThan(0);
    const again = await raw("raw/README.md", { headers: { "If-None-Match": h.etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  test("Content-Disposition is Gitea 1.25's: the name quoted and escaped, and UTF-8 percent-encoded", async () => {
    const r = await raw(`raw/dir/${encodeURIComponent('naïve "q" \\1.txt')}`);
    expect(r.status).toBe(200);
    // Headers hand the raw bytes back as Latin-1 characters: the quoted name is UTF-8 on the wire.
    const wire = Buffer.from(r.headers.get("content-disposition")!, "latin1").toString("utf8");
    expect(wire).toBe(`inline; filename="naïve \\"q\\" \\\\1.txt"; filename*=UTF-8''na%C3%AFve%20%22q%22%20%5C1.txt`);
  });

  test("content types follow Gitea's sniffing: never HTML; images as images; the rest octet-stream", async () => {
    const expected: Record<string, string> = {
      "page.html": "text/plain; charset=utf-8",
      "pic.png": "image/png",
      "blob.bin": "application/octet-stream",
      "logo.svg": "image/svg+xml",
      "latin1.txt": "text/plain; charset=iso-8859-1",
      "empty.txt": "text/plain; charset=utf-8",
    };
    for (const [path, type] of Object.entries(expected)) {
      const r = await raw(`raw/${path}`);
      expect({ path, type: r.headers.get("content-type") }).toEqual({ path, type });
      expect(r.headers.get("content-security-policy")).toContain("sandbox");
    }
    const png = await raw("raw/pic.png");
    expect(Buffer.from(await png.arrayBuffer()).equals(PNG)).toBe(true);
  });

  test("refs: ?ref=, a legacy ref prefix (branch with a slash, tag, commit id), the default branch otherwise", async () => {
    const cases: [string, number, string?][] = [
      ["raw/dir/nested.txt", 200, "nested\n"],
      ["raw/dir/nested.txt?ref=feature/x", 200, "on the feature branch\n"],
      ["raw/feature/x/dir/nested.txt", 200, "on the feature branch\n"],
      ["raw/v1.0/dir/nested.txt", 200, "nested\n"],
      [`raw/${mainHead}/dir/nested.txt`, 200, "nested\n"],
      [`raw/dir/nested.txt?ref=${mainHead}`, 200, "nested\n"],
      ["raw/dir/nested.txt?ref=no-such", 404],
      [`raw/${"0".repeat(40)}/dir/nested.txt`, 404],
      ["raw/dir", 404],
      ["raw/missing.txt", 404],
      ["raw/", 404],
      ["raw/dir%2F..%2FREADME.md", 404],
      ["raw/%E0%A4%A", 404],
    ];
    for (const [path, status, body] of cases) {
      const r = await raw(path);
      const text = await r.text();
      expect({ path, status: r.status }).toEqual({ path, status });
      if (body !== undefined) expect(text).toBe(body);
    }
  });

  test("a symlink serves its target text", async () => {
    const r = await raw("raw/link");
    expect(r.status).toBe(200);
    expect(r.headers.get("x-gitea-object-type")).toBe("symlink");
    expect(await r.text()).toBe("dir/nested.txt");
  });

  test("a large blob streams whole; a single range is served as 206", async () => {
    const r = await raw("raw/big.bin");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-length")).toBe(String(BIG.length));
    expect(Buffer.from(await r.arrayBuffer()).equals(BIG)).toBe(true);

    const part = await raw("raw/big.bin", { headers: { Range: "bytes=1000000-1000099" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 1000000-1000099/${BIG.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(BIG.subarray(1000000, 1000100))).toBe(true);
    const tail = await raw("raw/big.bin", { headers: { Range: `bytes=${BIG.length - 5}-` } });
    expect(Buffer.from(await tail.arrayBuffer()).equals(BIG.subarray(BIG.length - 5))).toBe(true);
    expect((await raw("raw/big.bin", { headers: { Range: `bytes=${BIG.length}-` } })).status).toBe(416);
    expect((await raw("raw/big.bin", { headers: { Range: "bytes=10-5" } })).status).toBe(400);

    // Over the real socket too, the bytes arrive intact. (Bun.serve frames a stream that is not
    // finished at once as chunked and drops the handler's Content-Length: oven-sh/bun#10507.)
    const wire = await fetch(new URL("api/v1/repos/alice/Files/raw/big.bin", t.baseUrl));
    expect(Buffer.from(await wire.arrayBuffer()).equals(BIG)).toBe(true);
    const zip = await fetch(new URL("api/v1/repos/alice/Files/archive/main.zip", t.baseUrl));
    expect(zip.status).toBe(200);
    expect(Buffer.from(await zip.arrayBuffer()).subarray(0, 2).toString()).toBe("PK");
  });

  test("media is raw (no LFS store yet)", async () => {
    const r = await raw("media/dir/nested.txt?ref=feature/x");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await r.text()).toBe("on the feature branch\n");
  });

  test("private repositories stay private; empty ones have nothing", async () => {
    await t.json("POST", "/api/v1/user/repos", { token: aliceToken, body: { name: "hidden", auto_init: true, private: true } });
    await t.json("POST", "/api/v1/user/repos", { token: aliceToken, body: { name: "void" } });
    expect((await t.request("GET", "/api/v1/repos/alice/hidden/raw/README.md")).status).toBe(404);
    expect((await t.request("GET", "/api/v1/repos/alice/hidden/raw/README.md", { token: bobToken })).status).toBe(404);
    const own = await t.request("GET", "/api/v1/repos/alice/hidden/raw/README.md", { token: aliceToken });
    expect(own.status).toBe(200);
    expect(own.headers.get("cache-control")).toContain("private");
    expect((await t.request("GET", "/api/v1/repos/alice/void/raw/README.md", { token: aliceToken })).status).toBe(404);
    expect((await t.request("GET", "/api/v1/repos/alice/hidden/archive/main.zip")).status).toBe(404);
  });
});

describe("archive", () => {
  // The downloads land in one directory, removed when the file's tests are done.
  const downloads = mkdtempSync(join(tmpdir(), "hearth-archive-"));
  afterAll(() => rmSync(downloads, { recursive: true, force: true }));
  async function download(name: string): Promise<{ r: Response; file: string }> {
    const r = await t.request("GET", `/api/v1/repos/alice/Files/archive/${name}`);
    const file = join(mkdtempSync(join(downloads, "d-")), name.replaceAll("/", "-"));
    if (r.status === 200) writeFileSync(file, Buffer.from(await r.arrayBuffer()));
    return { r, file };
  }

  test("zip: attachment named {repo}-{ref}, the immutable link, files under the lowercased repo name", async () => {
    const { r, file } = await download("main.zip");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/octet-stream");
    expect(r.headers.get("content-disposition")).toBe(`attachment; filename="Files-main.zip"; filename*=UTF-8''Files-main.zip`);
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(r.headers.get("link")).toBe(`<${t.baseUrl}api/v1/repos/alice/Files/archive/${mainHead}.zip?rev=${mainHead}>; rel="immutable"`);
    const list = Bun.spawnSync(["unzip", "-Z1", file]).stdout.toString().split("\n");
    expect(list).toContain("files/README.md");
    expect(list).toContain("files/dir/nested.txt");
    const big = Bun.spawnSync(["unzip", "-p", file, "files/big.bin"]).stdout;
    expect(Buffer.from(big).equals(BIG)).toBe(true);
  });

  test("tar.gz of a branch with a slash, a tag and a commit id prefix", async () => {
    const feature = await download("feature/x.tar.gz");
    expect(feature.r.status).toBe(200);
    expect(feature.r.headers.get("content-disposition")).toBe(`attachment; filename="Files-feature-x.tar.gz"; filename*=UTF-8''Files-feature-x.tar.gz`);
    const out = Bun.spawnSync(["tar", "-xzOf", feature.file, "files/dir/nested.txt"]).stdout.toString();
    expect(out).toBe("on the feature branch\n");
    expect((await download("v1.0.tar.gz")).r.status).toBe(200);
    const short = await download(`${mainHead.slice(0, 7)}.zip`);
    expect(short.r.status).toBe(200);
    expect(short.r.headers.get("content-disposition")).toBe(`attachment; filename="Files-${mainHead.slice(0, 7)}.zip"; filename*=UTF-8''Files-${mainHead.slice(0, 7)}.zip`);
  });

  test("bundle: a git bundle of the commit that clones", async () => {
    const { r, file } = await download("main.bundle");
    expect(r.status).toBe(200);
    const verify = await gitClient(["bundle", "list-heads", file]);
    expect(verify.stdout).toContain(`${mainHead} refs/heads/bundle`);
    const dir = join(mkdtempSync(join(tmpdir(), "hearth-unbundle-")), "c");
    await gitOk(["clone", "-q", "-b", "bundle", file, dir]);
    expect((await gitOk(["rev-parse", "HEAD"], { cwd: dir })).trim()).toBe(mainHead);
  });

  test("unknown formats are 400, unknown refs 404, as Gitea", async () => {
    const bad = await t.json("GET", "/api/v1/repos/alice/Files/archive/main.rar");
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("unknown format: main.rar");
    for (const name of ["nope.zip", "zzzz.tar.gz", "--output=x.zip", "main..zip", ".zip"]) {
      const r = await t.json("GET", `/api/v1/repos/alice/Files/archive/${name}`);
      expect({ name, status: r.status }).toEqual({ name, status: 404 });
    }
    const r = await t.json("GET", "/api/v1/repos/alice/Files/archive/nope.zip");
    expect(r.body.message).toBe("unrecognized repository reference: nope");
    const empty = await t.json("GET", "/api/v1/repos/alice/void/archive/main.zip", { token: aliceToken });
    expect(empty.status).toBe(404);
  });
});
