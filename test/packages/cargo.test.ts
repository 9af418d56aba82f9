import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { cargoPublishBody } from "../../src/lib/cargo.ts";
import { signedIn, visibleText } from "../support/web.ts";

const P = "/api/packages";
const sha256 = (data: Uint8Array) => new Bun.CryptoHasher("sha256").update(data).digest("hex");

function meta(name: string, vers: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    name,
    vers,
    deps: [
      { name: "dep", version_req: "1.0", features: [], optional: false, default_features: true, target: null, kind: "normal", registry: null },
      { name: "real-name", version_req: "^2", features: ["x"], optional: true, default_features: false, target: "cfg(unix)", kind: "dev", registry: null, explicit_name_in_toml: "renamed" },
    ],
    features: { default: ["dep"] },
    authors: ["KN4CK3R"],
    description: "Package Description",
    documentation: "https://docs.example",
    homepage: "not a url",
    license: "MIT",
    links: "native",
    ...extra,
  });
}

describe("Cargo registry over HTTP", () => {
  const t = makeTestApp("[packages]\nLIMIT_SIZE_CARGO = 64 KiB\n");

  test("config, publish, index, download, duplicate, yank and unyank, search, owners", async () => {
    const alice = await t.user("alice");
    const token = t.token(alice, ["write:package"]);
    const base = `${P}/alice/cargo`;

    const cfg = await t.json("GET", `${base}/config.json`);
    expect(cfg.status).toBe(200);
    expect(cfg.body).toEqual({ dl: `${t.settings.server.rootUrl}api/packages/alice/cargo/api/v1/crates`, api: `${t.settings.server.rootUrl}api/packages/alice/cargo`, "auth-required": false });

    // No crate yet: 404 in cargo's error shape.
    const none = await t.json("GET", `${base}/te/st/test-crate`);
    expect(none.status).toBe(404);
    expect(none.body.errors).toHaveLength(1);

    const crate = new TextEncoder().encode("crate bytes ".repeat(10));
    const body = cargoPublishBody(meta("Test-Crate", "1.0.0"), crate);
    // Anonymous: 401 with the package realm; a read-only token: 403.
    const anon = await t.request("PUT", `${base}/api/v1/crates/new`, { body });
    expect(anon.status).toBe(401);
    expect(anon.headers.get("www-authenticate")).toBe('Basic realm="Gitea Package API"');
    const ro = await t.request("PUT", `${base}/api/v1/crates/new`, { body, token: t.token(alice, ["read:package"]) });
    expect(ro.status).toBe(403);

    const put = await t.json("PUT", `${base}/api/v1/crates/new`, { body, token });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ ok: true });

    const again = await t.json("PUT", `${base}/api/v1/crates/new`, { body, token });
    expect(again.status).toBe(409);
    expect(again.body.errors[0].detail).toBe("package version already exists");

    const idx = await t.request("GET", `${base}/te/st/test-crate`);
    expect(idx.status).toBe(200);
    const lines = (await idx.text()).split("\n");
    expect(lines).toHaveLength(2);
    const entry = JSON.parse(lines[0]!);
    expect(entry).toEqual({
      name: "Test-Crate",
      vers: "1.0.0",
      deps: [
        { name: "dep", req: "1.0", features: [], optional: false, default_features: true, target: null, kind: "normal", registry: null, package: null },
        { name: "renamed", req: "^2", features: ["x"], optional: true, default_features: false, target: "cfg(unix)", kind: "dev", registry: null, package: "real-name" },
      ],
      cksum: sha256(crate),
      features: { default: ["dep"] },
      yanked: false,
      links: "native",
    });
    // Upper case in the path finds the same file.
    expect((await t.request("GET", `${base}/TE/ST/Test-Crate`)).status).toBe(200);

    const dl = await t.request("GET", `${base}/api/v1/crates/test-crate/1.0.0/download`);
    expect(dl.status).toBe(200);
    expect(new Uint8Array(await dl.arrayBuffer())).toEqual(crate);
    expect(dl.headers.get("content-disposition")).toContain("test-crate-1.0.0.crate");
    expect((await t.request("GET", `${base}/api/v1/crates/test-crate/9.9.9/download`)).status).toBe(404);
    const listed = await t.json("GET", `/api/v1/packages/alice/cargo/Test-Crate/1.0.0`, { token });
    expect(listed.status).toBe(200);

    // Short names land in 1/, 2/ and 3/{c}/.
    for (const name of ["a", "ab", "abc"]) {
      expect((await t.request("PUT", `${base}/api/v1/crates/new`, { body: cargoPublishBody(meta(name, "0.1.0"), crate), token })).status).toBe(200);
    }
    expect((await t.request("GET", `${base}/1/a`)).status).toBe(200);
    expect((await t.request("GET", `${base}/2/ab`)).status).toBe(200);
    expect((await t.request("GET", `${base}/3/a/abc`)).status).toBe(200);
    // A crate whose index path begins like the API's.
    expect((await t.request("PUT", `${base}/api/v1/crates/new`, { body: cargoPublishBody(meta("apiv", "0.1.0"), crate), token })).status).toBe(200);
    expect((await t.request("GET", `${base}/ap/iv/apiv`)).status).toBe(200);

    // Yank and unyank rewrite the index at once.
    expect((await t.json("DELETE", `${base}/api/v1/crates/test-crate/1.0.0/yank`, { token })).body).toEqual({ ok: true });
    expect(JSON.parse((await (await t.request("GET", `${base}/te/st/test-crate`)).text()).trim()).yanked).toBe(true);
    expect((await t.json("PUT", `${base}/api/v1/crates/test-crate/1.0.0/unyank`, { token })).body).toEqual({ ok: true });
    expect(JSON.parse((await (await t.request("GET", `${base}/te/st/test-crate`)).text()).trim()).yanked).toBe(false);
    expect((await t.request("DELETE", `${base}/api/v1/crates/test-crate/2.0.0/yank`, { token })).status).toBe(404);
    expect((await t.request("DELETE", `${base}/api/v1/crates/test-crate/1.0.0/yank`)).status).toBe(401);

    // A second version: two lines, oldest first; search shows the newest.
    expect((await t.request("PUT", `${base}/api/v1/crates/new`, { body: cargoPublishBody(meta("test-crate", "1.1.0"), crate), token })).status).toBe(200);
    const two = (await (await t.request("GET", `${base}/te/st/test-crate`)).text()).trim().split("\n").map((l) => JSON.parse(l).vers);
    expect(two).toEqual(["1.0.0", "1.1.0"]);
    const found = await t.json("GET", `${base}/api/v1/crates?q=test&per_page=10`);
    expect(found.body).toEqual({ crates: [{ name: "Test-Crate", max_version: "1.1.0", description: "Package Description" }], meta: { total: 1 } });
    const paged = await t.json("GET", `${base}/api/v1/crates?per_page=2&page=2`);
    expect(paged.body.meta.total).toBe(5);
    expect(paged.body.crates).toHaveLength(2);

    expect((await t.json("GET", `${base}/api/v1/crates/test-crate/owners`)).body).toEqual({ users: [{ id: alice.id, login: "alice", name: "alice" }] });

    // Removing every version through the API: the index file is gone.
    for (const v of ["1.0.0", "1.1.0"]) expect((await t.request("DELETE", `/api/v1/packages/alice/cargo/test-crate/${v}`, { token })).status).toBe(204);
    expect((await t.request("GET", `${base}/te/st/test-crate`)).status).toBe(404);
  });

  test("bad bodies: invalid name or version, truncated frames, a wrong crate size, the size limit", async () => {
    const bob = await t.user("bob");
    const token = t.token(bob, ["write:package"]);
    const url = `${P}/bob/cargo/api/v1/crates/new`;
    const crate = new Uint8Array([1, 2, 3]);
    const bad = async (body: Uint8Array, status = 400) => {
      const r = await t.json("PUT", url, { body, token });
      expect(r.status).toBe(status);
      return r.body.errors[0].detail as string;
    };
    expect(await bad(cargoPublishBody(meta("1nvalid", "1.0.0"), crate))).toBe("package name is invalid");
    expect(await bad(cargoPublishBody(meta("valid", "one"), crate))).toBe("package version is invalid");
    expect(await bad(new Uint8Array([5, 0]))).toBe("unexpected EOF");
    const full = cargoPublishBody(meta("valid", "1.0.0"), crate);
    expect(await bad(full.subarray(0, full.length - 1))).toBe("invalid content size");
    expect(await bad(cargoPublishBody("{not json", crate))).toContain("JSON");
    const big = new Uint8Array(65 * 1024);
    expect(await bad(cargoPublishBody(meta("valid", "1.0.0"), big), 403)).toBe("maximum allowed package type size exceeded");
    expect((await t.request("GET", `${P}/bob/cargo/va/li/valid`)).status).toBe(404);
  });

  test("a private owner: auth-required, and the anonymous are refused", async () => {
    const carol = await t.user("carol");
    const token = t.token(carol, ["all"]);
    await t.ok("PATCH", "/api/v1/admin/users/carol", t.token(await t.user("root", { admin: true })), { login_name: "carol", source_id: 0, visibility: "private" });
    expect((await t.request("GET", `${P}/carol/cargo/config.json`)).status).toBe(401);
    const cfg = await t.json("GET", `${P}/carol/cargo/config.json`, { token });
    expect(cfg.body["auth-required"]).toBe(true);
  });

  test("an organization's index forms: owners only; publish then commits to its index", async () => {
    const dora = await t.user("dora");
    const doraToken = t.token(dora);
    await t.ok("POST", "/api/v1/orgs", doraToken, { username: "acme" }, 201);
    await t.user("eve");
    const eve = await signedIn(t, "eve");
    const refused = await eve.post("/org/acme/settings/packages/cargo/initialize", {});
    expect(refused.status).not.toBe(303);
    expect((await t.request("GET", "/api/v1/repos/acme/_cargo-index", { token: doraToken })).status).toBe(404);

    const web = await signedIn(t, "dora");
    const res = await web.post("/org/acme/settings/packages/cargo/initialize", {});
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toEndWith("/org/acme/settings/packages");
    expect(visibleText(await web.page("/user/settings"))).toContain("The Cargo index was successfully created.");
    const crate = new Uint8Array([1, 2, 3]);
    expect((await t.request("PUT", `${P}/acme/cargo/api/v1/crates/new`, { body: cargoPublishBody(meta("org-crate", "1.0.0"), crate), token: doraToken })).status).toBe(200);
    const file = await t.request("GET", "/api/v1/repos/acme/_cargo-index/raw/or/g-/org-crate", { token: doraToken });
    expect(JSON.parse((await file.text()).trim()).cksum).toBe(sha256(crate));
    const commits = await t.json("GET", "/api/v1/repos/acme/_cargo-index/commits", { token: doraToken });
    expect(commits.body.map((c: any) => c.commit.message.trim())).toEqual(["Update org-crate", "Initialize Cargo Config"]);
    expect((await web.post("/org/acme/settings/packages/cargo/rebuild", {})).status).toBe(303);
    expect(visibleText(await web.page("/user/settings"))).toContain("The Cargo index was successfully rebuild.");
  });
});
