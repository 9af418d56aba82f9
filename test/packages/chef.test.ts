import { beforeAll, describe, expect, test } from "bun:test";
import { constants, createHash, generateKeyPairSync, privateEncrypt, sign as rsaSign } from "node:crypto";
import { makeTestApp, type TestApp } from "../support/app.ts";
import { signedIn } from "../support/web.ts";
import * as pkgModel from "../../src/models/package.ts";
import { chefPublicKey, setChefPublicKey } from "../../src/services/packages/chef/keys.ts";
import type { UserRow } from "../../src/db/schema/index.ts";

const P = "/api/packages";

// ── a cookbook archive, by hand: ustar members, gzipped ──

function tarHeader(name: string, size: number, type = "0"): Uint8Array {
  const h = new Uint8Array(512);
  const put = (off: number, text: string) => h.set(new TextEncoder().encode(text), off);
  put(0, name);
  put(100, "0000644\0");
  put(108, "0000000\0");
  put(116, "0000000\0");
  put(124, `${size.toString(8).padStart(11, "0")}\0`);
  put(136, "00000000000\0");
  put(148, "        ");
  put(156, type);
  put(257, "ustar\0");
  put(263, "00");
  let sum = 0;
  for (const b of h) sum += b;
  put(148, `${sum.toString(8).padStart(6, "0")}\0 `);
  return h;
}

function tarGz(files: [name: string, content: string][]): Uint8Array {
  const blocks: Uint8Array[] = [];
  for (const [name, content] of files) {
    const data = new TextEncoder().encode(content);
    blocks.push(tarHeader(name, data.byteLength), data, new Uint8Array((512 - (data.byteLength % 512)) % 512));
  }
  blocks.push(new Uint8Array(1024));
  return Bun.gzipSync(Buffer.concat(blocks));
}

function cookbook(version: string, extra: Record<string, unknown> = {}, name = "test"): Uint8Array {
  const metadata = { name, version, description: "Test Description", maintainer: "KN4CK3R", license: "MIT", dependencies: { apt: ">= 1.0" }, ...extra };
  return tarGz([
    [`${name}/README.md`, "# test"],
    [`${name}/recipes/metadata.json`, "{}"],
    [`${name}/metadata.json`, JSON.stringify(metadata)],
  ]);
}

/** knife's `supermarket share` form: the bytes and their Content-Type. */
async function shareForm(archive: Uint8Array, field = "tarball"): Promise<{ body: Uint8Array; type: string }> {
  const f = new FormData();
  f.append("cookbook", JSON.stringify({ category: "" }));
  f.append(field, new File([archive], "test.tgz", { type: "application/x-binary" }));
  const res = new Response(f);
  // Bun sets the type (with the boundary) only until the body is read: taken first.
  const type = res.headers.get("content-type")!;
  return { body: new Uint8Array(await res.arrayBuffer()), type };
}

// ── signers ──

/** mixlib-authentication (knife's own signer) run by ruby: the headers for one request. */
const RUBY_SIGNER = `
require "openssl"
require "json"
require "base64"
require "mixlib/authentication/signedheaderauth"
a = JSON.parse(STDIN.read)
key = OpenSSL::PKey::RSA.new(a["key"])
obj = Mixlib::Authentication::SignedHeaderAuth.signing_object(
  http_method: a["method"].downcase.to_sym, path: a["path"], body: Base64.decode64(a["body"]),
  timestamp: a["timestamp"], user_id: a["user"], proto_version: a["version"],
  headers: { "X-Ops-Server-API-Version" => "1" })
alg = a["version"] == "1.3" ? "sha256" : "sha1"
STDOUT.write(JSON.generate(obj.sign(key, sign_algorithm: alg, sign_version: a["version"])))
`;

const hasRuby = Bun.spawnSync(["ruby", "-ropenssl", "-e", 'require "mixlib/authentication/signedheaderauth"'], { stderr: "ignore", stdout: "ignore" }).exitCode === 0;

interface SignInput {
  method: string;
  path: string;
  body?: Uint8Array;
  key: string;
  user: string;
  version: "1.0" | "1.1" | "1.2" | "1.3";
  timestamp?: string;
}

const nowStamp = (offsetMs = 0) => new Date(Date.now() + offsetMs).toISOString().replace(/\.\d+Z$/, "Z");

function rubySign(s: SignInput): Record<string, string> {
  const run = Bun.spawnSync(["ruby", "-ropenssl", "-e", RUBY_SIGNER], {
    stdin: Buffer.from(
      JSON.stringify({
        method: s.method,
        path: s.path,
        body: Buffer.from(s.body ?? new Uint8Array()).toString("base64"),
        key: s.key,
        user: s.user,
        version: s.version,
        timestamp: s.timestamp ?? nowStamp(),
      }),
    ),
  });
  if (run.exitCode !== 0) throw new Error(`ruby signer: ${run.stderr.toString()}`);
  return { ...JSON.parse(run.stdout.toString()), "X-Ops-Server-API-Version": "1" };
}

/** The same protocol with Node's crypto (1.2 too, which mixlib does not implement). */
function nodeSign(s: SignInput): Record<string, string> {
  const b64 = (alg: string, data: string | Uint8Array) => createHash(alg).update(data).digest("base64");
  const timestamp = s.timestamp ?? nowStamp();
  const alg = s.version === "1.3" ? "sha256" : "sha1";
  const contentHash = b64(alg, s.body ?? new Uint8Array());
  const userId = s.version === "1.1" || s.version === "1.2" ? b64("sha1", s.user) : s.user;
  const text =
    s.version === "1.3"
      ? `Method:${s.method}\nPath:${s.path}\nX-Ops-Content-Hash:${contentHash}\nX-Ops-Sign:version=1.3\nX-Ops-Timestamp:${timestamp}\nX-Ops-UserId:${userId}\nX-Ops-Server-API-Version:1`
      : `Method:${s.method}\nHashed Path:${b64("sha1", s.path)}\nX-Ops-Content-Hash:${contentHash}\nX-Ops-Timestamp:${timestamp}\nX-Ops-UserId:${userId}`;
  const sig =
    s.version === "1.2" || s.version === "1.3"
      ? rsaSign(alg, Buffer.from(text), s.key)
      : privateEncrypt({ key: s.key, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(text));
  const headers: Record<string, string> = {
    "X-Ops-Sign": `algorithm=${alg};version=${s.version}`,
    "X-Ops-Userid": s.user,
    "X-Ops-Timestamp": timestamp,
    "X-Ops-Content-Hash": contentHash,
    "X-Ops-Server-API-Version": "1",
  };
  sig
    .toString("base64")
    .match(/.{1,60}/g)!
    .forEach((piece, i) => (headers[`X-Ops-Authorization-${i + 1}`] = piece));
  return headers;
}

function keyPair(): { pub: string; priv: string } {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
  });
  return { pub: publicKey, priv: privateKey };
}

async function signedRequest(t: TestApp, sign: (s: SignInput) => Record<string, string>, s: Omit<SignInput, "path"> & { path: string; type?: string }) {
  const headers = sign(s);
  if (s.type) headers["Content-Type"] = s.type;
  const res = await t.request(s.method, s.path, { headers, body: s.body });
  const text = await res.text();
  return { status: res.status, text, json: text.startsWith("{") ? JSON.parse(text) : undefined };
}

describe("Chef registry over HTTP", () => {
  const t = makeTestApp("[packages]\nLIMIT_SIZE_CHEF = 64 KiB\n");

  test("upload, 409 again, universe, search, cookbooks, metadata, versions with `_`, download, deletes (Gitea's flow)", async () => {
    const alice = await t.user("alice");
    const token = t.token(alice, ["write:package"]);
    const root = `${P}/alice/chef/api/v1`;
    const base = `${t.settings.server.rootUrl}api/packages/alice/chef/api/v1`;

    const anon = await t.request("POST", `${root}/cookbooks`, { body: new Uint8Array() });
    expect(anon.status).toBe(401);
    expect(anon.headers.get("www-authenticate")).toBe('Basic realm="Gitea Package API"');
    expect(await anon.json()).toEqual({ error_messages: ["reqPackageAccess"] });

    const form = await shareForm(cookbook("1.0.1"));
    const up = await t.json("POST", `${root}/cookbooks`, { token, body: form.body, headers: { "Content-Type": form.type } });
    expect(up).toMatchObject({ status: 201, body: {} });
    const again = await t.json("POST", `${root}/cookbooks`, { token, body: form.body, headers: { "Content-Type": form.type } });
    expect(again).toMatchObject({ status: 409, body: { error_messages: ["package version already exists"] } });

    const pkg = pkgModel.getPackage(t.env.db, alice.id, "chef", "test")!;
    expect(pkg.semverCompatible).toBe(true);
    const [v] = pkgModel.listVersions(t.env.db, pkg.id).rows;
    expect(v!.version).toBe("1.0.1");
    expect(JSON.parse(v!.metadataJson)).toEqual({ description: "Test Description", author: "KN4CK3R", license: "MIT", dependencies: { apt: ">= 1.0" } });
    const files = pkgModel.listFiles(t.env.db, v!.id);
    expect(files.map((f) => [f.file.name, f.file.isLead])).toEqual([["1.0.1.tar.gz", true]]);

    const up2 = await shareForm(cookbook("1.0.10", { source_url: "https://example.com/test", maintainer: "Second" }));
    expect((await t.json("POST", `${root}/cookbooks`, { token, body: up2.body, headers: { "Content-Type": up2.type } })).status).toBe(201);
    const up3 = await shareForm(cookbook("0.9", {}, "other"));
    expect((await t.json("POST", `${root}/cookbooks`, { token, body: up3.body, headers: { "Content-Type": up3.type } })).status).toBe(201);

    const universe = await t.json("GET", `${root}/universe`);
    expect(universe.status).toBe(200);
    expect(Object.keys(universe.body).sort()).toEqual(["other", "test"]);
    expect(universe.body.test["1.0.1"]).toEqual({
      location_type: "opscode",
      location_path: base,
      download_url: `${base}/cookbooks/test/versions/1.0.1/download`,
      dependencies: { apt: ">= 1.0" },
    });

    const search = async (q: string) => (await t.json("GET", `${root}/${q}`)).body;
    expect(await search("search?q=test&start=0&items=10")).toEqual({
      start: 0,
      total: 1,
      items: [{ cookbook_name: "test", cookbook_maintainer: "Second", cookbook_description: "Test Description", cookbook: `${base}/cookbooks/test` }],
    });
    expect(await search("search?q=gitea")).toEqual({ start: 0, total: 0, items: [] });
    expect(await search("search?q=test&start=1&items=10")).toMatchObject({ start: 1, total: 1, items: [] });
    expect((await search("cookbooks")).items.map((i: any) => i.cookbook_name)).toEqual(["other", "test"]);
    expect((await search("cookbooks?order=RECENTLY_ADDED")).items.map((i: any) => i.cookbook_name)).toEqual(["other", "test"]);
    expect(await search("cookbooks?items=1&start=1")).toMatchObject({ start: 1, total: 2, items: [{ cookbook_name: "test" }] });

    const meta = await t.json("GET", `${root}/cookbooks/test`);
    expect(meta.body).toMatchObject({
      name: "test",
      maintainer: "Second",
      description: "Test Description",
      category: "",
      latest_version: `${base}/cookbooks/test/versions/1.0.10`,
      source_url: "https://example.com/test",
      deprecated: false,
      versions: [`${base}/cookbooks/test/versions/1.0.1`, `${base}/cookbooks/test/versions/1.0.10`],
    });
    expect(meta.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect((await t.json("GET", `${root}/cookbooks/nope`)).status).toBe(404);

    const ver = await t.json("GET", `${root}/cookbooks/test/versions/1_0_1`);
    expect(ver.body).toMatchObject({
      version: "1.0.1",
      tarball_file_size: cookbook("1.0.1").byteLength,
      cookbook: `${base}/cookbooks/test`,
      file: `${base}/cookbooks/test/versions/1.0.1/download`,
      license: "MIT",
      dependencies: { apt: ">= 1.0" },
    });
    const missing = await t.json("GET", `${root}/cookbooks/test/versions/9.9.9`);
    expect(missing).toMatchObject({ status: 404, body: { error_messages: ["package version does not exist"] } });

    const dl = await t.request("GET", `${root}/cookbooks/test/versions/1.0.1/download`);
    expect(dl.status).toBe(200);
    expect(Buffer.from(await dl.arrayBuffer()).equals(Buffer.from(cookbook("1.0.1")))).toBe(true);
    expect(pkgModel.getVersion(t.env.db, pkg.id, "1.0.1")!.downloadCount).toBe(1);

    // Deleting needs write access; then one version, then the whole cookbook.
    const bob = await t.user("bob");
    expect((await t.json("DELETE", `${root}/cookbooks/test`, { token: t.token(bob, ["write:package"]) })).status).toBe(403);
    const del = await t.request("DELETE", `${root}/cookbooks/test/versions/1.0.1`, { token });
    expect([del.status, await del.text()]).toEqual([200, ""]);
    expect((await t.json("DELETE", `${root}/cookbooks/test/versions/1.0.1`, { token })).status).toBe(404);
    expect((await t.json("DELETE", `${root}/cookbooks/test`, { token })).status).toBe(200);
    expect(pkgModel.getPackage(t.env.db, alice.id, "chef", "test")).toBeUndefined();
    expect((await t.json("DELETE", `${root}/cookbooks/test`, { token })).status).toBe(404);
  });

  test("uploads Gitea refuses: no tarball, no metadata.json, bad name or version, not gzip, too large", async () => {
    const carol = await t.user("carol");
    const token = t.token(carol, ["write:package"]);
    const post = async (form: { body: Uint8Array; type: string }) =>
      t.json("POST", `${P}/carol/chef/api/v1/cookbooks`, { token, body: form.body, headers: { "Content-Type": form.type } });
    expect(await post(await shareForm(cookbook("1.0.0"), "other"))).toMatchObject({ status: 400, body: { error_messages: ["http: no such file"] } });
    expect(await post(await shareForm(tarGz([["test/README.md", "x"], ["a/b/metadata.json", "{}"]])))).toMatchObject({
      status: 400,
      body: { error_messages: ["metadata.json file is missing"] },
    });
    expect(await post(await shareForm(cookbook("1.0.0", {}, "bad name")))).toMatchObject({ status: 400, body: { error_messages: ["package name is invalid"] } });
    expect(await post(await shareForm(cookbook("1.0.0-rc1")))).toMatchObject({ status: 400, body: { error_messages: ["package version is invalid"] } });
    expect((await post(await shareForm(new TextEncoder().encode("not gzip")))).status).toBe(400);
    const big = tarGz([["test/metadata.json", JSON.stringify({ name: "test", version: "1.0.0" })], ["test/blob", crypto.getRandomValues(new Uint8Array(60_000)).join(",")]]);
    expect((await post(await shareForm(big))).status).toBe(403);
    expect(pkgModel.getPackage(t.env.db, carol.id, "chef", "test")).toBeUndefined();
  });

  describe("signed requests", () => {
    const versions = ["1.0", "1.1", "1.2", "1.3"] as const;
    let dave: UserRow;
    let keys: { pub: string; priv: string };

    beforeAll(async () => {
      dave = await t.user("dave");
      keys = keyPair();
      setChefPublicKey(t.env, dave, keys.pub);
    });

    test("dave's key is stored and is nobody's package", async () => {
      expect(chefPublicKey(t.env, dave)).toBe(keys.pub);
      // The key record is nobody's package.
      expect((await t.json("GET", `${P}/../v1/packages/dave`, { token: t.token(dave) })).body).toEqual([]);
    });

    for (const version of versions) {
      const signers: [string, (s: SignInput) => Record<string, string>][] = [["node", nodeSign]];
      // mixlib-authentication implements 1.0, 1.1 and 1.3 (1.2 was never written there).
      if (version !== "1.2") signers.unshift(["mixlib-authentication", rubySign]);
      for (const [who, sign] of signers) {
        test.skipIf(who !== "node" && !hasRuby && !process.env.CI)(`version ${version} signed by ${who}: upload, read, delete as dave`, async () => {
          const path = `${P}/dave/chef/api/v1/cookbooks`;
          const ver = `${versions.indexOf(version) + 1}.${who === "node" ? 1 : 0}.0`;
          const form = await shareForm(cookbook(ver));
          const up = await signedRequest(t, sign, { method: "POST", path, body: form.body, type: form.type, key: keys.priv, user: "dave", version });
          expect([up.status, up.text]).toEqual([201, "{}"]);
          const got = await signedRequest(t, sign, { method: "GET", path: `${path}/test/versions/${ver.replaceAll(".", "_")}`, key: keys.priv, user: "dave", version });
          expect([got.status, got.json?.version]).toEqual([200, ver]);
          const del = await signedRequest(t, sign, { method: "DELETE", path: `${path}/test/versions/${ver}`, key: keys.priv, user: "dave", version });
          expect(del.status).toBe(200);
        });
      }
    }

    test("refused: another key, stale or future timestamps, tampered headers and body, unknown user, bad version", async () => {
      const path = `${P}/dave/chef/api/v1/cookbooks`;
      const form = await shareForm(cookbook("5.0.0"));
      const upload = (s: Partial<SignInput>, tamper?: (h: Record<string, string>) => void, sent = form) => {
        const headers = nodeSign({ method: "POST", path, body: form.body, key: keys.priv, user: "dave", version: "1.3", ...s });
        tamper?.(headers);
        return t.json("POST", path, { headers: { ...headers, "Content-Type": sent.type }, body: sent.body });
      };
      const failed = { status: 401, body: { error_messages: ["Failed to authenticate user"] } };

      expect(await upload({ key: keyPair().priv })).toMatchObject(failed);
      expect(await upload({ key: keyPair().priv, version: "1.0" })).toMatchObject(failed);
      expect(await upload({ timestamp: nowStamp(-11 * 60_000) })).toMatchObject(failed);
      expect(await upload({ timestamp: nowStamp(11 * 60_000) })).toMatchObject(failed);
      expect(await upload({}, (h) => (h["X-Ops-Timestamp"] = "yesterday"))).toMatchObject(failed);
      expect(await upload({}, (h) => (h["X-Ops-Content-Hash"] = "AAAA"))).toMatchObject(failed);
      expect(await upload({}, (h) => (h["X-Ops-Sign"] = "version=1.4"))).toMatchObject(failed);
      expect(await upload({}, (h) => (h["X-Ops-Sign"] = "version=1.0;algorithm=sha256"))).toMatchObject(failed);
      expect(await upload({}, (h) => delete h["X-Ops-Authorization-2"])).toMatchObject(failed);
      expect(await upload({ user: "nobody" })).toMatchObject(failed);
      // The signature is over another body: the content hash no longer matches what was sent.
      expect(await upload({}, undefined, await shareForm(cookbook("6.0.0")))).toMatchObject(failed);
      expect(pkgModel.getPackage(t.env.db, dave.id, "chef", "test")).toBeUndefined();
      // A signature for another path or method.
      const headers = nodeSign({ method: "GET", path: `${path}/x`, key: keys.priv, user: "dave", version: "1.3" });
      expect((await t.json("GET", `${path}/test`, { headers })).status).toBe(401);
      // Within ten minutes either way it is fine.
      expect((await upload({ timestamp: nowStamp(-9 * 60_000) })).status).toBe(201);
      expect(pkgModel.getPackage(t.env.db, dave.id, "chef", "test")).toBeDefined();
      // A user without a key cannot sign.
      await t.user("erin");
      expect((await t.json("GET", `${P}/erin/chef/api/v1/universe`, { headers: nodeSign({ method: "GET", path: `${P}/erin/chef/api/v1/universe`, key: keys.priv, user: "erin", version: "1.3" }) })).status).toBe(401);
      // Signed as dave, writing to someone else's packages is refused.
      const foreign = `${P}/alice/chef/api/v1/cookbooks`;
      const res = await t.json("POST", foreign, {
        headers: { ...nodeSign({ method: "POST", path: foreign, body: form.body, key: keys.priv, user: "dave", version: "1.3" }), "Content-Type": form.type },
        body: form.body,
      });
      expect(res.status).toBe(403);
    });
  });

  test("regenerate_keypair: the private key as {owner}.priv; signatures by it work; org owners only for an org", async () => {
    const frank = await t.user("frank");
    const web = await signedIn(t, "frank");
    await web.page("/user/settings");
    const res = await web.post("/user/settings/packages/chef/regenerate_keypair", {});
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-pem-file");
    expect(res.headers.get("content-disposition")).toContain('filename="frank.priv"');
    const priv = await res.text();
    expect(priv).toStartWith("-----BEGIN RSA PRIVATE KEY-----");
    expect(chefPublicKey(t.env, frank)).toStartWith("-----BEGIN PUBLIC KEY-----");
    const path = `${P}/frank/chef/api/v1/universe`;
    const sign = hasRuby ? rubySign : nodeSign;
    expect((await signedRequest(t, sign, { method: "GET", path, key: priv, user: "frank", version: "1.3" })).status).toBe(200);

    // Without a session or the form's token: refused.
    expect((await t.request("POST", "/user/settings/packages/chef/regenerate_keypair")).status).not.toBe(200);

    // An organization: its owners regenerate its key, a member cannot.
    const org = await t.json("POST", "/api/v1/orgs", { token: t.token(frank), body: { username: "kitchen" } });
    expect(org.status).toBe(201);
    const orgRes = await web.post("/org/kitchen/settings/packages/chef/regenerate_keypair", {});
    expect(orgRes.status).toBe(200);
    expect(orgRes.headers.get("content-disposition")).toContain('filename="kitchen.priv"');
    const orgKey = await orgRes.text();
    const kitchen = (await t.json("GET", "/api/v1/orgs/kitchen")).body;
    expect(chefPublicKey(t.env, { ...frank, id: kitchen.id })).toStartWith("-----BEGIN PUBLIC KEY-----");
    expect(orgKey).not.toBe(priv);

    await t.user("gina");
    const gina = await signedIn(t, "gina");
    await gina.page("/user/settings");
    expect((await gina.post("/org/kitchen/settings/packages/chef/regenerate_keypair", {})).status).not.toBe(200);
  }, 60_000);
});
