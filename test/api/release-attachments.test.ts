import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { makeTestApp, ROOT_URL, type TestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { Attachment } from "../../src/shapes/issue.ts";
import { createApp } from "../../src/http/app.ts";

const t = makeTestApp();
const alice = await t.user("alice");
const aliceToken = t.token(alice);
const bob = await t.user("bob"); // reads proj
const bobToken = t.token(bob);
const carol = await t.user("carol"); // writes proj
const carolToken = t.token(carol);

async function ok(app: TestApp, method: string, path: string, token: string | undefined, body?: unknown, status = 200) {
  const r = await app.json(method, path, { token, body });
  expect({ path, status: r.status, body: r.status === status ? undefined : r.body }).toEqual({ path, status, body: undefined });
  return r.body;
}

async function send(app: TestApp, path: string, token: string | undefined, init: { body: FormData | Uint8Array | string; headers?: Record<string, string> }) {
  const res = await createApp(app.env).handle(
    new Request(`${ROOT_URL}${path.replace(/^\//, "")}`, {
      method: "POST",
      headers: { ...(token ? { Authorization: `token ${token}` } : {}), ...init.headers },
      body: init.body,
    }),
  );
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A multipart upload in the `attachment` field. */
function upload(app: TestApp, path: string, token: string | undefined, file: { name: string; data: Uint8Array | string }, query = "") {
  const form = new FormData();
  form.append("note", "a plain field before the file");
  form.append("attachment", new Blob([file.data]), file.name);
  return send(app, `${path}${query}`, token, { body: form });
}

/** The file as the whole request body (Gitea 1.25), named by `?name=`. */
function uploadRaw(app: TestApp, path: string, token: string | undefined, data: Uint8Array | string, query = "") {
  return send(app, `${path}${query}`, token, { body: data, headers: { "Content-Type": "application/octet-stream" } });
}

function storedFiles(app: TestApp): string[] {
  try {
    return readdirSync(join(app.settings.server.appDataPath, "attachments"), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);
  } catch {
    return [];
  }
}

const download = (app: TestApp, url: string, token?: string) => app.request("GET", url.slice(ROOT_URL.length - 1), { token });

const bytes = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0xff, 0xfe, 0x80, 0x01, 0x02, 0x7f, 0xc3, 0x00, 0x10]);

await ok(t, "POST", "/api/v1/user/repos", aliceToken, { name: "proj", auto_init: true }, 201);
await ok(t, "POST", "/api/v1/user/repos", aliceToken, { name: "other", auto_init: true }, 201);
await ok(t, "PUT", "/api/v1/repos/alice/proj/collaborators/bob", aliceToken, { permission: "read" }, 204);
await ok(t, "PUT", "/api/v1/repos/alice/proj/collaborators/carol", aliceToken, { permission: "write" }, 204);
const base = "/api/v1/repos/alice/proj/releases";
const v1 = await ok(t, "POST", base, aliceToken, { tag_name: "v1" }, 201);
const v2 = await ok(t, "POST", base, aliceToken, { tag_name: "v2" }, 201);
const draft = await ok(t, "POST", base, aliceToken, { tag_name: "v3", draft: true }, 201);
const foreign = await ok(t, "POST", "/api/v1/repos/alice/other/releases", aliceToken, { tag_name: "o1" }, 201);
const assets = (id: number, rest = "") => `${base}/${id}/assets${rest}`;

describe("upload", () => {
  test("multipart: the Attachment JSON is Gitea's; the release lists it and the bytes download unchanged", async () => {
    const r = await upload(t, assets(v1.id), carolToken, { name: "app.zip", data: bytes });
    expect(r.status).toBe(201);
    expectShape(r.body, Attachment);
    expect(r.body).toMatchObject({ name: "app.zip", size: bytes.length, download_count: 0 });
    expect(r.body.browser_download_url).toBe(`${ROOT_URL}attachments/${r.body.uuid}`);
    expect(await ok(t, "GET", assets(v1.id), undefined)).toEqual([r.body]);
    expect((await ok(t, "GET", `${base}/${v1.id}`, bobToken)).assets).toEqual([r.body]);
    expect(await ok(t, "GET", assets(v1.id, `/${r.body.id}`), bobToken)).toEqual(r.body);
    const res = await download(t, r.body.browser_download_url);
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
    expect((await ok(t, "GET", assets(v1.id, `/${r.body.id}`), bobToken)).download_count).toBe(1);
  });

  test("the `name` query parameter names a multipart file", async () => {
    const r = await upload(t, assets(v1.id), aliceToken, { name: "ignored.bin", data: "hello" }, "?name=notes.txt");
    expect(r.status).toBe(201);
    expect(r.body.name).toBe("notes.txt");
    // Assets are listed by name.
    expect((await ok(t, "GET", assets(v1.id), undefined)).map((a: { name: string }) => a.name)).toEqual(["app.zip", "notes.txt"]);
  });

  test("a raw body upload needs `name` (400 without)", async () => {
    const data = new Uint8Array(300_000).map((_, i) => (i * 7) % 256);
    const r = await uploadRaw(t, assets(v2.id), aliceToken, data, "?name=big.bin");
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: "big.bin", size: data.length });
    const res = await download(t, r.body.browser_download_url);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(data);
    const before = storedFiles(t).length;
    const unnamed = await uploadRaw(t, assets(v2.id), aliceToken, "x");
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.message).toBe("Could not determine name of attachment.");
    expect(storedFiles(t).length).toBe(before);
  });

  test("refusals: reader 403, anonymous 401, unknown release 404, another repository's release 404", async () => {
    expect((await upload(t, assets(v1.id), bobToken, { name: "a.zip", data: bytes })).status).toBe(403);
    expect((await upload(t, assets(v1.id), undefined, { name: "a.zip", data: bytes })).status).toBe(401);
    expect((await upload(t, assets(999999), aliceToken, { name: "a.zip", data: bytes })).status).toBe(404);
    expect((await upload(t, assets(foreign.id), aliceToken, { name: "a.zip", data: bytes })).status).toBe(404);
    const noFile = await send(t, assets(v1.id), aliceToken, { body: new FormData() });
    expect(noFile.status).toBe(400);
  });
});

describe("drafts", () => {
  test("a draft's assets are for release writers only, download included", async () => {
    const r = await upload(t, assets(draft.id), carolToken, { name: "pre.zip", data: bytes });
    expect(r.status).toBe(201);
    expect(await ok(t, "GET", assets(draft.id), carolToken)).toEqual([r.body]);
    expect((await t.json("GET", assets(draft.id), { token: bobToken })).status).toBe(404);
    expect((await t.json("GET", assets(draft.id, `/${r.body.id}`), { token: bobToken })).status).toBe(404);
    expect((await download(t, r.body.browser_download_url, bobToken)).status).toBe(404);
    expect((await download(t, r.body.browser_download_url)).status).toBe(404);
    expect((await download(t, r.body.browser_download_url, carolToken)).status).toBe(200);
  });
});

describe("edit and delete", () => {
  test("a writer renames (201) and deletes (204) an asset; readers cannot; ids are checked against the release", async () => {
    const a = (await upload(t, assets(v2.id), aliceToken, { name: "old.zip", data: bytes })).body;
    expect((await t.json("PATCH", assets(v2.id, `/${a.id}`), { token: bobToken, body: { name: "x.zip" } })).status).toBe(403);
    const renamed = await t.json("PATCH", assets(v2.id, `/${a.id}`), { token: carolToken, body: { name: "new.zip" } });
    expect(renamed.status).toBe(201);
    expect(renamed.body).toMatchObject({ id: a.id, name: "new.zip", uuid: a.uuid });
    // Not under another release, nor under an unknown id.
    expect((await t.json("GET", assets(v1.id, `/${a.id}`), { token: aliceToken })).status).toBe(404);
    expect((await t.json("PATCH", assets(v1.id, `/${a.id}`), { token: aliceToken, body: { name: "y" } })).status).toBe(404);
    expect((await t.json("GET", assets(v2.id, "/999999"), { token: aliceToken })).status).toBe(404);
    expect((await t.json("DELETE", assets(v2.id, `/${a.id}`), { token: bobToken })).status).toBe(403);
    expect((await t.json("DELETE", assets(v2.id, `/${a.id}`), { token: aliceToken })).status).toBe(204);
    expect((await t.json("DELETE", assets(v2.id, `/${a.id}`), { token: aliceToken })).status).toBe(404);
    expect(storedFiles(t)).not.toContain(a.uuid);
    expect((await download(t, a.browser_download_url, aliceToken)).status).toBe(404);
  });

  test("deleting a release deletes its assets and their files", async () => {
    const r = await ok(t, "POST", base, aliceToken, { tag_name: "gone" }, 201);
    const a = (await upload(t, assets(r.id), aliceToken, { name: "x.zip", data: bytes })).body;
    expect(storedFiles(t)).toContain(a.uuid);
    expect((await t.json("DELETE", `${base}/${r.id}`, { token: aliceToken })).status).toBe(204);
    expect(storedFiles(t)).not.toContain(a.uuid);
    expect((await download(t, a.browser_download_url, aliceToken)).status).toBe(404);
    // The tag stayed; a new release of it starts without assets.
    expect((await ok(t, "POST", base, aliceToken, { tag_name: "gone" }, 201)).assets).toEqual([]);
  });
});

const limited = makeTestApp("[attachment]\nMAX_SIZE = 1\n[repository.release]\nALLOWED_TYPES = .zip,.txt\n");
const owner = await limited.user("owner");
const token = limited.token(owner);
await ok(limited, "POST", "/api/v1/user/repos", token, { name: "p", auto_init: true }, 201);
const limitedRelease = await ok(limited, "POST", "/api/v1/repos/owner/p/releases", token, { tag_name: "v1" }, 201);
const path = `/api/v1/repos/owner/p/releases/${limitedRelease.id}/assets`;

const off = makeTestApp("[attachment]\nENABLED = false\n");
const offUser = await off.user("u");
const offToken = off.token(offUser);
await ok(off, "POST", "/api/v1/user/repos", offToken, { name: "p", auto_init: true }, 201);
const offRelease = await ok(off, "POST", "/api/v1/repos/u/p/releases", offToken, { tag_name: "v1" }, 201);

describe("limits", () => {

  test("a file over [attachment] MAX_SIZE is 413 and leaves nothing behind", async () => {
    const big = new Uint8Array(1024 * 1024 + 1);
    const multipart = await upload(limited, path, token, { name: "big.zip", data: big });
    expect(multipart.status).toBe(413);
    const raw = await uploadRaw(limited, path, token, big, "?name=big.zip");
    expect(raw.status).toBe(413);
    expect(storedFiles(limited)).toEqual([]);
    expect(await ok(limited, "GET", path, token)).toEqual([]);
    expect((await upload(limited, path, token, { name: "fits.zip", data: new Uint8Array(1024 * 1024) })).status).toBe(201);
  });

  test("[repository.release] ALLOWED_TYPES: another type is 400 on upload and 422 on rename", async () => {
    const refused = await upload(limited, path, token, { name: "tool.exe", data: bytes });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe("This file cannot be uploaded or modified due to a forbidden file extension or type.");
    const a = (await upload(limited, path, token, { name: "notes.txt", data: "hello" })).body;
    const rename = await limited.json("PATCH", `${path}/${a.id}`, { token, body: { name: "notes.exe" } });
    expect(rename.status).toBe(422);
  });

  test("the issue attachment types do not apply to releases: by default any type is allowed", async () => {
    const r2 = await upload(t, assets(v1.id), aliceToken, { name: "tool.exe", data: new Uint8Array([0x4d, 0x5a, 0x90, 0x00]) });
    expect(r2.status).toBe(201);
  });

  test("with [attachment] ENABLED = false there are no asset uploads (404)", async () => {
    const assetsPath = `/api/v1/repos/u/p/releases/${offRelease.id}/assets`;
    expect((await upload(off, assetsPath, offToken, { name: "a.zip", data: bytes })).status).toBe(404);
    // Listing still answers: Gitea checks the setting on uploads only.
    expect(await ok(off, "GET", assetsPath, offToken)).toEqual([]);
  });
});
