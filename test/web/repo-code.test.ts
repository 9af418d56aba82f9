import { beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, ROOT_URL } from "../support/app.ts";
import { populateRepo, type RepoFixture } from "../support/fixtures.ts";
import { WebClient, signedIn, visibleText } from "../support/web.ts";

const API = "/api/v1";
/** A tiny PNG (1×1), as an image file of the repository. */
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);
const b64 = (s: string | Uint8Array) => Buffer.from(s).toString("base64");
const LFS_POINTER = "version https://git-lfs.github.com/spec/v1\noid sha256:" + "ab".repeat(32) + "\nsize 12345\n";

/** Paths of a page's links (href values), unescaped as the browser would send them back. */
const hrefs = (page: string) => [...page.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&"));
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;

describe("repository code pages", () => {
  const t = makeTestApp("[ui]\nMAX_DISPLAY_FILE_SIZE = 262144\n");
  let token: string;
  let fx: RepoFixture;
  let bobToken: string;
  const longLines = Array.from({ length: 5000 }, (_, i) => `export const value${i} = ${i} * 2; // line ${i + 1}`).join("\n") + "\n";

  beforeAll(async () => {
    const alice = await t.user("alice");
    const bob = await t.user("bob");
    token = t.token(alice);
    bobToken = t.token(bob);
    fx = await populateRepo(t, token, "alice", "tools");
    await t.ok("PATCH", `${API}/repos/alice/tools`, token, { description: "Tools <for> everyone", website: "https://tools.example" }, 200);
    await t.ok("PUT", `${API}/repos/alice/tools/topics`, token, { topics: ["cli", "go"] }, 204);
    // One commit with a tree worth looking at.
    await t.ok("POST", `${API}/repos/alice/tools/contents`, token, {
      branch: "main",
      message: "Add sources\n\nWith a body.",
      files: [
        { operation: "create", path: "src/lib/util.ts", content: b64("export function add(a: number, b: number) {\n  return a + b;\n}\n") },
        { operation: "create", path: "src/main.ts", content: b64('import { add } from "./lib/util.ts";\nconsole.log("<script>alert(1)</script>", add(1, 2));\n') },
        { operation: "create", path: "docs/guide.md", content: b64("# Guide\n\nSee [the code](../src/main.ts) and ![logo](logo.png).\n") },
        { operation: "create", path: "docs/logo.png", content: b64(PNG) },
        { operation: "create", path: "page.html", content: b64("<!DOCTYPE html><html><body><script>alert(1)</script></body></html>\n") },
        { operation: "create", path: "blob.bin", content: b64(new Uint8Array([0, 1, 2, 3, 0, 255, 254, 0, 7])) },
        { operation: "create", path: "big.txt", content: b64("x".repeat(300_000)) },
        { operation: "create", path: "asset.psd", content: b64(LFS_POINTER) },
        { operation: "create", path: "long.ts", content: b64(longLines) },
        { operation: "create", path: "file10.txt", content: b64("ten\n") },
        { operation: "create", path: "file9.txt", content: b64("nine\n") },
        { operation: "create", path: "na me#1?.txt", content: b64("odd name\n") },
        { operation: "create", path: "ü.txt", content: b64("umlaut\n") },
        ...Array.from({ length: 120 }, (_, i) => ({ operation: "create", path: `many/f${i + 1}.txt`, content: b64(`${i + 1}\n`) })),
      ],
    }, 201);
    // A later commit touching only one file, so last commits differ between entries.
    await t.ok("PUT", `${API}/repos/alice/tools/contents/src/main.ts`, token, {
      content: b64('import { add } from "./lib/util.ts";\nconsole.log("<script>alert(1)</script>", add(2, 3));\n'),
      sha: (await t.ok("GET", `${API}/repos/alice/tools/contents/src/main.ts`, token)).sha,
      message: "Change the sum",
      branch: "main",
    });
    // A branch whose name holds a slash, with a file only it has.
    await t.ok("POST", `${API}/repos/alice/tools/branches`, token, { new_branch_name: "feature/deep", old_branch_name: "main" }, 201);
    await t.ok("POST", `${API}/repos/alice/tools/contents/deep.txt`, token, { content: b64("deep\n"), branch: "feature/deep" }, 201);
    await populateRepo(t, token, "alice", "secret", { private: true });
    await t.ok("POST", `${API}/user/repos`, token, { name: "void" }, 201);
  });

  describe("the home", () => {
    test("shows the description, website, topics, clone URL, counts and the README", async () => {
      const web = new WebClient(t);
      const res = await web.get("/alice/tools");
      expect(res.status).toBe(200);
      const page = await res.text();
      const text = visibleText(page);
      expect(text).toContain("Tools <for> everyone");
      expect(page).not.toContain("Tools <for>");
      expect(page).toContain('href="https://tools.example"');
      expect(text).toContain("cli");
      // The clone URL in a labelled read-only field.
      expect(page).toMatch(/<label for="clone-url">[^<]+<\/label><input id="clone-url" type="text" readonly value="http:\/\/hearth\.test\/alice\/tools\.git"/);
      const commits = await t.json("GET", `${API}/repos/alice/tools/commits?sha=main&limit=1`, { token });
      const total = Number(commits.headers.get("x-total-count"));
      expect(text).toContain(`${total} commits`);
      expect(text).toContain("3 branches");
      expect(text).toContain("1 tag");
      // The README is rendered (auto_init writes a "# tools" heading).
      expect(page).toMatch(/<section class="box readme"[\s\S]*<h1[^>]*>[\s\S]*tools/);
      expect(page.length).toBeLessThan(100_000);
      expect(res.headers.get("content-security-policy")).toContain("script-src 'none'");
    });

    test("lists directories first, in natural order, with the last commit of every entry", async () => {
      const page = await new WebClient(t).page("/alice/tools");
      const names = [...page.matchAll(/<td class="name">[\s\S]*?<a href="[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]);
      expect(names.slice(0, 3)).toEqual(["docs", "many", "src"]);
      expect(names.indexOf("file9.txt")).toBeLessThan(names.indexOf("file10.txt"));
      // Each entry's commit is the one the contents API (one `git log` per path) reports.
      const listing = await t.ok("GET", `${API}/repos/alice/tools/contents?ref=main`, token);
      for (const entry of listing as { name: string; last_commit_sha: string }[]) {
        const row = new RegExp(`>${escapeRe(entry.name)}</a></span></td><td class="msg"><a href="/alice/tools/commit/([0-9a-f]{40})"`).exec(page);
        expect({ name: entry.name, sha: row?.[1] }).toEqual({ name: entry.name, sha: entry.last_commit_sha });
      }
      // src changed last: its row names that commit's subject.
      expect(page).toMatch(/>src<\/a><\/span><\/td><td class="msg"><a href="[^"]+">Change the sum<\/a>/);
    });

    test("the repository's html_url, and the links of its home, resolve", async () => {
      const repo = await t.ok("GET", `${API}/repos/alice/tools`, token);
      const web = new WebClient(t);
      const home = await web.page(pathOf(repo.html_url));
      for (const href of hrefs(home).filter((h) => h.startsWith("/alice/tools/src/") || h.startsWith("/alice/tools/raw/"))) {
        const res = await web.get(href);
        expect({ href, status: res.status }).toEqual({ href, status: 200 });
      }
    });

    test("a stranger and the anonymous get 404 for a private repository's code pages", async () => {
      const bob = await signedIn(t, "bob");
      const anon = new WebClient(t);
      for (const path of [
        "/alice/secret",
        "/alice/secret/src/branch/main",
        "/alice/secret/src/branch/main/README.md",
        "/alice/secret/raw/branch/main/README.md",
        "/alice/secret/media/branch/main/README.md",
        "/alice/secret/archive/main.zip",
      ]) {
        expect({ path, bob: (await bob.get(path)).status, anon: (await anon.get(path)).status }).toEqual({ path, bob: 404, anon: 404 });
      }
      const alice = await signedIn(t, "alice");
      expect((await alice.get("/alice/secret")).status).toBe(200);
      // Tokens work on downloads (scripts), for the owner's only.
      expect((await t.request("GET", "/alice/secret/raw/branch/main/README.md", { token })).status).toBe(200);
      expect((await t.request("GET", "/alice/secret/raw/branch/main/README.md", { token: bobToken })).status).toBe(404);
    });

    test("an empty repository shows how to push to it, to those who may", async () => {
      const owner = await signedIn(t, "alice");
      const mine = visibleText(await owner.page("/alice/void"));
      expect(mine).toContain("This repository is empty");
      expect(mine).toContain("git remote add origin http://hearth.test/alice/void.git");
      expect(mine).toContain("git push -u origin main");
      const other = visibleText(await new WebClient(t).page("/alice/void"));
      expect(other).toContain("does not contain any content");
      expect(other).not.toContain("git remote add");
      expect((await owner.get("/alice/void/src/branch/main")).status).toBe(200);
      for (const path of ["/alice/void/raw/branch/main/README.md", "/alice/void/archive/main.zip", "/alice/void/media/branch/main/x"]) {
        expect({ path, status: (await owner.get(path)).status }).toEqual({ path, status: 404 });
      }
    });
  });

  describe("directories and files", () => {
    test("the contents API's html_url and download_url open the file's page and its bytes", async () => {
      const web = new WebClient(t);
      const file = await t.ok("GET", `${API}/repos/alice/tools/contents/src/lib/util.ts?ref=main`, token);
      const page = await web.page(pathOf(file.html_url));
      expect(visibleText(page)).toContain("return a + b;");
      const raw = await web.get(pathOf(file.download_url));
      expect(raw.status).toBe(200);
      expect(await raw.text()).toBe(Buffer.from(file.content, "base64").toString());
      const dir = (await t.ok("GET", `${API}/repos/alice/tools/contents/src?ref=main`, token)) as { name: string; html_url: string }[];
      const lib = dir.find((e) => e.name === "lib")!;
      expect(visibleText(await web.page(pathOf(lib.html_url)))).toContain("util.ts");
      // By tag too.
      const tagged = await t.ok("GET", `${API}/repos/alice/tools/contents/README.md?ref=v1`, token);
      expect((await web.get(pathOf(tagged.html_url))).status).toBe(200);
      expect((await web.get(pathOf(tagged.download_url))).status).toBe(200);
    });

    test("names that need escaping link to their pages, and the API's html_url for them resolves too", async () => {
      const web = new WebClient(t);
      const home = await web.page("/alice/tools");
      expect(home).toContain('href="/alice/tools/src/branch/main/na%20me%231%3F.txt"');
      expect(visibleText(await web.page("/alice/tools/src/branch/main/na%20me%231%3F.txt"))).toContain("odd name");
      for (const name of ["na me#1?.txt", "ü.txt"]) {
        const file = await t.ok("GET", `${API}/repos/alice/tools/contents/${encodeURIComponent(name)}?ref=main`, token);
        expect((await web.get(pathOf(file.html_url))).status).toBe(200);
        expect(await (await web.get(pathOf(file.download_url))).text()).toBe(Buffer.from(file.content, "base64").toString());
      }
    });

    test("a big directory is listed a hundred entries at a time", async () => {
      const web = new WebClient(t);
      const first = await web.page("/alice/tools/src/branch/main/many");
      const rows = (page: string) => [...page.matchAll(/>f(\d+)\.txt<\/a>/g)].map((m) => Number(m[1]));
      expect(rows(first)).toHaveLength(100);
      expect(rows(first).slice(0, 3)).toEqual([1, 2, 3]);
      expect(first).toContain('href="?page=2"');
      const second = await web.page("/alice/tools/src/branch/main/many?page=2");
      expect(rows(second)).toEqual(Array.from({ length: 20 }, (_, i) => 101 + i));
      expect((await web.get("/alice/tools/src/branch/main/many?page=3")).status).toBe(404);
    });

    test("a subdirectory has its path as links and a way up", async () => {
      const page = await new WebClient(t).page("/alice/tools/src/branch/main/src/lib");
      expect(page).toContain('<nav class="crumbs" aria-label="Path"><a href="/alice/tools/src/branch/main">tools</a>');
      expect(page).toContain('<a href="/alice/tools/src/branch/main/src">src</a>');
      expect(page).toContain('<span aria-current="page">lib</span>');
      expect(page).toContain('href="/alice/tools/src/branch/main/src"><span aria-hidden="true">..</span>');
    });

    test("a text file: numbered lines to link to, highlighted and escaped, with raw, history and its size", async () => {
      const page = await new WebClient(t).page("/alice/tools/src/branch/main/src/main.ts");
      expect(page).toContain('<tr id="L1"><td class="ln"><a href="#L1">1</a></td>');
      expect(page).toContain('<tr id="L2">');
      expect(page).not.toContain('<tr id="L3">');
      expect(page).not.toContain("<script>alert(1)</script>");
      expect(page).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
      expect(page).toContain('class="hljs-'); // highlighted by the file's name
      const text = visibleText(page);
      expect(text).toContain("2 lines");
      expect(text).toContain("Change the sum");
      expect(page).toContain('href="/alice/tools/raw/branch/main/src/main.ts"');
      expect(page).toContain('href="/alice/tools/commits/branch/main/src/main.ts"');
      expect(page).toMatch(/href="\/alice\/tools\/src\/commit\/[0-9a-f]{40}\/src\/main\.ts"/);
    });

    test("a 5,000-line file renders whole, quickly once seen", async () => {
      const web = new WebClient(t);
      const first = performance.now();
      const page = await web.page("/alice/tools/src/branch/main/long.ts");
      const cold = performance.now() - first;
      expect(page).toContain('<tr id="L5000">');
      expect(page).not.toContain('<tr id="L5001">');
      expect(visibleText(page)).toContain("5000 lines");
      const again = performance.now();
      await web.page("/alice/tools/src/branch/main/long.ts");
      const warm = performance.now() - again;
      // Generous bounds: the test machine is shared; the budget is 400 ms cold, 15 ms warm on an idle one.
      expect(cold).toBeLessThan(3000);
      expect(warm).toBeLessThan(400);
    });

    test("Markdown is rendered with its links resolved in the repository, and its source is one click away", async () => {
      const web = new WebClient(t);
      const page = await web.page("/alice/tools/src/branch/main/docs/guide.md");
      expect(page).toMatch(/<h1[^>]*>[\s\S]*Guide/);
      expect(page).toContain('href="/alice/tools/src/branch/main/src/main.ts"');
      expect(page).toContain('src="/alice/tools/media/branch/main/docs/logo.png"');
      expect(page).toContain('href="/alice/tools/src/branch/main/docs/guide.md?display=source"');
      const source = await web.page("/alice/tools/src/branch/main/docs/guide.md?display=source");
      expect(source).toContain('<tr id="L3">');
      expect(source).toContain('aria-current="page">Source</a>');
    });

    test("images are shown, binary and too large files offered for download, LFS pointers named", async () => {
      const web = new WebClient(t);
      const image = await web.page("/alice/tools/src/branch/main/docs/logo.png");
      expect(image).toContain('<img src="/alice/tools/raw/branch/main/docs/logo.png" alt="logo.png">');
      const binary = await web.page("/alice/tools/src/branch/main/blob.bin");
      expect(visibleText(binary)).toContain("binary file");
      expect(binary).not.toContain('<table class="code">');
      const big = await web.page("/alice/tools/src/branch/main/big.txt");
      expect(visibleText(big)).toContain("too large");
      expect(big).not.toContain('<table class="code">');
      expect(big).not.toContain("x".repeat(1000));
      const lfs = await web.page("/alice/tools/src/branch/main/asset.psd");
      expect(visibleText(lfs)).toContain("Stored with Git LFS");
      expect(visibleText(lfs)).toContain("12 KiB");
      expect(lfs).toContain('href="/alice/tools/media/branch/main/asset.psd"');
    });

    test("branches whose names hold a slash, tags and commits (short ids with a canonical link) name revisions", async () => {
      const web = new WebClient(t);
      expect(visibleText(await web.page("/alice/tools/src/branch/feature/deep/deep.txt"))).toContain("deep");
      expect(visibleText(await web.page("/alice/tools/src/branch/feature/deep"))).toContain("deep.txt");
      expect((await web.get("/alice/tools/src/branch/main/deep.txt")).status).toBe(404);
      expect((await web.get("/alice/tools/src/tag/v1/README.md")).status).toBe(200);
      expect((await web.get("/alice/tools/src/branch/HEAD/README.md")).status).toBe(200);
      const short = fx.head.slice(0, 8);
      const res = await web.get(`/alice/tools/src/commit/${short}/README.md`);
      expect(res.status).toBe(200);
      expect(res.headers.get("link")).toBe(`<${ROOT_URL}alice/tools/src/commit/${fx.head}/README.md>; rel="canonical"`);
      expect((await web.get(`/alice/tools/src/commit/${fx.head}`)).status).toBe(200);
      for (const path of ["/alice/tools/src/branch/nope/README.md", "/alice/tools/src/tag/nope", "/alice/tools/src/commit/0123456/x", "/alice/tools/src/branch/main/nope.txt", "/alice/tools/src/branch/main/%ZZ"]) {
        expect({ path, status: (await web.get(path)).status }).toEqual({ path, status: 404 });
      }
    });

    test("legacy paths redirect to the path with the ref's kind, falling back to the default branch", async () => {
      const web = new WebClient(t);
      const cases: [string, string][] = [
        ["/alice/tools/src/main/README.md", "/alice/tools/src/branch/main/README.md"],
        ["/alice/tools/src/feature/deep/deep.txt", "/alice/tools/src/branch/feature/deep/deep.txt"],
        ["/alice/tools/src/v1/README.md", "/alice/tools/src/tag/v1/README.md"],
        [`/alice/tools/src/${fx.head}/README.md`, `/alice/tools/src/commit/${fx.head}/README.md`],
        ["/alice/tools/src/docs/guide.md", "/alice/tools/src/branch/main/docs/guide.md"],
        ["/alice/tools/raw/main/README.md?x=1", "/alice/tools/raw/branch/main/README.md?x=1"],
        ["/alice/tools/media/main/README.md", "/alice/tools/media/branch/main/README.md"],
      ];
      for (const [from, to] of cases) {
        const res = await web.get(from);
        expect({ from, status: res.status, location: res.headers.get("location") }).toEqual({ from, status: 303, location: to });
      }
      expect((await web.get("/alice/tools/src/branch/main/README.md?raw=1")).headers.get("location")).toBe("/alice/tools/raw/branch/main/README.md");
    });

    test("the ref switcher lists branches and tags, bounded, and filters without a script", async () => {
      const web = new WebClient(t);
      const page = await web.page("/alice/tools/src/branch/main/docs");
      expect(page).toContain('<details class="menu ref-switch">');
      expect(page).toContain('href="/alice/tools/src/branch/feature/deep/docs"');
      expect(page).toContain('href="/alice/tools/src/tag/v1/docs"');
      expect(page).toContain('href="/alice/tools/src/branch/main/docs" aria-current="true"');
      const filtered = await web.page("/alice/tools/src/branch/main/docs?ref_q=DEEP");
      expect(filtered).toContain('<details class="menu ref-switch" open>');
      expect(filtered).toContain('href="/alice/tools/src/branch/feature/deep/docs"');
      expect(filtered).not.toContain('href="/alice/tools/src/branch/feat/docs"');
      expect(filtered).not.toContain('href="/alice/tools/src/tag/v1/docs"');
    });
  });

  describe("raw files, media and archives", () => {
    test("raw files carry Gitea's headers, answer 304 when unchanged, and never come as HTML", async () => {
      const web = new WebClient(t);
      const res = await web.get("/alice/tools/raw/branch/main/page.html");
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toContain("sandbox");
      expect(res.headers.get("content-disposition")).toStartWith('inline; filename="page.html"');
      const etag = res.headers.get("etag")!;
      expect(etag).toMatch(/^"[0-9a-f]{40}"$/);
      expect(res.headers.get("last-modified")).toBeTruthy();
      const again = await web.get("/alice/tools/raw/branch/main/page.html", { "If-None-Match": etag });
      expect(again.status).toBe(304);
      const png = await web.get("/alice/tools/raw/branch/main/docs/logo.png");
      expect(png.headers.get("content-type")).toBe("image/png");
      expect(new Uint8Array(await png.arrayBuffer())).toEqual(PNG);
      const byId = await web.get(`/alice/tools/raw/blob/${etag.slice(1, -1)}`);
      expect(byId.status).toBe(200);
      expect(await byId.text()).toContain("<script>");
      expect((await web.get("/alice/tools/raw/blob/0000000000000000000000000000000000000000")).status).toBe(404);
      expect((await web.get("/alice/tools/raw/branch/main/src")).status).toBe(404);
      const range = await web.get("/alice/tools/raw/branch/main/file9.txt", { Range: "bytes=0-1" });
      expect(range.status).toBe(206);
      expect(await range.text()).toBe("ni");
    });

    test("media serves an LFS pointer as it is while its object is not stored", async () => {
      const res = await new WebClient(t).get("/alice/tools/media/branch/main/asset.psd");
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(LFS_POINTER);
    });

    test("archives stream as zip, tar.gz and bundle; the release's zipball_url and tarball_url resolve", async () => {
      const web = new WebClient(t);
      const zip = await web.get("/alice/tools/archive/main.zip");
      expect(zip.status).toBe(200);
      expect(zip.headers.get("content-disposition")).toStartWith('attachment; filename="tools-main.zip"');
      expect(zip.headers.get("link")).toMatch(/rel="immutable"$/);
      expect(new Uint8Array(await zip.arrayBuffer()).subarray(0, 2)).toEqual(new Uint8Array([0x50, 0x4b]));
      const deep = await web.get("/alice/tools/archive/feature/deep.tar.gz");
      expect(deep.status).toBe(200);
      expect(deep.headers.get("content-disposition")).toStartWith('attachment; filename="tools-feature-deep.tar.gz"');
      await deep.arrayBuffer();
      const bundle = await web.get("/alice/tools/archive/v1.bundle");
      expect(bundle.status).toBe(200);
      expect(Buffer.from(await bundle.arrayBuffer()).toString("latin1")).toStartWith("# v2 git bundle");
      expect((await web.get("/alice/tools/archive/nope.zip")).status).toBe(404);
      expect((await web.get("/alice/tools/archive/main.rar")).status).toBe(400);
      const release = await t.ok("GET", `${API}/repos/alice/tools/releases/${fx.release}`, token);
      for (const url of [release.zipball_url, release.tarball_url]) {
        const res = await web.get(pathOf(url));
        expect({ url, status: res.status }).toEqual({ url, status: 200 });
        await res.arrayBuffer();
      }
    });
  });

  describe("go get", () => {
    test("?go-get=1 answers the go-import and go-source tags under any path of a repository", async () => {
      const web = new WebClient(t);
      for (const path of ["/alice/tools?go-get=1", "/alice/tools/sub/pkg?go-get=1", "/alice/tools/src/branch/main?go-get=1"]) {
        const res = await web.get(path);
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
        const page = await res.text();
        expect(page).toContain('<meta name="go-import" content="hearth.test/alice/tools git http://hearth.test/alice/tools.git">');
        expect(page).toContain(
          '<meta name="go-source" content="hearth.test/alice/tools _ http://hearth.test/alice/tools/src/branch/main{/dir} http://hearth.test/alice/tools/src/branch/main{/dir}/{file}#L{line}">',
        );
        expect(page).toContain("go get --insecure hearth.test/alice/tools");
      }
    });

    test("as Gitea, it answers for a private or missing repository too, without telling which", async () => {
      const web = new WebClient(t);
      await t.ok("PATCH", `${API}/repos/alice/secret`, token, { default_branch: "feat" }, 200);
      const secret = await web.get("/alice/secret?go-get=1");
      const missing = await web.get("/alice/missing?go-get=1");
      expect(secret.status).toBe(200);
      expect(missing.status).toBe(200);
      const page = await secret.text();
      expect(page).toContain('content="hearth.test/alice/secret git http://hearth.test/alice/secret.git"');
      // The private repository's own default branch does not show.
      expect(page).toContain("/alice/secret/src/branch/main{/dir}");
    });
  });

  describe("after new commits", () => {
    /** Every entry of the root's row names the commit the contents API (`git log -1` per path) names. */
    async function expectLastCommitsAsApi(page: string) {
      const listing = (await t.ok("GET", `${API}/repos/alice/tools/contents?ref=main`, token)) as { name: string; last_commit_sha: string }[];
      for (const entry of listing) {
        const row = new RegExp(`>${escapeRe(entry.name)}</a></span></td><td class="msg"><a href="/alice/tools/commit/([0-9a-f]{40})"`).exec(page);
        expect({ name: entry.name, sha: row?.[1] }).toEqual({ name: entry.name, sha: entry.last_commit_sha });
      }
    }

    test("a push and a merge move only the entries they change; counts follow", async () => {
      const web = new WebClient(t);
      await web.page("/alice/tools");
      const nine = await t.ok("GET", `${API}/repos/alice/tools/contents/file9.txt`, token);
      await t.ok("PUT", `${API}/repos/alice/tools/contents/file9.txt`, token, { content: b64("nine!\n"), sha: nine.sha, message: "Nine, louder" });
      const afterPush = await web.page("/alice/tools");
      expect(afterPush).toMatch(/>file9\.txt<\/a><\/span><\/td><td class="msg"><a href="[^"]+">Nine, louder<\/a>/);
      await expectLastCommitsAsApi(afterPush);
      // A merge commit brings the pull request's branch (feat.txt) in.
      await t.ok("POST", `${API}/repos/alice/tools/pulls/${fx.pull}/merge`, token, { Do: "merge" }, 200);
      const afterMerge = await web.page("/alice/tools");
      expect(afterMerge).toContain(">feat.txt</a>");
      await expectLastCommitsAsApi(afterMerge);
      const commits = await t.json("GET", `${API}/repos/alice/tools/commits?sha=main&limit=1`, { token });
      expect(visibleText(afterMerge)).toContain(`${commits.headers.get("x-total-count")} commits`);
    });
  });

  describe("without the code unit", () => {
    test("the home sends the visitor to the first unit they can read; raw files are 404", async () => {
      await populateRepo(t, token, "alice", "tracker");
      await t.ok("PATCH", `${API}/repos/alice/tracker`, token, { has_code: false }, 200);
      const web = await signedIn(t, "alice");
      const home = await web.get("/alice/tracker");
      expect(home.status).toBe(303);
      expect(home.headers.get("location")).toBe("/alice/tracker/issues");
      expect((await web.get("/alice/tracker/src/branch/main/README.md")).headers.get("location")).toBe("/alice/tracker/issues");
      expect((await web.get("/alice/tracker/raw/branch/main/README.md")).status).toBe(404);
      expect((await web.get("/alice/tracker/archive/main.zip")).status).toBe(404);
    });
  });
});

describe("REQUIRE_SIGNIN_VIEW", () => {
  const t = makeTestApp("[service]\nREQUIRE_SIGNIN_VIEW = true\n");
  let token: string;

  beforeAll(async () => {
    const alice = await t.user("alice");
    token = t.token(alice);
    await populateRepo(t, token, "alice", "tools");
  });

  test("the anonymous are sent to sign in; a signed-in visitor and a token see the code", async () => {
    const anon = new WebClient(t);
    for (const path of ["/alice/tools", "/alice/tools/src/branch/main/README.md", "/alice/tools/raw/branch/main/README.md", "/alice/tools/archive/main.zip"]) {
      const res = await anon.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 303 });
      expect(res.headers.get("location")).toStartWith("/user/login?redirect_to=");
    }
    const web = await signedIn(t, "alice");
    expect((await web.get("/alice/tools")).status).toBe(200);
    expect((await t.request("GET", "/alice/tools/raw/branch/main/README.md", { token })).status).toBe(200);
    // go get still learns where to clone from.
    expect((await anon.get("/alice/tools?go-get=1")).status).toBe(200);
  });
});

describe("pushed trees: symlinks, submodules, READMEs in docs/, other encodings", () => {
  const t = makeTestApp("", { listen: true });
  let token: string;

  beforeAll(async () => {
    const { gitOk, authUrl } = await import("../support/git.ts");
    const { mkdtempSync, mkdirSync, symlinkSync, writeFileSync, chmodSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const alice = await t.user("alice");
    token = t.token(alice);
    await t.ok("POST", `${API}/user/repos`, token, { name: "pushed" }, 201);
    const dir = mkdtempSync(join(tmpdir(), "hearth-work-"));
    await gitOk(["init", "-q", "-b", "main", dir]);
    mkdirSync(join(dir, "docs"));
    mkdirSync(join(dir, "notes"));
    writeFileSync(join(dir, "docs", "README.md"), "# From docs\n\nThe [manual](manual.md).\n");
    writeFileSync(join(dir, "notes", "README.txt"), "Plain <b>notes</b>\n");
    writeFileSync(join(dir, "target.txt"), "the target\n");
    symlinkSync("target.txt", join(dir, "link.txt"));
    writeFileSync(join(dir, "run.sh"), "#!/bin/sh\necho hi\n");
    chmodSync(join(dir, "run.sh"), 0o755);
    writeFileSync(join(dir, "latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])); // "café" in Latin-1
    writeFileSync(join(dir, ".gitmodules"), '[submodule "lib"]\n\tpath = vendor/lib\n\turl = https://example.com/lib.git\n');
    await gitOk(["add", "-A"], { cwd: dir });
    await gitOk(["update-index", "--add", "--cacheinfo", `160000,${"1".repeat(40)},vendor/lib`], { cwd: dir });
    await gitOk(["commit", "-q", "-m", "A tree of every kind"], { cwd: dir });
    await gitOk(["push", "-q", authUrl(t.baseUrl, "/alice/pushed.git", "alice", "password123"), "main"], { cwd: dir });
  });

  test("the top README may live in docs/; a directory's README.txt is shown as text", async () => {
    const web = new WebClient(t);
    const home = await web.page("/alice/pushed");
    expect(home).toContain('<a href="/alice/pushed/src/branch/main/docs/README.md">docs/README.md</a>');
    expect(home).toMatch(/<h1[^>]*>[\s\S]*From docs/);
    expect(home).toContain('href="/alice/pushed/src/branch/main/docs/manual.md"');
    const notes = await web.page("/alice/pushed/src/branch/main/notes");
    expect(notes).toContain('<pre class="plain-text">Plain &lt;b&gt;notes&lt;/b&gt;\n</pre>');
  });

  test("symlinks, executables and submodules are told apart; a submodule links to its web address", async () => {
    const web = new WebClient(t);
    const vendor = await web.page("/alice/pushed/src/branch/main/vendor");
    expect(vendor).toContain('<a href="https://example.com/lib" rel="nofollow noreferrer">lib</a>');
    expect(vendor).toContain("Submodule: </span>");
    expect((await web.get("/alice/pushed/src/branch/main/vendor/lib")).status).toBe(404);
    const home = await web.page("/alice/pushed");
    expect(home).toContain("Symbolic link: </span>");
    const link = visibleText(await web.page("/alice/pushed/src/branch/main/link.txt"));
    expect(link).toContain("Symbolic link");
    expect(link).toContain("target.txt");
    expect(visibleText(await web.page("/alice/pushed/src/branch/main/run.sh"))).toContain("Executable");
    expect(await (await web.get("/alice/pushed/raw/branch/main/link.txt")).text()).toBe("target.txt");
  });

  test("a file that is not UTF-8 is shown as Latin-1, and served with that charset", async () => {
    const web = new WebClient(t);
    expect(visibleText(await web.page("/alice/pushed/src/branch/main/latin1.txt"))).toContain("café");
    expect((await web.get("/alice/pushed/raw/branch/main/latin1.txt")).headers.get("content-type")).toBe("text/plain; charset=iso-8859-1");
  });
});

describe("a clone URL opened in a browser", () => {
  const app = makeTestApp();
  test("/{owner}/{repo}.git redirects to the repository's page", async () => {
    const owner = await app.user("olive");
    await app.ok("POST", "/api/v1/user/repos", app.token(owner), { name: "kit", auto_init: true }, 201);
    const res = await app.request("GET", "/olive/kit.git");
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/olive/kit");
    // git's own requests under the .git name still reach git.
    const refs = await app.request("GET", "/olive/kit.git/info/refs?service=git-upload-pack");
    expect(refs.status).toBe(200);
    expect(refs.headers.get("content-type")).toBe("application/x-git-upload-pack-advertisement");
  });
});
