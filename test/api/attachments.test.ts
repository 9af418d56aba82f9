import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { makeTestApp, ROOT_URL, type TestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { Attachment } from "../../src/shapes/issue.ts";
import { Comment } from "../../src/shapes/comment.ts";
import { createApp } from "../../src/http/app.ts";
import { writeTx } from "../../src/db/client.ts";
import * as issueModel from "../../src/models/issue.ts";

const t = makeTestApp();
const alice = await t.user("alice");
const aliceToken = t.token(alice);
const bob = await t.user("bob");
const bobToken = t.token(bob);
const carol = await t.user("carol");
const carolToken = t.token(carol);
const dave = await t.user("dave");
const daveToken = t.token(dave);

async function ok(app: TestApp, method: string, path: string, token: string | undefined, body?: unknown, status = 200) {
  const r = await app.json(method, path, { token, body });
  expect({ path, status: r.status, body: r.status === status ? undefined : r.body }).toEqual({ path, status, body: undefined });
  return r.body;
}

/** A multipart upload, as a client sends it (the test helper only sends JSON). */
async function upload(
  app: TestApp,
  path: string,
  token: string | undefined,
  file: { name: string; data: Uint8Array | string; field?: string },
  query = "",
) {
  const form = new FormData();
  form.append("note", "a plain field before the file");
  form.append(file.field ?? "attachment", new Blob([file.data]), file.name);
  const handler = createApp(app.env);
  const res = await handler.handle(
    new Request(`${ROOT_URL}${path.replace(/^\//, "")}${query}`, {
      method: "POST",
      headers: token ? { Authorization: `token ${token}` } : {},
      body: form,
    }),
  );
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/**
 * The same upload, but the body arrives in pieces of `size` bytes, so delimiters and the sniffed
 * head are split across reads as on a real connection.
 */
async function uploadInPieces(app: TestApp, path: string, token: string, file: { name: string; data: Uint8Array | string }, size: number) {
  const form = new FormData();
  form.append("first", "x".repeat(100));
  form.append("attachment", new Blob([file.data]), file.name);
  const encoded = new Response(form);
  const type = encoded.headers.get("content-type")!;
  const bytes = new Uint8Array(await encoded.arrayBuffer());
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
  const res = await createApp(app.env).handle(
    new Request(`${ROOT_URL}${path.replace(/^\//, "")}`, {
      method: "POST",
      headers: { Authorization: `token ${token}`, "Content-Type": type },
      body,
    }),
  );
  return { status: res.status, body: (await res.json()) as any };
}

/** Every file under the attachments directory (none must be left by a refused upload). */
function storedFiles(app: TestApp): string[] {
  const dir = join(app.settings.server.appDataPath, "attachments");
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);
  } catch {
    return [];
  }
}

const download = (app: TestApp, url: string, opts: Parameters<TestApp["request"]>[2] = {}) =>
  app.request("GET", url.slice(ROOT_URL.length - 1), opts);

// A PNG signature followed by bytes that are not text, so "exact bytes" means something.
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x80, 0x01, 0x02, 0x7f, 0xc3]);
const exe = new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00]);

await ok(t, "POST", "/api/v1/user/repos", aliceToken, { name: "proj" }, 201);
await ok(t, "POST", "/api/v1/user/repos", aliceToken, { name: "secret", private: true }, 201);
await ok(t, "PUT", "/api/v1/repos/alice/proj/collaborators/carol", aliceToken, { permission: "write" }, 204);
await ok(t, "PUT", "/api/v1/repos/alice/secret/collaborators/carol", aliceToken, { permission: "write" }, 204);
const base = "/api/v1/repos/alice/proj/issues";
await ok(t, "POST", base, bobToken, { title: "Bob's issue" }, 201); // #1, by a reader
await ok(t, "POST", base, aliceToken, { title: "Alice's issue" }, 201); // #2
await ok(t, "POST", "/api/v1/repos/alice/secret/issues", aliceToken, { title: "Private" }, 201);

describe("issue attachments", () => {
  test("a writer attaches a file; the Attachment JSON is Gitea's, the issue lists it and was touched", async () => {
    const projId = (await ok(t, "GET", "/api/v1/repos/alice/proj", aliceToken)).id;
    writeTx(t.env.db, (tx) => issueModel.updateIssue(tx, issueModel.getIssueByIndex(tx, projId, 2)!.id, { updatedUnix: 1_000_000 }));
    const r = await upload(t, `${base}/2/assets`, carolToken, { name: "shot.png", data: png });
    expect(r.status).toBe(201);
    expectShape(r.body, Attachment);
    expect(r.body).toMatchObject({ name: "shot.png", size: png.length, download_count: 0 });
    expect(r.body.browser_download_url).toBe(`${ROOT_URL}attachments/${r.body.uuid}`);
    const list = await ok(t, "GET", `${base}/2/assets`, undefined);
    expect(list).toEqual([r.body]);
    const issue = await ok(t, "GET", `${base}/2`, undefined);
    expect(issue.assets).toEqual([r.body]);
    expect(Date.parse(issue.updated_at) / 1000).toBeGreaterThan(1_000_000);
    expect(await ok(t, "GET", `${base}/2/assets/${r.body.id}`, undefined)).toEqual(r.body);
    // The issue's own asset is not found under another issue.
    expect((await t.json("GET", `${base}/1/assets/${r.body.id}`)).status).toBe(404);
  });

  test("the `name` query parameter names the file", async () => {
    const r = await upload(t, `${base}/2/assets`, aliceToken, { name: "ignored.png", data: png }, "?name=renamed.png");
    expect(r.status).toBe(201);
    expect(r.body.name).toBe("renamed.png");
  });

  test("who may attach: writers and the issue's poster yes, other readers 403, anonymous 401, outsiders 404", async () => {
    expect((await upload(t, `${base}/1/assets`, bobToken, { name: "mine.png", data: png })).status).toBe(201);
    const reader = await upload(t, `${base}/2/assets`, daveToken, { name: "x.png", data: png });
    expect(reader.status).toBe(403);
    expect(reader.body.message).toBe("user should have permission to write issue");
    expect((await upload(t, `${base}/2/assets`, undefined, { name: "x.png", data: png })).status).toBe(401);
    expect((await upload(t, "/api/v1/repos/alice/secret/issues/1/assets", daveToken, { name: "x.png", data: png })).status).toBe(404);
    expect((await upload(t, `${base}/99/assets`, carolToken, { name: "x.png", data: png })).status).toBe(404);
  });

  test("a forbidden type is refused with 422 and nothing is stored", async () => {
    const files = storedFiles(t);
    const listed = (await ok(t, "GET", `${base}/2/assets`, undefined)).length;
    const r = await upload(t, `${base}/2/assets`, carolToken, { name: "setup.exe", data: exe });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe("This file cannot be uploaded or modified due to a forbidden file extension or type.");
    // An allowed name does not make forbidden content acceptable through `name` either.
    expect((await upload(t, `${base}/2/assets`, carolToken, { name: "ok.png", data: exe }, "?name=setup.exe")).status).toBe(422);
    expect(storedFiles(t)).toEqual(files);
    expect((await ok(t, "GET", `${base}/2/assets`, undefined)).length).toBe(listed);
  });

  test("a body that arrives in small pieces is read the same, byte for byte", async () => {
    const data = new Uint8Array(5000).map((_, i) => (i * 7) % 256);
    data.set(png.subarray(0, 8));
    for (const size of [1, 7, 61]) {
      const r = await uploadInPieces(t, `${base}/2/assets`, carolToken, { name: `pieces-${size}.png`, data }, size);
      expect({ size, status: r.status, body: r.status === 201 ? undefined : r.body }).toEqual({ size, status: 201, body: undefined });
      expect(r.body.size).toBe(data.length);
      const got = await download(t, r.body.browser_download_url);
      expect(new Uint8Array(await got.arrayBuffer())).toEqual(data);
    }
    const refused = await uploadInPieces(t, `${base}/2/assets`, carolToken, { name: "pieces.exe", data: exe }, 3);
    expect(refused.status).toBe(422);
  });

  test("a body that is not a multipart form, or lacks the field, is a 400", async () => {
    const json = await t.json("POST", `${base}/2/assets`, { token: carolToken, body: { attachment: "x" } });
    expect(json.status).toBe(400);
    expect(json.body.message).toBe("request Content-Type isn't multipart/form-data");
    const wrongField = await upload(t, `${base}/2/assets`, carolToken, { name: "a.png", data: png, field: "file" });
    expect(wrongField.status).toBe(400);
    expect(wrongField.body.message).toBe("http: no such file");
  });

  test("rename: 201 with the new name; a forbidden extension 422; readers 403", async () => {
    const a = (await upload(t, `${base}/2/assets`, carolToken, { name: "before.png", data: png })).body;
    const renamed = await t.json("PATCH", `${base}/2/assets/${a.id}`, { token: carolToken, body: { name: "after.png" } });
    expect(renamed.status).toBe(201);
    expect(renamed.body).toEqual({ ...a, name: "after.png" });
    const unchanged = await t.json("PATCH", `${base}/2/assets/${a.id}`, { token: carolToken, body: {} });
    expect(unchanged.body.name).toBe("after.png");
    const bad = await t.json("PATCH", `${base}/2/assets/${a.id}`, { token: carolToken, body: { name: "after.exe" } });
    expect(bad.status).toBe(422);
    expect((await t.json("PATCH", `${base}/2/assets/${a.id}`, { token: daveToken, body: { name: "x.png" } })).status).toBe(403);
    expect((await t.json("PATCH", `${base}/2/assets/${a.id}`, { body: { name: "x.png" } })).status).toBe(401);
    expect((await ok(t, "GET", `${base}/2/assets/${a.id}`, undefined)).name).toBe("after.png");
  });

  test("delete: 204, the row and the file go", async () => {
    const a = (await upload(t, `${base}/2/assets`, carolToken, { name: "gone.png", data: png })).body;
    expect((await download(t, a.browser_download_url)).status).toBe(200);
    const files = storedFiles(t);
    expect((await t.request("DELETE", `${base}/2/assets/${a.id}`, { token: daveToken })).status).toBe(403);
    expect((await t.request("DELETE", `${base}/2/assets/${a.id}`, { token: carolToken })).status).toBe(204);
    expect((await t.json("GET", `${base}/2/assets/${a.id}`)).status).toBe(404);
    expect(storedFiles(t)).toEqual(files.filter((f) => f !== a.uuid));
    expect((await download(t, a.browser_download_url)).status).toBe(404);
  });
});

describe("download", () => {
  test("browser_download_url serves the exact bytes, safely, and counts downloads", async () => {
    const a = (await upload(t, `${base}/2/assets`, carolToken, { name: "exact.png", data: png })).body;
    const r = await download(t, a.browser_download_url);
    expect(r.status).toBe(200);
    expect(new Uint8Array(await r.arrayBuffer())).toEqual(png);
    expect(r.headers.get("content-type")).toBe("image/png");
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(r.headers.get("content-security-policy")).toContain("sandbox");
    expect(r.headers.get("content-disposition")).toBe(`inline; filename="exact.png"; filename*=UTF-8''exact.png`);
    await download(t, a.browser_download_url);
    expect((await ok(t, "GET", `${base}/2/assets/${a.id}`, undefined)).download_count).toBe(2);
    const cached = await download(t, a.browser_download_url, { headers: { "If-None-Match": `"${a.uuid}"` } });
    expect(cached.status).toBe(304);
    expect((await download(t, `${ROOT_URL}attachments/00000000-0000-0000-0000-000000000000`)).status).toBe(404);
    expect((await download(t, `${ROOT_URL}attachments/..%2f..%2fhearth.db`)).status).toBe(404);
  });

  test("HTML is never served as HTML", async () => {
    const a = (await upload(t, `${base}/2/assets`, carolToken, { name: "page.txt", data: "<html><script>alert(1)</script></html>" })).body;
    const r = await download(t, a.browser_download_url);
    expect(r.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await r.text()).toBe("<html><script>alert(1)</script></html>");
  });

  test("a private repository's attachment is for its readers only; scoped tokens need read:issue", async () => {
    const a = (await upload(t, "/api/v1/repos/alice/secret/issues/1/assets", carolToken, { name: "private.png", data: png })).body;
    expect(a.name).toBe("private.png");
    expect((await download(t, a.browser_download_url)).status).toBe(404);
    expect((await download(t, a.browser_download_url, { token: bobToken })).status).toBe(404);
    expect((await download(t, a.browser_download_url, { basic: ["bob", "password123"] })).status).toBe(404);
    const mine = await download(t, a.browser_download_url, { token: carolToken });
    expect(mine.status).toBe(200);
    expect(new Uint8Array(await mine.arrayBuffer())).toEqual(png);
    expect(mine.headers.get("cache-control")).toContain("private");
    expect((await download(t, a.browser_download_url, { basic: ["carol", "password123"] })).status).toBe(200);
    expect((await download(t, a.browser_download_url, { token: t.token(carol, ["read:issue"]) })).status).toBe(200);
    expect((await download(t, a.browser_download_url, { token: t.token(carol, ["read:repository"]) })).status).toBe(404);
    expect((await download(t, a.browser_download_url, { token: t.token(carol, ["read:issue", "public-only"]) })).status).toBe(404);
    expect((await download(t, a.browser_download_url, { token: "wrong" })).status).toBe(401);
    // Only the permitted downloads were counted.
    expect((await ok(t, "GET", `/api/v1/repos/alice/secret/issues/1/assets/${a.id}`, carolToken)).download_count).toBe(3);
  });
});

describe("comment attachments", () => {
  test("the comment's poster who writes attaches; the Comment JSON lists the file", async () => {
    const c = await ok(t, "POST", `${base}/2/comments`, carolToken, { body: "see attached" }, 201);
    const r = await upload(t, `${base}/comments/${c.id}/assets`, carolToken, { name: "log.txt", data: "line 1\n" });
    expect(r.status).toBe(201);
    expectShape(r.body, Attachment);
    const got = await ok(t, "GET", `${base}/comments/${c.id}`, undefined);
    expectShape(got, Comment);
    expect(got.assets).toEqual([r.body]);
    expect(await ok(t, "GET", `${base}/comments/${c.id}/assets`, undefined)).toEqual([r.body]);
    expect(await ok(t, "GET", `${base}/comments/${c.id}/assets/${r.body.id}`, undefined)).toEqual(r.body);
    // A comment's file is not one of the issue's own.
    expect((await ok(t, "GET", `${base}/2/assets`, undefined)).some((a: { id: number }) => a.id === r.body.id)).toBe(false);
    expect((await t.json("GET", `${base}/2/assets/${r.body.id}`)).status).toBe(404);
    const download1 = await download(t, r.body.browser_download_url);
    expect(await download1.text()).toBe("line 1\n");
  });

  test("who may attach: the poster or a repository admin, and only with write access", async () => {
    const byCarol = await ok(t, "POST", `${base}/2/comments`, carolToken, { body: "carol's" }, 201);
    const byBob = await ok(t, "POST", `${base}/2/comments`, bobToken, { body: "bob's" }, 201);
    const otherWriter = await t.user("erin");
    await ok(t, "PUT", "/api/v1/repos/alice/proj/collaborators/erin", aliceToken, { permission: "write" }, 204);
    const erinToken = t.token(otherWriter);
    const notPoster = await upload(t, `${base}/comments/${byCarol.id}/assets`, erinToken, { name: "x.png", data: png });
    expect(notPoster.status).toBe(403);
    expect(notPoster.body.message).toBe("user should have permission to edit comment");
    // bob posted his comment but only reads the repository.
    expect((await upload(t, `${base}/comments/${byBob.id}/assets`, bobToken, { name: "x.png", data: png })).status).toBe(403);
    expect((await upload(t, `${base}/comments/${byCarol.id}/assets`, aliceToken, { name: "admin.png", data: png })).status).toBe(201);
    expect((await upload(t, `${base}/comments/${byCarol.id}/assets`, undefined, { name: "x.png", data: png })).status).toBe(401);
    expect((await upload(t, `${base}/comments/999999/assets`, aliceToken, { name: "x.png", data: png })).status).toBe(404);
  });

  test("rename and delete, and a deleted comment takes its files along", async () => {
    const c = await ok(t, "POST", `${base}/2/comments`, carolToken, { body: "files" }, 201);
    const a = (await upload(t, `${base}/comments/${c.id}/assets`, carolToken, { name: "one.png", data: png })).body;
    const b = (await upload(t, `${base}/comments/${c.id}/assets`, carolToken, { name: "two.png", data: png })).body;
    const renamed = await t.json("PATCH", `${base}/comments/${c.id}/assets/${a.id}`, { token: carolToken, body: { name: "uno.png" } });
    expect(renamed.status).toBe(201);
    expect(renamed.body.name).toBe("uno.png");
    expect((await t.json("PATCH", `${base}/comments/${c.id}/assets/${a.id}`, { token: carolToken, body: { name: "uno.exe" } })).status).toBe(422);
    expect((await t.request("DELETE", `${base}/comments/${c.id}/assets/${a.id}`, { token: carolToken })).status).toBe(204);
    expect((await ok(t, "GET", `${base}/comments/${c.id}/assets`, undefined)).map((x: { id: number }) => x.id)).toEqual([b.id]);
    expect(storedFiles(t)).toContain(b.uuid);
    expect((await t.request("DELETE", `${base}/comments/${c.id}`, { token: carolToken })).status).toBe(204);
    expect(storedFiles(t)).not.toContain(b.uuid);
    expect((await download(t, b.browser_download_url)).status).toBe(404);
  });
});

describe("settings", () => {
  test("[attachment] MAX_SIZE: one byte over is 413 and nothing is stored; the limit itself is fine", async () => {
    const small = makeTestApp("[attachment]\nMAX_SIZE = 1\n");
    const owner = await small.user("owner");
    const token = small.token(owner);
    await ok(small, "POST", "/api/v1/user/repos", token, { name: "r" }, 201);
    await ok(small, "POST", "/api/v1/repos/owner/r/issues", token, { title: "big files" }, 201);
    const limit = 1024 * 1024;
    const tooBig = await upload(small, "/api/v1/repos/owner/r/issues/1/assets", token, { name: "big.txt", data: "a".repeat(limit + 1) });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toBe(`attachment exceeds limit ${limit}`);
    expect(storedFiles(small)).toEqual([]);
    expect(await ok(small, "GET", "/api/v1/repos/owner/r/issues/1/assets", token)).toEqual([]);
    const streamed = await uploadInPieces(small, "/api/v1/repos/owner/r/issues/1/assets", token, { name: "big.txt", data: "b".repeat(limit + 1) }, 64 * 1024);
    expect(streamed.status).toBe(413);
    expect(storedFiles(small)).toEqual([]);
    const fits = await upload(small, "/api/v1/repos/owner/r/issues/1/assets", token, { name: "fits.txt", data: "a".repeat(limit) });
    expect(fits.status).toBe(201);
    expect(fits.body.size).toBe(limit);
  });

  test("[attachment] ALLOWED_TYPES by mime type and wildcard, as Gitea checks them", async () => {
    const typed = makeTestApp("[attachment]\nALLOWED_TYPES = image/*, application/pdf\n");
    const owner = await typed.user("owner");
    const token = typed.token(owner);
    await ok(typed, "POST", "/api/v1/user/repos", token, { name: "r" }, 201);
    await ok(typed, "POST", "/api/v1/repos/owner/r/issues", token, { title: "types" }, 201);
    const path = "/api/v1/repos/owner/r/issues/1/assets";
    expect((await upload(typed, path, token, { name: "picture.bin", data: png })).status).toBe(201);
    expect((await upload(typed, path, token, { name: "doc", data: "%PDF-1.4 ..." })).status).toBe(201);
    expect((await upload(typed, path, token, { name: "notes.png", data: "just text" })).status).toBe(422);
  });

  test("[attachment] ENABLED = false: the asset routes are not there", async () => {
    const off = makeTestApp("[attachment]\nENABLED = false\n");
    const owner = await off.user("owner");
    const token = off.token(owner);
    await ok(off, "POST", "/api/v1/user/repos", token, { name: "r" }, 201);
    await ok(off, "POST", "/api/v1/repos/owner/r/issues", token, { title: "no files" }, 201);
    expect((await off.json("GET", "/api/v1/repos/owner/r/issues/1/assets", { token })).status).toBe(404);
    expect((await upload(off, "/api/v1/repos/owner/r/issues/1/assets", token, { name: "a.png", data: png })).status).toBe(404);
  });

  test("an archived repository takes no new files (423)", async () => {
    await ok(t, "POST", "/api/v1/user/repos", aliceToken, { name: "frozen" }, 201);
    await ok(t, "POST", "/api/v1/repos/alice/frozen/issues", aliceToken, { title: "old" }, 201);
    await ok(t, "PATCH", "/api/v1/repos/alice/frozen", aliceToken, { archived: true });
    expect((await upload(t, "/api/v1/repos/alice/frozen/issues/1/assets", aliceToken, { name: "a.png", data: png })).status).toBe(423);
  });
});

describe("deleting what attachments hang off", () => {
  test("deleting an issue deletes its and its comments' attachments, files included; deleting the repository too", async () => {
    await ok(t, "POST", "/api/v1/user/repos", aliceToken, { name: "doomed" }, 201);
    const b = "/api/v1/repos/alice/doomed/issues";
    await ok(t, "POST", b, aliceToken, { title: "goes" }, 201);
    await ok(t, "POST", b, aliceToken, { title: "stays until the repo goes" }, 201);
    const comment = await ok(t, "POST", `${b}/1/comments`, aliceToken, { body: "c" }, 201);
    const onIssue = await upload(t, `${b}/1/assets`, aliceToken, { name: "a.png", data: png });
    const onComment = await upload(t, `/api/v1/repos/alice/doomed/issues/comments/${comment.id}/assets`, aliceToken, { name: "b.png", data: png });
    const other = await upload(t, `${b}/2/assets`, aliceToken, { name: "c.png", data: png });
    for (const r of [onIssue, onComment, other]) expect(r.status).toBe(201);
    const names = () => storedFiles(t);
    expect(names()).toEqual(expect.arrayContaining([onIssue.body.uuid, onComment.body.uuid, other.body.uuid]));
    await ok(t, "DELETE", `${b}/1`, aliceToken, undefined, 204);
    expect(names()).not.toContain(onIssue.body.uuid);
    expect(names()).not.toContain(onComment.body.uuid);
    expect((await download(t, onIssue.body.browser_download_url, { token: aliceToken })).status).toBe(404);
    expect(names()).toContain(other.body.uuid);
    await ok(t, "DELETE", "/api/v1/repos/alice/doomed", aliceToken, undefined, 204);
    expect(names()).not.toContain(other.body.uuid);
  });
});
