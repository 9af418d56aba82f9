import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp, type TestApp } from "../support/app.ts";
import { requireUser } from "../../src/services/user/lookup.ts";
import * as pkgModel from "../../src/models/package.ts";

const P = "/api/packages";
const sha256 = (data: string | Uint8Array) => new Bun.CryptoHasher("sha256").update(data).digest("hex");

interface Upload {
  name?: string;
  version?: string;
  digest?: string;
  filename?: string;
  content?: string | Uint8Array;
  /** The file part before the fields, as Gitea's own test sends it. */
  fileFirst?: boolean;
  fields?: [string, string][];
}

/** twine's upload form, by hand. */
function form(u: Upload): FormData {
  const content = u.content ?? "test";
  const f = new FormData();
  const file = () => f.append("content", new File([content], u.filename ?? "test.whl"));
  if (u.fileFirst) file();
  f.append(":action", "file_upload");
  f.append("protocol_version", "1");
  if (u.name !== "") f.append("name", u.name ?? "test-package");
  if (u.version !== "") f.append("version", u.version ?? "1.0.1");
  f.append("sha256_digest", u.digest ?? sha256(content));
  for (const [k, v] of u.fields ?? []) f.append(k, v);
  if (!u.fileFirst && u.filename !== "") file();
  return f;
}

async function upload(t: TestApp, owner: string, u: Upload, auth: { token?: string; basic?: [string, string] }) {
  const res = await t.request("POST", `${P}/${owner}/pypi`, { ...auth, body: form(u) });
  return { status: res.status, text: await res.text() };
}

function tmpFiles(t: TestApp): string[] {
  const dir = join(t.settings.server.appDataPath, "packages", "tmp");
  return existsSync(dir) ? readdirSync(dir) : [];
}

describe("PyPI registry over HTTP", () => {
  const t = makeTestApp("[packages]\nLIMIT_SIZE_PYPI = 64 KiB\n");

  test("upload with metadata, a second file, 409 for a file already there; simple page and downloads", async () => {
    const alice = await t.user("alice");
    const token = t.token(alice, ["write:package"]);
    const fields: [string, string][] = [
      ["author", "KN4CK3R"],
      ["summary", "Test Description"],
      ["description", "# Long"],
      ["description_content_type", "text/markdown"],
      ["requires_python", ">=3.6"],
      ["home_page", "https://old.example/"],
      ["project_urls", "Source, https://src.example/"],
      ["project_urls", "Home-Page, https://home.example/"],
      ["classifiers", "Programming Language :: Python :: 3"],
      ["classifiers", "License :: OSI Approved :: MIT License"],
      ["license", "MIT"],
    ];
    expect(await upload(t, "alice", { filename: "test.whl", fields }, { token })).toEqual({ status: 201, text: "" });
    expect((await upload(t, "alice", { filename: "test.tar.gz", fields: [["requires_python", "ignored: the version exists"]] }, { token })).status).toBe(201);
    expect(await upload(t, "alice", { filename: "test.whl" }, { token })).toEqual({ status: 409, text: "package file already exists\n" });

    const pkg = pkgModel.getPackage(t.env.db, alice.id, "pypi", "test-package")!;
    expect(pkg.name).toBe("test-package");
    const version = pkgModel.getVersion(t.env.db, pkg.id, "1.0.1")!;
    const meta = JSON.parse(version.metadataJson);
    expect(meta).toMatchObject({
      author: "KN4CK3R",
      summary: "Test Description",
      description: "# Long",
      requires_python: ">=3.6",
      project_url: "https://home.example/",
      license: "MIT",
      classifiers: ["Programming Language :: Python :: 3", "License :: OSI Approved :: MIT License"],
    });
    expect(pkgModel.listFiles(t.env.db, version.id).map((f) => [f.file.name, f.file.isLead, f.blob.size])).toEqual([
      ["test.whl", true, 4],
      ["test.tar.gz", true, 4],
    ]);

    const page = await t.request("GET", `${P}/alice/pypi/simple/test-package`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const body = await page.text();
    expect(body).toContain("<title>Links for test-package</title>");
    const links = [...body.matchAll(/<a href="([^"]+)"( data-requires-python="([^"]*)")?>([^<]+)<\/a><br>/g)];
    expect(links.map((m) => [m[1], m[3], m[4]])).toEqual(
      ["test.whl", "test.tar.gz"].map((f) => [`${t.baseUrl}api/packages/alice/pypi/files/test-package/1.0.1/${f}#sha256=${sha256("test")}`, "&gt;=3.6", f]),
    );

    for (const f of ["test.whl", "test.tar.gz"]) {
      const res = await t.request("GET", `${P}/alice/pypi/files/test-package/1.0.1/${f}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe("test");
      expect(res.headers.get("content-disposition")).toContain(`filename="${f}"`);
    }
    expect((await t.request("HEAD", `${P}/alice/pypi/files/test-package/1.0.1/test.whl`)).status).toBe(200);
    expect(pkgModel.getVersion(t.env.db, pkg.id, "1.0.1")!.downloadCount).toBe(2);
    expect((await t.request("GET", `${P}/alice/pypi/files/test-package/1.0.1/nope.whl`)).status).toBe(404);
    expect((await t.request("GET", `${P}/alice/pypi/files/test-package/9.9/test.whl`)).status).toBe(404);
    expect((await t.request("GET", `${P}/alice/pypi/simple/unknown-project/`)).status).toBe(404);
    expect(tmpFiles(t)).toEqual([]);
  });

  test("names are normalised as PEP 503 says: any spelling finds the project, the page lists versions in Gitea's order", async () => {
    const bob = await t.user("bob");
    const token = t.token(bob, ["write:package"]);
    for (const [name, version] of [
      ["Some.Project__Name", "1.10"],
      ["some-project-name", "1.9"],
      ["SOME_project.name", "1.0a1"],
    ]) {
      expect((await upload(t, "bob", { name, version, filename: `some_project_name-${version}.tar.gz` }, { token })).status).toBe(201);
    }
    const versions = pkgModel.searchVersions(t.env.db, { ownerId: bob.id, type: "pypi", offset: 0, limit: 10 });
    expect(versions.total).toBe(3);
    expect(new Set(versions.rows.map((r) => r.pkg.name))).toEqual(new Set(["Some-Project-Name"]));
    for (const id of ["some-project-name", "Some_Project.Name", "some---project...name"]) {
      const res = await t.request("GET", `${P}/bob/pypi/simple/${id}/`);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toContain("<h1>Links for Some-Project-Name</h1>");
      expect([...text.matchAll(/files\/some-project-name\/([^/]+)\//g)].map((m) => m[1])).toEqual(["1.0a1", "1.10", "1.9"]);
    }
    expect((await t.request("GET", `${P}/bob/pypi/files/Some_Project.Name/1.9/some_project_name-1.9.tar.gz`)).status).toBe(200);
  });

  test("the file may come first (Gitea's own order): kept aside, hashed, then stored", async () => {
    const carol = await t.user("carol");
    const token = t.token(carol, ["write:package"]);
    const content = new Uint8Array(40_000).map((_, i) => i % 251);
    expect((await upload(t, "carol", { fileFirst: true, content, filename: "first.whl", fields: [["summary", "after"]] }, { token })).status).toBe(201);
    const res = await t.request("GET", `${P}/carol/pypi/files/test-package/1.0.1/first.whl`);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(content);
    const pkg = pkgModel.getPackage(t.env.db, carol.id, "pypi", "test-package")!;
    expect(JSON.parse(pkgModel.getVersion(t.env.db, pkg.id, "1.0.1")!.metadataJson).summary).toBe("after");
    expect(await upload(t, "carol", { fileFirst: true, content: "other", digest: sha256("different") }, { token })).toEqual({
      status: 400,
      text: "hash mismatch\n",
    });
    expect(tmpFiles(t)).toEqual([]);
  });

  test("Gitea's 400s: hash mismatch, bad names and versions, no file, not a form; nothing kept", async () => {
    const dave = await t.user("dave");
    const token = t.token(dave, ["write:package"]);
    expect(await upload(t, "dave", { content: "dummy", digest: sha256("test") }, { token })).toEqual({ status: 400, text: "hash mismatch\n" });
    expect(await upload(t, "dave", { digest: "" }, { token })).toEqual({ status: 400, text: "hash mismatch\n" });
    // The digest is compared without regard to case, as Go's EqualFold does.
    expect((await upload(t, "dave", { digest: sha256("test").toUpperCase(), filename: "upper.whl" }, { token })).status).toBe(201);
    for (const name of ["-bad", "bad-", "bad name", "bäd", ""]) {
      expect(await upload(t, "dave", { name }, { token })).toEqual({ status: 400, text: "invalid name or version\n" });
    }
    for (const version of ["1.0 ", "one", "1.0+", "", "1.0.BETA"]) {
      expect(await upload(t, "dave", { version, fileFirst: true }, { token })).toEqual({ status: 400, text: "invalid name or version\n" });
    }
    expect(await upload(t, "dave", { filename: "" }, { token })).toEqual({ status: 400, text: "http: no such file\n" });
    const notForm = await t.request("POST", `${P}/dave/pypi`, { token, body: "name=x", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect([notForm.status, await notForm.text()]).toEqual([400, "request Content-Type isn't multipart/form-data\n"]);
    const cut = await t.request("POST", `${P}/dave/pypi`, {
      token,
      body: '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nx',
      headers: { "Content-Type": "multipart/form-data; boundary=b" },
    });
    expect([cut.status, await cut.text()]).toEqual([400, "multipart: NextPart: EOF\n"]);
    // A recorded field after a file that already went to the store cannot be honoured: refused, nothing kept.
    const late = form({ filename: "late.whl" });
    late.append("summary", "too late");
    const lateRes = await t.request("POST", `${P}/dave/pypi`, { token, body: late });
    expect([lateRes.status, await lateRes.text()]).toEqual([400, "the form field summary must come before the file\n"]);
    const pkg = pkgModel.getPackage(t.env.db, dave.id, "pypi", "test-package")!;
    expect(pkgModel.listFiles(t.env.db, pkgModel.getVersion(t.env.db, pkg.id, "1.0.1")!.id).map((f) => f.file.name)).toEqual(["upper.whl"]);
    expect(tmpFiles(t)).toEqual([]);
  });

  test("a file over LIMIT_SIZE_PYPI is 403 in either order, nothing kept", async () => {
    const erin = await t.user("erin");
    const token = t.token(erin, ["write:package"]);
    const content = new Uint8Array(65 * 1024);
    for (const fileFirst of [false, true]) {
      expect(await upload(t, "erin", { content, fileFirst }, { token })).toEqual({ status: 403, text: "maximum allowed package type size exceeded\n" });
    }
    expect(pkgModel.getPackage(t.env.db, erin.id, "pypi", "test-package")).toBeUndefined();
    expect(tmpFiles(t)).toEqual([]);
  });

  test("credentials: anonymous upload gets Gitea's challenge, a read-only token 403, another user 403", async () => {
    await t.user("frank");
    const anon = await upload(t, "frank", {}, {});
    expect(anon.status).toBe(401);
    const res = await t.request("POST", `${P}/frank/pypi`, { body: form({}) });
    expect(res.headers.get("www-authenticate")).toBe('Basic realm="Gitea Package API"');
    const readOnly = t.token(requireUser(t.env, "frank"), ["read:package"]);
    expect((await upload(t, "frank", {}, { token: readOnly })).status).toBe(403);
    await t.user("gina");
    expect((await upload(t, "frank", {}, { basic: ["gina", "password123"] })).status).toBe(403);
    expect((await upload(t, "frank", {}, { basic: ["frank", "password123"] })).status).toBe(201);
  });

  test("a private owner's projects are refused to others and readable by the owner", async () => {
    const hank = await t.user("hank");
    await t.ok("PATCH", "/api/v1/admin/users/hank", t.token(await t.user("root", { admin: true })), { login_name: "hank", source_id: 0, visibility: "private" });
    expect((await upload(t, "hank", {}, { basic: ["hank", "password123"] })).status).toBe(201);
    const anon = await t.request("GET", `${P}/hank/pypi/simple/test-package/`);
    expect(anon.status).toBe(401);
    expect(anon.headers.get("www-authenticate")).toBe('Basic realm="Gitea Package API"');
    expect((await t.request("GET", `${P}/hank/pypi/files/test-package/1.0.1/test.whl`)).status).toBe(401);
    await t.user("ivan");
    expect((await t.request("GET", `${P}/hank/pypi/simple/test-package/`, { basic: ["ivan", "password123"] })).status).toBe(403);
    expect((await t.request("GET", `${P}/hank/pypi/simple/test-package/`, { token: t.token(hank, ["read:package"]) })).status).toBe(200);
  });
});

// ---------------------------------------------------------------------------------------------
// The real clients: Debian's twine uploads a wheel and an sdist built here, pip downloads and
// installs from the simple pages. Both run offline against this server only.

const twine = Bun.which("twine");
const python = Bun.which("python3");
// CI installs twine (apt-get install twine); a developer's machine without it skips these.
const haveClients = Boolean(twine && python) || Boolean(process.env.CI);

/** A pure-Python wheel and sdist of `Demo_Pkg` 1.0.0, written with Python's zipfile and tarfile. */
const BUILD = String.raw`
import base64, hashlib, io, os, sys, tarfile, zipfile
out = sys.argv[1]
meta = """Metadata-Version: 2.1
Name: Demo_Pkg
Version: 1.0.0
Summary: A demo package for hearth
Home-page: https://old.example/demo
Author: Alice
Author-email: alice@example.com
License: MIT
Project-URL: Homepage, https://demo.example/home
Requires-Python: >=3.7
Classifier: Programming Language :: Python :: 3
Description-Content-Type: text/markdown

# Demo

A package built by hand.
"""
init = "VALUE = 'hello from hearth'\n"
wheel = "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
di = "demo_pkg-1.0.0.dist-info"
files = {"demo_pkg/__init__.py": init, di + "/METADATA": meta, di + "/WHEEL": wheel}
def rec(data):
    d = base64.urlsafe_b64encode(hashlib.sha256(data.encode()).digest()).rstrip(b"=").decode()
    return "sha256=%s,%d" % (d, len(data.encode()))
record = "".join("%s,%s\n" % (n, rec(c)) for n, c in files.items()) + di + "/RECORD,,\n"
with zipfile.ZipFile(os.path.join(out, "demo_pkg-1.0.0-py3-none-any.whl"), "w", zipfile.ZIP_DEFLATED) as z:
    for n, c in files.items():
        z.writestr(n, c)
    z.writestr(di + "/RECORD", record)
with tarfile.open(os.path.join(out, "demo_pkg-1.0.0.tar.gz"), "w:gz") as t:
    for n, c in {"PKG-INFO": meta, "demo_pkg/__init__.py": init, "setup.py": "from setuptools import setup\nsetup()\n"}.items():
        data = c.encode()
        info = tarfile.TarInfo("demo_pkg-1.0.0/" + n)
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
`;

/** A client run without blocking: the server answering it lives in this process. */
async function run(cmd: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  const p = Bun.spawn(cmd, { env: { ...process.env, ...env }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, out: `${out}${err}` };
}

describe.skipIf(!haveClients)("PyPI registry with twine and pip", () => {
  const t = makeTestApp("", { listen: true });

  test("twine uploads a wheel and an sdist; pip downloads and installs from a private owner with basic auth", async () => {
    if (!twine || !python) throw new Error("twine and python3 are needed: apt-get install twine");
    const owner = await t.user("pyowner");
    await t.ok("PATCH", "/api/v1/admin/users/pyowner", t.token(await t.user("pyadmin", { admin: true })), {
      login_name: "pyowner",
      source_id: 0,
      visibility: "private",
    });
    const token = t.token(owner, ["write:package"]);
    const work = mkdtempSync(join(tmpdir(), "hearth-pypi-"));
    const dist = join(work, "dist");
    mkdirSync(dist);
    expect(await run([python, "-c", BUILD, dist], {})).toEqual({ code: 0, out: "" });
    const files = readdirSync(dist).sort();
    expect(files).toEqual(["demo_pkg-1.0.0-py3-none-any.whl", "demo_pkg-1.0.0.tar.gz"]);

    const repo = `${t.baseUrl}api/packages/pyowner/pypi`;
    const clientEnv = {
      HOME: work,
      TWINE_USERNAME: "pyowner",
      TWINE_PASSWORD: token,
      PYTHON_KEYRING_BACKEND: "keyring.backends.null.Keyring",
      NO_PROXY: "127.0.0.1",
      PIP_CONFIG_FILE: "/dev/null",
      PIP_FIND_LINKS: "",
      PIP_NO_CACHE_DIR: "1",
      PIP_DISABLE_PIP_VERSION_CHECK: "1",
      PIP_NO_INPUT: "1",
    };
    const up = (...args: string[]) =>
      run([twine, "upload", "--non-interactive", "--disable-progress-bar", "--repository-url", repo, ...args, ...files.map((f) => join(dist, f))], clientEnv);
    const first = await up();
    expect({ code: first.code, out: first.code ? first.out : "" }).toEqual({ code: 0, out: "" });
    // The same files again: twine reports hearth's 409; --skip-existing passes over them.
    const again = await up();
    expect(again.code).not.toBe(0);
    expect(again.out).toContain("409");
    expect((await up("--skip-existing")).code).toBe(0);
    // A read-only token cannot upload.
    const readOnly = await run([twine, "upload", "--non-interactive", "--disable-progress-bar", "--repository-url", repo, join(dist, files[0]!)], {
      ...clientEnv,
      TWINE_PASSWORD: t.token(owner, ["read:package"]),
    });
    expect(readOnly.code).not.toBe(0);
    expect(readOnly.out).toContain("403");

    // What twine sent was recorded: the name as the metadata spells it (normalised), the metadata, the digests.
    const pkg = pkgModel.getPackage(t.env.db, owner.id, "pypi", "demo-pkg")!;
    expect(pkg.name).toBe("Demo-Pkg");
    const version = pkgModel.getVersion(t.env.db, pkg.id, "1.0.0")!;
    expect(JSON.parse(version.metadataJson)).toMatchObject({
      summary: "A demo package for hearth",
      author: "Alice",
      author_email: "alice@example.com",
      requires_python: ">=3.7",
      project_url: "https://demo.example/home",
      classifiers: ["Programming Language :: Python :: 3"],
    });
    const stored = pkgModel.listFiles(t.env.db, version.id);
    expect(stored.map((f) => f.file.name).sort()).toEqual(files);
    for (const f of stored) expect(f.blob.hashSha256).toBe(sha256(readFileSync(join(dist, f.file.name))));

    // pip, with the owner's credentials in the index URL (the owner is private).
    const index = `http://pyowner:${token}@${t.baseUrl.slice("http://".length)}api/packages/pyowner/pypi/simple/`;
    const downloads = join(work, "downloads");
    const dl = await run([python, "-m", "pip", "download", "--no-deps", "--index-url", index, "-d", downloads, "demo-pkg==1.0.0"], clientEnv);
    expect({ code: dl.code, out: dl.code ? dl.out : "" }).toEqual({ code: 0, out: "" });
    expect(readdirSync(downloads)).toEqual(["demo_pkg-1.0.0-py3-none-any.whl"]);
    expect(readFileSync(join(downloads, files[0]!))).toEqual(readFileSync(join(dist, files[0]!)));

    const target = join(work, "site");
    const inst = await run([python, "-m", "pip", "install", "--no-deps", "--index-url", index, "--target", target, "Demo.Pkg==1.0.0"], clientEnv);
    expect({ code: inst.code, out: inst.code ? inst.out : "" }).toEqual({ code: 0, out: "" });
    const imported = await run([python, "-c", "import demo_pkg; print(demo_pkg.VALUE)"], { PYTHONPATH: target });
    expect(imported.out.trim()).toBe("hello from hearth");

    // Without credentials the private owner's index is refused (401): pip finds nothing there.
    const anon = await run([python, "-m", "pip", "download", "--no-deps", "--index-url", `${t.baseUrl}api/packages/pyowner/pypi/simple/`, "-d", join(work, "x"), "demo-pkg==1.0.0"], clientEnv);
    expect(anon.code).not.toBe(0);
    expect(anon.out).toContain("No matching distribution found for demo-pkg==1.0.0");
    expect(pkgModel.getVersion(t.env.db, pkg.id, "1.0.0")!.downloadCount).toBe(2);
    rmSync(work, { recursive: true, force: true });
  });
});
