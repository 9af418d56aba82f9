import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { makeTestApp, type TestApp } from "../support/app.ts";
import { requireUser } from "../../src/services/user/lookup.ts";

const P = "/api/packages";

async function put(t: TestApp, path: string, body: string | Uint8Array, auth: { token?: string; basic?: [string, string] } = {}) {
  return t.request("PUT", `${P}${path}`, { ...auth, body, headers: { "Content-Type": "application/octet-stream" } });
}

describe("generic registry", () => {
  const t = makeTestApp("[packages]\nLIMIT_SIZE_GENERIC = 1 KiB\n");

  test("upload, download with Gitea's headers, HEAD, ranges, 409 for a second upload", async () => {
    const alice = await t.user("alice");
    const token = t.token(alice, ["write:package"]);
    expect((await put(t, "/alice/generic/tool/1.0.0/tool.bin", "hello package", { token })).status).toBe(201);
    expect((await put(t, "/alice/generic/tool/1.0.0/tool.bin", "again", { token })).status).toBe(409);
    const res = await t.request("GET", `${P}/alice/generic/tool/1.0.0/tool.bin`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("hello package");
    expect(res.headers.get("x-checksum-sha256")).toBe(new Bun.CryptoHasher("sha256").update("hello package").digest("hex"));
    expect(res.headers.get("content-disposition")).toContain('filename="tool.bin"');
    const head = await t.request("HEAD", `${P}/alice/generic/tool/1.0.0/tool.bin`);
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe("13");
    const range = await t.request("GET", `${P}/alice/generic/tool/1.0.0/tool.bin`, { headers: { Range: "bytes=6-12" } });
    expect(range.status).toBe(206);
    expect(await range.text()).toBe("package");
  });

  test("the same bytes are stored once, and go with the last file that holds them", async () => {
    const bob = await t.user("bob");
    const token = t.token(bob, ["write:package"]);
    await put(t, "/bob/generic/a/1/x.bin", "shared bytes", { token });
    await put(t, "/bob/generic/b/1/y.bin", "shared bytes", { token });
    const sha = new Bun.CryptoHasher("sha256").update("shared bytes").digest("hex");
    const blob = join(t.settings.server.appDataPath, "packages", sha.slice(0, 2), sha.slice(2, 4), sha);
    expect(existsSync(blob)).toBe(true);
    expect((await t.request("DELETE", `${P}/bob/generic/a/1/x.bin`, { token })).status).toBe(204);
    expect(existsSync(blob)).toBe(true);
    expect((await t.request("DELETE", `${P}/bob/generic/b/1`, { token })).status).toBe(204);
    expect(existsSync(blob)).toBe(false);
    expect((await t.request("GET", `${P}/bob/generic/b/1/y.bin`)).status).toBe(404);
    expect(readdirSync(join(t.settings.server.appDataPath, "packages", "tmp"))).toEqual([]);
  });

  test("credentials: anonymous writes get Gitea's challenge, a read-only token 403, a password works", async () => {
    await t.user("carol");
    const anon = await put(t, "/carol/generic/x/1/x.bin", "x");
    expect(anon.status).toBe(401);
    expect(anon.headers.get("www-authenticate")).toBe('Basic realm="Gitea Package API"');
    const readOnly = t.token(requireUser(t.env, "carol"), ["read:package"]);
    expect((await put(t, "/carol/generic/x/1/x.bin", "x", { token: readOnly })).status).toBe(403);
    expect((await put(t, "/carol/generic/x/1/x.bin", "x", { basic: ["carol", "password123"] })).status).toBe(201);
    // Someone else may read carol's public packages but not write them.
    await t.user("dave");
    expect((await put(t, "/carol/generic/x/1/y.bin", "x", { basic: ["dave", "password123"] })).status).toBe(403);
    expect((await t.request("GET", `${P}/carol/generic/x/1/x.bin`, { basic: ["dave", "password123"] })).status).toBe(200);
  });

  test("a private owner's packages are refused to others, readable by the owner", async () => {
    const erin = await t.user("erin");
    await t.ok("PATCH", "/api/v1/admin/users/erin", t.token(await t.user("root", { admin: true })), { login_name: "erin", source_id: 0, visibility: "private" });
    expect((await put(t, "/erin/generic/p/1/p.bin", "secret", { basic: ["erin", "password123"] })).status).toBe(201);
    expect((await t.request("GET", `${P}/erin/generic/p/1/p.bin`)).status).toBe(401);
    await t.user("frank");
    expect((await t.request("GET", `${P}/erin/generic/p/1/p.bin`, { basic: ["frank", "password123"] })).status).toBe(403);
    expect((await t.request("GET", `${P}/erin/generic/p/1/p.bin`, { token: t.token(erin, ["read:package"]) })).status).toBe(200);
  });

  test("bad names and versions are 400, a file over LIMIT_SIZE_GENERIC 403 and nothing kept, an unknown owner 404", async () => {
    const gina = await t.user("gina");
    const token = t.token(gina, ["write:package"]);
    expect((await put(t, "/gina/generic/bad%20name/1/x.bin", "x", { token })).status).toBe(400);
    expect((await put(t, "/gina/generic/ok/%201/x.bin", "x", { token })).status).toBe(400);
    const big = await put(t, "/gina/generic/ok/1/big.bin", new Uint8Array(2048), { token });
    expect(big.status).toBe(403);
    expect(await big.text()).toContain("maximum allowed package type size exceeded");
    expect((await t.request("GET", `${P}/gina/generic/ok/1/big.bin`)).status).toBe(404);
    expect((await t.request("GET", `${P}/nobody-at-all/generic/ok/1/x.bin`)).status).toBe(404);
  });

  test("[packages] ENABLED = false turns the registries off", async () => {
    const off = makeTestApp("[packages]\nENABLED = false\n");
    const u = await off.user("henry");
    expect((await put(off, "/henry/generic/a/1/a.bin", "x", { token: off.token(u) })).status).toBe(404);
  });
});
