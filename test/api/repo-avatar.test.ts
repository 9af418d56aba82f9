import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { makeTestApp } from "../support/app.ts";
import { repositories } from "../../src/db/schema/index.ts";

const t = makeTestApp();
const alice = await t.user("alice"); // owns alice/site and the acme organization
const bob = await t.user("bob"); // admin collaborator on alice/site
const carol = await t.user("carol"); // write collaborator on alice/site
const dave = await t.user("dave"); // nothing
const aliceToken = t.token(alice);
const bobToken = t.token(bob);
const carolToken = t.token(carol);
const daveToken = t.token(dave);

await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "site" }, 201);
await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "secret", private: true }, 201);
await t.ok("PUT", "/api/v1/repos/alice/site/collaborators/bob", aliceToken, { permission: "admin" }, 204);
await t.ok("PUT", "/api/v1/repos/alice/site/collaborators/carol", aliceToken, { permission: "write" }, 204);

const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
const gif = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
const SITE = "/api/v1/repos/alice/site";
const upload = (path: string, image: string | undefined, token = aliceToken) =>
  t.json("POST", `${path}/avatar`, { token: token || undefined, body: image === undefined ? {} : { image } });
const remove = (path: string, token = aliceToken) => t.json("DELETE", `${path}/avatar`, { token: token || undefined });
const avatarUrl = async (path: string) => (await t.ok("GET", path, aliceToken)).avatar_url as string;
const repoAvatarDir = () => join(t.settings.server.appDataPath, "repo-avatars");
const storedFiles = () => (existsSync(repoAvatarDir()) ? readdirSync(repoAvatarDir()) : []);

describe("upload and delete", () => {
  test("no avatar is an empty avatar_url; an upload is served at /repo-avatars/{hash}; a new one replaces the file", async () => {
    expect(await avatarUrl(SITE)).toBe("");
    const siteId = (await t.ok("GET", SITE, aliceToken)).id as number;
    t.env.db.update(repositories).set({ updatedUnix: 1_000_000_000 }).where(eq(repositories.id, siteId)).run();

    const up = await upload(SITE, png.toString("base64"));
    expect(up.status).toBe(204);
    expect(up.body).toBeUndefined();
    const url = await avatarUrl(SITE);
    expect(url).toMatch(/^http:\/\/hearth\.test\/repo-avatars\/[0-9a-f]{64}$/);
    const img = await t.request("GET", new URL(url).pathname);
    expect(img.status).toBe(200);
    expect(img.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await img.arrayBuffer()).equals(png)).toBe(true);
    // Gitea changes the avatar column only (no updated_at bump).
    expect((await t.ok("GET", SITE, aliceToken)).updated_at).toBe("2001-09-09T01:46:40Z");
    // The repository list shows it too.
    const listed = (await t.ok("GET", "/api/v1/user/repos", aliceToken)).find((r: { name: string }) => r.name === "site");
    expect(listed.avatar_url).toBe(url);

    // The same image again changes nothing.
    expect((await upload(SITE, png.toString("base64"))).status).toBe(204);
    expect(await avatarUrl(SITE)).toBe(url);

    expect((await upload(SITE, gif.toString("base64"))).status).toBe(204);
    const next = await avatarUrl(SITE);
    expect(next).not.toBe(url);
    expect((await t.request("GET", new URL(next).pathname)).headers.get("content-type")).toBe("image/gif");
    expect((await t.request("GET", new URL(url).pathname)).status).toBe(404);
    expect(storedFiles()).toEqual([next.slice(next.lastIndexOf("/") + 1)]);

    expect((await remove(SITE)).status).toBe(204);
    expect(await avatarUrl(SITE)).toBe("");
    expect((await t.request("GET", new URL(next).pathname)).status).toBe(404);
    expect(storedFiles()).toEqual([]);
    // Deleting when there is none is not an error, as in Gitea.
    expect((await remove(SITE)).status).toBe(204);
  });

  test("the same image on two repositories is two files: deleting one leaves the other's", async () => {
    await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "other" }, 201);
    await t.ok("POST", `${SITE}/avatar`, aliceToken, { image: png.toString("base64") }, 204);
    await t.ok("POST", "/api/v1/repos/alice/other/avatar", aliceToken, { image: png.toString("base64") }, 204);
    const [a, b] = [await avatarUrl(SITE), await avatarUrl("/api/v1/repos/alice/other")];
    expect(a).not.toBe(b);
    await t.ok("DELETE", "/api/v1/repos/alice/other", aliceToken, undefined, 204);
    expect((await t.request("GET", new URL(b).pathname)).status).toBe(404);
    expect((await t.request("GET", new URL(a).pathname)).status).toBe(200);
    await t.ok("DELETE", `${SITE}/avatar`, aliceToken, undefined, 204);
  });

  test("/repo-avatars serves nothing but stored names", async () => {
    for (const name of ["nosuch", "0".repeat(64), "..%2F..%2Fetc%2Fpasswd"]) {
      expect((await t.request("GET", `/repo-avatars/${name}`)).status).toBe(404);
    }
  });
});

describe("refusals", () => {
  test("bad base64 is Gitea's 400, a non-image or no image 422; nothing changes", async () => {
    const bad = await upload(SITE, "Inva!id");
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("illegal base64 data at input byte 4");
    expect((await upload(SITE, Buffer.from("# README\n").toString("base64"))).status).toBe(422);
    expect((await upload(SITE, undefined)).status).toBe(422);
    expect(await avatarUrl(SITE)).toBe("");
    expect(storedFiles()).toEqual([]);
  });

  test("an image over [picture] AVATAR_MAX_FILE_SIZE is refused", async () => {
    const small = makeTestApp("[picture]\nAVATAR_MAX_FILE_SIZE = 32\n");
    const owner = await small.user("owner");
    const token = small.token(owner);
    await small.ok("POST", "/api/v1/user/repos", token, { name: "r" }, 201);
    const r = await small.json("POST", "/api/v1/repos/owner/r/avatar", { token, body: { image: png.toString("base64") } });
    expect(r.status).toBe(413);
    expect((await small.ok("GET", "/api/v1/repos/owner/r", token)).avatar_url).toBe("");
  });

  test("repository administrators only: an admin collaborator may, a writer 403, a stranger 404 on a private repository, anonymous 401", async () => {
    expect((await upload(SITE, png.toString("base64"), bobToken)).status).toBe(204);
    expect(await avatarUrl(SITE)).not.toBe("");
    expect((await remove(SITE, bobToken)).status).toBe(204);

    const writer = await upload(SITE, png.toString("base64"), carolToken);
    expect(writer.status).toBe(403);
    expect(writer.body.message).toBe("user should be an owner or a collaborator with admin write of a repository");
    expect((await remove(SITE, carolToken)).status).toBe(403);
    expect((await upload(SITE, png.toString("base64"), daveToken)).status).toBe(403);
    expect((await upload("/api/v1/repos/alice/secret", png.toString("base64"), daveToken)).status).toBe(404);
    expect((await upload("/api/v1/repos/alice/nosuch", png.toString("base64"))).status).toBe(404);
    expect((await upload(SITE, png.toString("base64"), "")).status).toBe(401);
    expect((await remove(SITE, "")).status).toBe(401);
    // The token needs write:repository.
    expect((await upload(SITE, png.toString("base64"), t.token(alice, ["read:repository"]))).status).toBe(403);
    expect((await upload(SITE, png.toString("base64"), t.token(alice, ["write:user"]))).status).toBe(403);
    expect((await upload(SITE, png.toString("base64"), t.token(alice, ["write:repository"]))).status).toBe(204);
    expect((await remove(SITE, t.token(alice, ["write:repository"]))).status).toBe(204);
    expect(await avatarUrl(SITE)).toBe("");
  });

  test("an archived repository's avatar is locked (423), upload and delete", async () => {
    await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "old" }, 201);
    const OLD = "/api/v1/repos/alice/old";
    await t.ok("POST", `${OLD}/avatar`, aliceToken, { image: png.toString("base64") }, 204);
    const url = await avatarUrl(OLD);
    await t.ok("PATCH", OLD, aliceToken, { archived: true });
    const up = await upload(OLD, gif.toString("base64"));
    expect(up.status).toBe(423);
    expect(up.body.message).toBe("alice/old is archived");
    expect((await remove(OLD)).status).toBe(423);
    expect(await avatarUrl(OLD)).toBe(url);
    // Still a 403 first for a non-admin, as the admin check runs before the archive check.
    expect((await upload(OLD, gif.toString("base64"), carolToken)).status).toBe(403);
    await t.ok("PATCH", OLD, aliceToken, { archived: false });
    expect((await remove(OLD)).status).toBe(204);
  });
});
