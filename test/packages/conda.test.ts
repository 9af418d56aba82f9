import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp, type TestApp } from "../support/app.ts";
import * as pkgModel from "../../src/models/package.ts";
import { PackagePropertyRef } from "../../src/db/schema/index.ts";
import { condaOf, tarBz2Of, zipOf } from "./conda-archives.ts";

const P = "/api/packages";
const md5 = (b: Uint8Array) => new Bun.CryptoHasher("md5").update(b).digest("hex");
const sha256 = (b: Uint8Array) => new Bun.CryptoHasher("sha256").update(b).digest("hex");

function tmpFiles(t: TestApp): string[] {
  const dir = join(t.settings.server.appDataPath, "packages", "tmp");
  return existsSync(dir) ? readdirSync(dir) : [];
}

const INDEX = {
  name: "test_package",
  version: "1.0.1",
  subdir: "noarch",
  build: "xxx",
  build_number: 3,
  depends: ["python >=3.8", "numpy"],
  license: "MIT",
  license_family: "MIT",
  noarch: "python",
  timestamp: 1700000000000,
};

describe("Conda registry over HTTP", () => {
  const t = makeTestApp("[packages]\nLIMIT_SIZE_CONDA = 256 KiB\n");

  test("upload a .conda with and without a channel (Gitea's test), 401/409, downloads and repodata", async () => {
    const alice = await t.user("alice");
    const token = t.token(alice, ["write:package"]);
    const about = JSON.stringify({ summary: "A test", description: "Longer", home: "https://example.com/", dev_url: "not a url", doc_url: "http://docs.example/" });
    const pkg = condaOf([
      ["info/files", "lib/file.txt\n"],
      ["info/index.json", JSON.stringify(INDEX)],
      ["info/about.json", about],
    ]);
    const root = `${P}/alice/conda`;
    expect((await t.request("PUT", `${root}/test_package-1.0.1.conda`, { body: pkg })).status).toBe(401);
    expect((await t.request("PUT", `${root}/test_package-1.0.1.conda`, { token, body: pkg })).status).toBe(201);
    const dup = await t.request("PUT", `${root}/anything.conda`, { token, body: pkg });
    expect(dup.status).toBe(409);
    expect(await dup.json()).toEqual({ reason: "Conflict", message: "package file already exists" });
    expect((await t.request("PUT", `${root}/test-channel/sub/test_package-1.0.1.conda`, { token, body: pkg })).status).toBe(201);

    const plain = pkgModel.getPackage(t.env.db, alice.id, "conda", "test_package")!;
    const channelled = pkgModel.getPackage(t.env.db, alice.id, "conda", "test-channel/sub/test_package")!;
    expect(channelled.name).toBe("test-channel/sub/test_package");
    const props = (id: number) => pkgModel.listProperties(t.env.db, PackagePropertyRef.Package, id).map((p) => [p.name, p.value]);
    expect(props(plain.id)).toEqual([["conda.name", "test_package"], ["conda.channel", ""]]);
    expect(props(channelled.id)).toEqual([["conda.name", "test_package"], ["conda.channel", "test-channel/sub"]]);
    const version = pkgModel.getVersion(t.env.db, plain.id, "1.0.1")!;
    expect(JSON.parse(version.metadataJson)).toEqual({
      summary: "A test",
      description: "Longer",
      project_url: "https://example.com/",
      documentation_url: "http://docs.example/",
      license: "MIT",
      license_family: "MIT",
    });
    const files = pkgModel.listFiles(t.env.db, version.id);
    expect(files.map((f) => [f.file.name, f.file.compositeKey, f.file.isLead])).toEqual([["test_package-1.0.1-xxx.conda", "noarch", true]]);
    expect(Object.fromEntries(pkgModel.listProperties(t.env.db, PackagePropertyRef.File, files[0]!.file.id).map((p) => [p.name, p.value]))).toEqual({
      "conda.subdir": "noarch",
      "conda.metdata": JSON.stringify({
        noarch: "python",
        build: "xxx",
        build_number: 3,
        dependencies: ["python >=3.8", "numpy"],
        timestamp: 1700000000000,
        is_conda: true,
      }),
    });

    // Downloads: by channel, subdir and the stored name.
    const got = await t.request("GET", `${root}/noarch/test_package-1.0.1-xxx.conda`);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(Buffer.from(pkg))).toBe(true);
    expect((await t.request("GET", `${root}/test-channel/sub/noarch/test_package-1.0.1-xxx.conda`)).status).toBe(200);
    expect((await t.request("HEAD", `${root}/noarch/test_package-1.0.1-xxx.conda`)).status).toBe(200);
    expect(pkgModel.getVersion(t.env.db, plain.id, "1.0.1")!.downloadCount).toBe(1);
    expect((await t.request("GET", `${root}/test-channel/noarch/test_package-1.0.1-xxx.conda`)).status).toBe(404);
    expect((await t.request("GET", `${root}/linux-64/test_package-1.0.1-xxx.conda`)).status).toBe(404);
    expect((await t.request("GET", `${root}/noarch/other.txt`)).status).toBe(404);

    // repodata.json for each channel and subdir.
    for (const [prefix, name] of [["", "test_package"], ["test-channel/sub/", "test_package"]] as const) {
      for (const file of ["repodata.json", "current_repodata.json"]) {
        const res = await t.request("GET", `${root}/${prefix}noarch/${file}`);
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toBe("application/json");
        expect(await res.json()).toEqual({
          info: { subdir: "noarch" },
          packages: {},
          "packages.conda": {
            "test_package-1.0.1-xxx.conda": {
              name,
              version: "1.0.1",
              noarch: "python",
              subdir: "noarch",
              timestamp: 1700000000000,
              build: "xxx",
              build_number: 3,
              depends: ["python >=3.8", "numpy"],
              license: "MIT",
              license_family: "MIT",
              md5: md5(pkg),
              sha256: sha256(pkg),
              size: pkg.length,
            },
          },
          removed: {},
        });
      }
    }
    // The .bz2 forms: the same document, bzip2-compressed (read back with the system's bzip2).
    for (const file of ["repodata.json.bz2", "current_repodata.json.bz2"]) {
      const res = await t.request("GET", `${root}/noarch/${file}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/x-bzip2");
      const plain = Bun.spawnSync(["bzip2", "-dc"], { stdin: new Uint8Array(await res.arrayBuffer()) });
      expect(plain.exitCode).toBe(0);
      expect(plain.stdout.toString()).toBe(await (await t.request("GET", `${root}/noarch/repodata.json`)).text());
    }
    expect((await t.request("GET", `${root}/linux-64/repodata.json.bz2`)).status).toBe(404);
    const empty = await t.request("GET", `${root}/linux-64/repodata.json`);
    expect(empty.status).toBe(404);
    expect(((await empty.json()) as any).reason).toBe("Not Found");
    expect((await t.request("GET", `${root}/other-channel/noarch/repodata.json`)).status).toBe(404);
    expect(tmpFiles(t)).toEqual([]);
  });

  test("Gitea's test: a .tar.bz2 without a channel and a .conda in one, each found only where it was put", async () => {
    const gitea = await t.user("gitea");
    const token = t.token(gitea, ["write:package"]);
    const index = JSON.stringify({ name: "test_package", version: "1.0.1", subdir: "noarch", build: "xxx" });
    const bz2 = tarBz2Of([["info/index.json", index]]);
    const conda = condaOf([["info/index.json", index]]);
    const root = `${P}/gitea/conda`;
    expect((await t.request("PUT", `${root}/test_package-1.0.1.tar.bz2`, { body: bz2 })).status).toBe(401);
    expect((await t.request("PUT", `${root}/test_package-1.0.1.tar.bz2`, { token, body: bz2 })).status).toBe(201);
    expect((await t.request("PUT", `${root}/test_package-1.0.1.tar.bz2`, { token, body: bz2 })).status).toBe(409);
    expect((await t.request("PUT", `${root}/test-channel/test_package-1.0.1.conda`, { token, body: conda })).status).toBe(201);
    expect((await t.request("PUT", `${root}/test-channel/test_package-1.0.1.conda`, { token, body: conda })).status).toBe(409);
    expect(pkgModel.searchVersions(t.env.db, { ownerId: gitea.id, type: "conda", offset: 0, limit: 10 }).total).toBe(2);

    expect((await t.request("GET", `${root}/noarch/test_package-1.0.1-xxx.tar.bz2`)).status).toBe(200);
    expect((await t.request("GET", `${root}/test-channel/noarch/test_package-1.0.1-xxx.tar.bz2`)).status).toBe(404);
    expect((await t.request("GET", `${root}/noarch/test_package-1.0.1-xxx.conda`)).status).toBe(404);
    expect((await t.request("GET", `${root}/test-channel/noarch/test_package-1.0.1-xxx.conda`)).status).toBe(200);

    const plain: any = await (await t.request("GET", `${root}/noarch/repodata.json`)).json();
    expect(plain["packages.conda"]).toEqual({});
    expect(plain.packages["test_package-1.0.1-xxx.tar.bz2"]).toMatchObject({ name: "test_package", version: "1.0.1", subdir: "noarch", build: "xxx", sha256: sha256(bz2), md5: md5(bz2), size: bz2.length });
    const channelled: any = await (await t.request("GET", `${root}/test-channel/noarch/repodata.json`)).json();
    expect(channelled.packages).toEqual({});
    expect(channelled["packages.conda"]["test_package-1.0.1-xxx.conda"]).toMatchObject({ name: "test_package", sha256: sha256(conda), size: conda.length });
  });

  test("Gitea's minimal package (index.json only, a stored zip member), and a second build in the same version", async () => {
    const bob = await t.user("bob");
    const token = t.token(bob, ["write:package"]);
    const index = { name: "test_package", version: "1.0.1", subdir: "linux-64", build: "xxx" };
    const a = condaOf([["info/index.json", JSON.stringify(index)]], { method: 0 });
    const b = condaOf([["info/index.json", JSON.stringify({ ...index, build: "yyy", depends: ["libc"] })]]);
    expect((await t.request("PUT", `${P}/bob/conda/x.conda`, { token, body: a })).status).toBe(201);
    expect((await t.request("PUT", `${P}/bob/conda/y.conda`, { token, body: b })).status).toBe(201);
    const repo: any = await (await t.request("GET", `${P}/bob/conda/linux-64/repodata.json`)).json();
    expect(Object.keys(repo["packages.conda"])).toEqual(["test_package-1.0.1-xxx.conda", "test_package-1.0.1-yyy.conda"]);
    expect(repo["packages.conda"]["test_package-1.0.1-xxx.conda"]).toMatchObject({ depends: [], build_number: 0, noarch: "", license: "" });
    expect(repo["packages.conda"]["test_package-1.0.1-yyy.conda"].depends).toEqual(["libc"]);
    expect(pkgModel.searchVersions(t.env.db, { ownerId: bob.id, type: "conda", offset: 0, limit: 10 }).total).toBe(1);
  });

  test("refusals: bad names and versions, broken archives, wrong paths, limits", async () => {
    const carol = await t.user("carol");
    const token = t.token(carol, ["write:package"]);
    const put = async (path: string, body: Uint8Array) => {
      const res = await t.request("PUT", `${P}/carol/conda/${path}`, { token, body });
      return { status: res.status, body: await res.text() };
    };
    const withIndex = (o: object) => condaOf([["info/index.json", JSON.stringify({ ...INDEX, ...o })]]);
    for (const name of ["Test_Package", "bad!name", "a b", "", "x/y"]) {
      expect(await put("p.conda", withIndex({ name }))).toEqual({ status: 400, body: JSON.stringify({ reason: "Bad Request", message: "package name is invalid" }) });
    }
    for (const version of ["1.0-1", "", "1:2", "1 2"]) {
      expect((await put("p.conda", withIndex({ version }))).body).toContain("package version is invalid");
    }
    expect((await put("p.conda", condaOf([["info/about.json", "{}"]]))).body).toContain("package structure is invalid");
    expect((await put("p.conda", condaOf([["info/index.json", JSON.stringify(INDEX)]], { infoName: "other.tar.zst" }))).body).toContain(
      "package structure is invalid",
    );
    expect((await put("p.conda", condaOf([["info/index.json", "{not json"]]))).status).toBe(400);
    expect((await put("p.conda", condaOf([["info/index.json", JSON.stringify({ ...INDEX, build_number: "3" })]]))).status).toBe(400);
    expect((await put("p.conda", new TextEncoder().encode("not a zip at all"))).status).toBe(400);
    // A zip whose info member is not zstd, or whose zstd holds no tar.
    expect((await put("p.conda", zipOf([["info-x.tar.zst", new TextEncoder().encode("garbage, not zstd")]]))).status).toBe(400);
    expect((await put("p.conda", zipOf([["info-x.tar.zst", Bun.zstdCompressSync(new Uint8Array(700).fill(65))]]))).status).toBe(400);
    expect((await put("p.conda", new Uint8Array(0))).status).toBe(400);
    expect((await put("p.zip", withIndex({}))).status).toBe(404);
    expect(await put("p.tar.bz2", withIndex({}))).toEqual({ status: 400, body: JSON.stringify({ reason: "Bad Request", message: "not bzip2 data" }) });
    expect((await put("p.tar.bz2", tarBz2Of([["info/index.json", JSON.stringify({ ...INDEX, name: "Bad" })]]))).body).toContain("package name is invalid");
    expect((await put("p.tar.bz2", tarBz2Of([["info/about.json", "{}"]]))).body).toContain("package structure is invalid");
    const truncated = tarBz2Of([["info/index.json", JSON.stringify(INDEX)]]);
    expect((await put("p.tar.bz2", truncated.subarray(0, truncated.length - 20))).status).toBe(400);
    expect((await put("p.conda", new Uint8Array(300 * 1024))).status).toBe(403);
    expect(pkgModel.searchVersions(t.env.db, { ownerId: carol.id, type: "conda", offset: 0, limit: 10 }).total).toBe(0);
    expect(tmpFiles(t)).toEqual([]);
  });

  test("only those who may write the owner's packages upload; anyone reads a public owner's channel", async () => {
    const dave = await t.user("dave");
    const token = t.token(dave, ["write:package"]);
    expect((await t.request("PUT", `${P}/dave/conda/p.conda`, { token, body: condaOf([["info/index.json", JSON.stringify(INDEX)]]) })).status).toBe(201);
    const other = t.token(await t.user("erin"), ["write:package"]);
    expect((await t.request("PUT", `${P}/dave/conda/p.conda`, { token: other, body: condaOf([["info/index.json", "{}"]]) })).status).toBe(403);
    expect((await t.request("GET", `${P}/dave/conda/noarch/repodata.json`)).status).toBe(200);
  });

  test.skipIf(!Bun.which("cph") && !process.env.CI)("packages made by conda-package-handling (cph), .conda and .tar.bz2, are read", async () => {
    const frank = await t.user("frank");
    const token = t.token(frank, ["write:package"]);
    const dir = mkdtempSync(join(tmpdir(), "conda-cph-"));
    try {
      const prefix = join(dir, "prefix");
      mkdirSync(join(prefix, "info"), { recursive: true });
      mkdirSync(join(prefix, "lib"), { recursive: true });
      writeFileSync(join(prefix, "lib", "hello.txt"), "hello\n".repeat(5000));
      writeFileSync(join(prefix, "info", "index.json"), JSON.stringify({ ...INDEX, name: "hello", version: "2.0", subdir: "linux-64", build: "h123_0" }));
      writeFileSync(join(prefix, "info", "about.json"), JSON.stringify({ summary: "made by cph", home: "https://hello.example/" }));
      writeFileSync(join(prefix, "info", "files"), "lib/hello.txt\n");
      for (const out of ["hello-2.0-h123_0.conda", "hello-2.0-h123_0.tar.bz2"]) {
        expect(Bun.spawnSync(["cph", "create", prefix, out, "--out-folder", dir]).exitCode).toBe(0);
      }
      const bz2 = readFileSync(join(dir, "hello-2.0-h123_0.tar.bz2"));
      expect((await t.request("PUT", `${P}/frank/conda/main/hello-2.0-h123_0.tar.bz2`, { token, body: bz2 })).status).toBe(201);
      const body = readFileSync(join(dir, "hello-2.0-h123_0.conda"));
      expect((await t.request("PUT", `${P}/frank/conda/main/hello-2.0-h123_0.conda`, { token, body })).status).toBe(201);
      const repo: any = await (await t.request("GET", `${P}/frank/conda/main/linux-64/repodata.json`)).json();
      expect(repo["packages.conda"]["hello-2.0-h123_0.conda"]).toMatchObject({ name: "hello", version: "2.0", build: "h123_0", sha256: sha256(body) });
      expect(repo.packages["hello-2.0-h123_0.tar.bz2"]).toMatchObject({ name: "hello", version: "2.0", build: "h123_0", sha256: sha256(bz2) });
      const pkg = pkgModel.getPackage(t.env.db, frank.id, "conda", "main/hello")!;
      expect(JSON.parse(pkgModel.getVersion(t.env.db, pkg.id, "2.0")!.metadataJson)).toMatchObject({ summary: "made by cph", project_url: "https://hello.example/" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
