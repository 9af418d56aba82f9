import { expect, test } from "bun:test";
import { base64Chunks, isBase64, isValidNpmName, parseIntegrity, parseNpmPublish, repositoryOfUrl, splitNpmPath, splitScope } from "./npm-package.ts";

test("names: npm's rules, scoped or not", () => {
  for (const ok of ["a", "test-package", "@scope/test-package", "-x", "a.b_c"]) expect(isValidNpmName(ok)).toBe(true);
  for (const bad of ["", "A", "a b", "@scope", "@/x", "@scope/", " a", "a/b", ".x", "_x", "x".repeat(215)]) expect(isValidNpmName(bad)).toBe(false);
  expect(splitScope("@s/n")).toEqual({ scope: "@s", name: "n" });
  expect(splitScope("n")).toEqual({ scope: "", name: "n" });
});

test("paths: a scoped name as one escaped segment or two, the rest decoded", () => {
  expect(splitNpmPath("@scope%2fname")).toEqual({ name: "@scope/name", tail: [] });
  expect(splitNpmPath("%40scope%2Fname/-/1.0.0/name-1.0.0.tgz")).toEqual({ name: "@scope/name", tail: ["-", "1.0.0", "name-1.0.0.tgz"] });
  expect(splitNpmPath("@scope/name/-rev/3-abc")).toEqual({ name: "@scope/name", tail: ["-rev", "3-abc"] });
  expect(splitNpmPath("plain/")).toEqual({ name: "plain", tail: [] });
  expect(splitNpmPath("plain/-/plain-1.0.0.tgz")).toEqual({ name: "plain", tail: ["-", "plain-1.0.0.tgz"] });
  expect(splitNpmPath("")).toBeUndefined();
  expect(splitNpmPath("@scope")).toBeUndefined();
  expect(splitNpmPath("bad%zz")).toBeUndefined();
});

test("integrity: sha512 or sha1 in base64, as hex", () => {
  const bytes = new TextEncoder().encode("x");
  const sha512 = new Bun.CryptoHasher("sha512").update(bytes).digest();
  expect(parseIntegrity(`sha512-${sha512.toString("base64")}`)).toEqual({ algorithm: "sha512", hex: sha512.toString("hex") });
  expect(parseIntegrity("sha256-abcd")).toBeUndefined();
  expect(parseIntegrity("sha512-abcd")).toBeUndefined();
  expect(parseIntegrity("nonsense")).toBeUndefined();
  expect(isBase64("aGk=")).toBe(true);
  expect(isBase64("aGk")).toBe(false);
  expect(isBase64("a*k=")).toBe(false);
});

test("base64 decodes a slice at a time into the same bytes", async () => {
  const bytes = crypto.getRandomValues(new Uint8Array(10_001));
  const parts: Uint8Array[] = [];
  for await (const p of base64Chunks(Buffer.from(bytes).toString("base64"), 400)) parts.push(p);
  expect(parts.length).toBeGreaterThan(1);
  expect(new Uint8Array(Buffer.concat(parts))).toEqual(bytes);
  await expect(base64Chunks("", 3).next()).rejects.toThrow();
});

test("a publish document: first version, its metadata under Gitea's keys, the tags, the file name", () => {
  const p = parseNpmPublish({
    "dist-tags": { latest: "1.0.0", next: "1.0.0" },
    versions: {
      "v1.0": {
        name: "@scope/Thing".toLowerCase(),
        version: "v1.0",
        description: "d",
        author: "Someone <a@b.c>",
        license: { type: "MIT" },
        homepage: "javascript:alert(1)",
        bin: "./cli.js",
        devDependencies: { x: "1", y: 2 },
        scripts: { postinstall: "node x" },
        repository: "github:o/r",
        dist: { integrity: `sha1-${Buffer.alloc(20).toString("base64")}` },
      },
    },
    _attachments: { "whatever.tgz": { data: "aGk=" } },
  });
  expect(p).toMatchObject({ name: "@scope/thing", version: "1.0.0", distTags: ["latest", "next"], filename: "thing-1.0.0.tgz", data: "aGk=" });
  expect(p.integrity).toEqual({ algorithm: "sha1", hex: "0".repeat(40) });
  expect(p.metadata).toEqual({
    scope: "@scope",
    name: "thing",
    description: "d",
    author: "Someone <a@b.c>",
    license: "MIT",
    bin: { thing: "./cli.js" },
    development_dependencies: { x: "1" },
    has_install_script: true,
    repository: { type: "", url: "github:o/r" },
  });
});

test("a manifest's repository URL names a repository of this site", () => {
  const app = "http://hearth.test/";
  expect(repositoryOfUrl("http://hearth.test/alice/tools.git", app)).toEqual({ owner: "alice", repo: "tools" });
  expect(repositoryOfUrl("git+http://hearth.test/alice/tools", app)).toEqual({ owner: "alice", repo: "tools" });
  expect(repositoryOfUrl("http://elsewhere.test/alice/tools.git", app)).toBeUndefined();
  expect(repositoryOfUrl("http://hearth.test/alice/tools/tree/main", app)).toBeUndefined();
  expect(repositoryOfUrl("http://hearth.test/alice/.git", app)).toBeUndefined();
});
