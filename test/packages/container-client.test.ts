import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";

// The real client: skopeo (Debian's) copies an OCI layout made here by hand (oci-layout,
// index.json, a config blob and a tiny tar.gz layer) to a listening hearth, under a nested image
// name, lists its tags, and copies it back out; the digests must come back unchanged. skopeo gets
// its own HOME, auth file and signature policy, so nothing of the machine's is read or written.

const t = makeTestApp("", { listen: true });
const dir = mkdtempSync(join(tmpdir(), "hearth-skopeo-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const hex = (b: string | Uint8Array) => new Bun.CryptoHasher("sha256").update(b).digest("hex");

async function skopeo(args: string[]): Promise<{ code: number; out: string; stdout: string }> {
  const home = join(dir, "home");
  mkdirSync(home, { recursive: true });
  const policy = join(dir, "policy.json");
  writeFileSync(policy, JSON.stringify({ default: [{ type: "insecureAcceptAnything" }] }));
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, REGISTRY_AUTH_FILE: join(home, "auth.json") };
  const proc = Bun.spawn(["skopeo", "--policy", policy, ...args], { env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out: stdout + stderr, stdout };
}

async function mustSkopeo(args: string[]): Promise<string> {
  const r = await skopeo(args);
  if (r.code !== 0) throw new Error(`skopeo ${args.join(" ")} failed (${r.code}):\n${r.out.slice(-4000)}`);
  return r.stdout;
}

/** One-file tar, gzipped: the layer. */
async function tinyLayer(): Promise<{ gz: Uint8Array; diffId: string }> {
  const src = join(dir, "layer-src");
  mkdirSync(src, { recursive: true });
  writeFileSync(join(src, "hello.txt"), "hello from a hearth layer\n");
  const tarPath = join(dir, "layer.tar");
  const p = Bun.spawn(["tar", "-cf", tarPath, "-C", src, "hello.txt"], { stdout: "ignore", stderr: "inherit" });
  expect(await p.exited).toBe(0);
  const tar = readFileSync(tarPath);
  return { gz: Bun.gzipSync(tar), diffId: `sha256:${hex(tar)}` };
}

function writeBlob(layout: string, data: string | Uint8Array): string {
  const h = hex(data);
  writeFileSync(join(layout, "blobs", "sha256", h), data);
  return `sha256:${h}`;
}

describe("skopeo against hearth", () => {
  test("copy an OCI layout in, list its tags, copy it back out with the same digests", async () => {
    const alice = await t.user("alice");
    const token = t.token(alice, ["write:package"]);
    const layout = join(dir, "src");
    mkdirSync(join(layout, "blobs", "sha256"), { recursive: true });
    writeFileSync(join(layout, "oci-layout"), JSON.stringify({ imageLayoutVersion: "1.0.0" }));
    const layer = await tinyLayer();
    const layerDigest = writeBlob(layout, layer.gz);
    const config = JSON.stringify({ architecture: "amd64", os: "linux", config: {}, rootfs: { type: "layers", diff_ids: [layer.diffId] } });
    const configDigest = writeBlob(layout, config);
    const manifest = JSON.stringify({
      schemaVersion: 2,
      mediaType: "application/vnd.oci.image.manifest.v1+json",
      config: { mediaType: "application/vnd.oci.image.config.v1+json", digest: configDigest, size: config.length },
      layers: [{ mediaType: "application/vnd.oci.image.layer.v1.tar+gzip", digest: layerDigest, size: layer.gz.byteLength }],
    });
    const manifestDigest = writeBlob(layout, manifest);
    writeFileSync(
      join(layout, "index.json"),
      JSON.stringify({
        schemaVersion: 2,
        manifests: [{ mediaType: "application/vnd.oci.image.manifest.v1+json", digest: manifestDigest, size: manifest.length, annotations: { "org.opencontainers.image.ref.name": "v1" } }],
      }),
    );

    const host = t.baseUrl.replace(/^http:\/\//, "").replace(/\/$/, "");
    const ref = `docker://${host}/alice/tools/img`;
    const creds = `alice:${token}`;
    await mustSkopeo(["copy", `oci:${layout}:v1`, `${ref}:v1`, "--dest-tls-verify=false", "--dest-creds", creds]);
    await mustSkopeo(["copy", `oci:${layout}:v1`, `${ref}:latest`, "--dest-tls-verify=false", "--dest-creds", creds]);

    const tags = JSON.parse(await mustSkopeo(["list-tags", "--tls-verify=false", "--creds", creds, ref]));
    expect(tags.Tags).toEqual(["latest", "v1"]);
    const inspected = JSON.parse(await mustSkopeo(["inspect", "--tls-verify=false", "--creds", creds, `${ref}:v1`]));
    expect(inspected.Digest).toBe(manifestDigest);

    const out = join(dir, "out");
    await mustSkopeo(["copy", `${ref}:v1`, `oci:${out}:v1`, "--src-tls-verify=false", "--src-creds", creds]);
    const index = JSON.parse(readFileSync(join(out, "index.json"), "utf8"));
    expect(index.manifests[0].digest).toBe(manifestDigest);
    for (const d of [manifestDigest, configDigest, layerDigest]) {
      const bytes = readFileSync(join(out, "blobs", "sha256", d.slice(7)));
      expect(`sha256:${hex(bytes)}`).toBe(d);
    }

    // Anonymous reads of a public image work through the token dance too.
    const anon = JSON.parse(await mustSkopeo(["list-tags", "--tls-verify=false", "--no-creds", ref]));
    expect(anon.Tags).toEqual(["latest", "v1"]);
    // Someone else's credentials may not push.
    await t.user("bob");
    const denied = await skopeo(["copy", `oci:${layout}:v1`, `docker://${host}/alice/other:v1`, "--dest-tls-verify=false", "--dest-creds", "bob:password123"]);
    expect(denied.code).not.toBe(0);

    // Deleting the tag's manifest by skopeo.
    await mustSkopeo(["delete", "--tls-verify=false", "--creds", creds, `${ref}:v1`]);
    const after = await skopeo(["inspect", "--tls-verify=false", "--creds", creds, `${ref}:latest`]);
    expect(after.code).not.toBe(0);
  });
});
