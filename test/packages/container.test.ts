import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { getBlobBySha256, getPackage, getVersion } from "../../src/models/package.ts";
import { makeTestApp, ROOT_URL, type TestApp } from "../support/app.ts";

// The container registry over HTTP as Gitea's tests/integration/api_packages_container_test.go
// drives it: the token dance, blobs (monolithic, chunked, mounted), manifests by tag and digest in
// OCI and Docker media types, tags and the catalog with Link paging, deletes.

const sha = (b: string | Uint8Array) => `sha256:${new Bun.CryptoHasher("sha256").update(b).digest("hex")}`;
const OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
const OCI_INDEX = "application/vnd.oci.image.index.v1+json";
const DOCKER_MANIFEST = "application/vnd.docker.distribution.manifest.v2+json";

async function registryToken(t: TestApp, basic?: [string, string]): Promise<string> {
  const r = await t.json("GET", "/v2/token", basic ? { basic } : {});
  expect(r.status).toBe(200);
  expect(r.body.access_token).toBe(r.body.token);
  return r.body.token;
}

const bearer = (token: string, headers: Record<string, string> = {}) => ({ headers: { Authorization: `Bearer ${token}`, ...headers } });

function imageManifest(config: string, layers: string[], mediaType = OCI_MANIFEST): string {
  return JSON.stringify({
    schemaVersion: 2,
    mediaType,
    config: { mediaType: "application/vnd.oci.image.config.v1+json", digest: sha(config), size: config.length },
    layers: layers.map((l) => ({ mediaType: "application/vnd.oci.image.layer.v1.tar+gzip", digest: sha(l), size: l.length })),
  });
}

async function pushBlob(t: TestApp, token: string, image: string, data: string): Promise<Response> {
  return t.request("POST", `/v2/${image}/blobs/uploads/?digest=${sha(data)}`, { ...bearer(token), body: data });
}

describe("container registry", () => {
  const t = makeTestApp();

  test("/v2/ challenges the anonymous, the token endpoint answers, tokens are accepted", async () => {
    const anon = await t.request("GET", "/v2/");
    expect(anon.status).toBe(401);
    expect(anon.headers.get("www-authenticate")).toBe(`Bearer realm="${ROOT_URL}v2/token",service="container_registry",scope="*"`);
    expect(anon.headers.get("docker-distribution-api-version")).toBe("registry/2.0");
    expect(((await anon.json()) as any).errors[0].code).toBe("UNAUTHORIZED");
    const alice = await t.user("alice");
    const userToken = await registryToken(t, ["alice", "password123"]);
    const ok = await t.request("GET", "/v2/", bearer(userToken));
    expect(ok.status).toBe(200);
    expect(ok.headers.get("docker-distribution-api-version")).toBe("registry/2.0");
    // An anonymous token passes the door; an access token works as Bearer too.
    expect((await t.request("GET", "/v2/", bearer(await registryToken(t)))).status).toBe(200);
    expect((await t.request("GET", "/v2/", bearer(t.token(alice, ["read:package"])))).status).toBe(200);
    // A forged or altered token is no credential.
    expect((await t.request("GET", "/v2/", bearer(`${userToken.slice(0, -2)}xx`))).status).toBe(401);
    expect((await t.request("GET", "/v2/token", { basic: ["alice", "wrong"] })).status).toBe(401);
  });

  test("monolithic blobs, manifests by tag and digest, HEAD/GET, tags/list paging", async () => {
    await t.user("bob");
    const token = await registryToken(t, ["bob", "password123"]);
    const config = '{"architecture":"amd64","os":"linux"}';
    const layer = "layer-bytes";
    const up = await pushBlob(t, token, "bob/app", config);
    expect(up.status).toBe(201);
    expect(up.headers.get("docker-content-digest")).toBe(sha(config));
    expect(up.headers.get("location")).toBe(`/v2/bob/app/blobs/${sha(config)}`);
    expect((await pushBlob(t, token, "bob/app", layer)).status).toBe(201);
    const bad = await t.request("POST", `/v2/bob/app/blobs/uploads/?digest=${sha("other")}`, { ...bearer(token), body: "x" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).errors[0].code).toBe("DIGEST_INVALID");

    const head = await t.request("HEAD", `/v2/bob/app/blobs/${sha(layer)}`, bearer(token));
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(layer.length));
    expect(head.headers.get("docker-content-digest")).toBe(sha(layer));
    const get = await t.request("GET", `/v2/bob/app/blobs/${sha(layer)}`, bearer(token));
    expect(await get.text()).toBe(layer);
    const unknown = await t.request("GET", `/v2/bob/app/blobs/${sha("nope")}`, bearer(token));
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as any).errors[0].code).toBe("BLOB_UNKNOWN");

    // A manifest naming a blob the image lacks is refused.
    const missing = await t.request("PUT", "/v2/bob/app/manifests/v1", { ...bearer(token, { "Content-Type": OCI_MANIFEST }), body: imageManifest(config, ["absent"]) });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as any).errors[0].code).toBe("BLOB_UNKNOWN");

    const manifest = imageManifest(config, [layer]);
    const put = await t.request("PUT", "/v2/bob/app/manifests/v1", { ...bearer(token, { "Content-Type": OCI_MANIFEST }), body: manifest });
    expect(put.status).toBe(201);
    expect(put.headers.get("docker-content-digest")).toBe(sha(manifest));
    expect(put.headers.get("location")).toBe("/v2/bob/app/manifests/v1");
    for (const ref of ["v1", sha(manifest)]) {
      const m = await t.request("GET", `/v2/bob/app/manifests/${ref}`, bearer(token));
      expect(m.status).toBe(200);
      expect(m.headers.get("content-type")).toBe(OCI_MANIFEST);
      expect(m.headers.get("docker-content-digest")).toBe(sha(manifest));
      expect(await m.text()).toBe(manifest);
      const h = await t.request("HEAD", `/v2/bob/app/manifests/${ref}`, bearer(token));
      expect(h.headers.get("content-length")).toBe(String(manifest.length));
    }
    // Each GET of the manifest (not a HEAD) counted a download of the tag's version.
    const listed = await t.json("GET", "/api/v1/packages/bob?type=container", bearer(t.token(await t.user("bob-admin", { admin: true }))));
    expect(listed.status).toBe(200);
    expect(listed.body.map((p: any) => [p.name, p.version])).toEqual([["app", "v1"]]);
    const pkg = getPackage(t.env.db, listed.body[0].owner.id, "container", "app")!;
    expect(getVersion(t.env.db, pkg.id, "v1")!.downloadCount).toBe(2);
    expect(getVersion(t.env.db, pkg.id, "_upload")!.isInternal).toBe(true);
    // Docker's media type, by the document's own mediaType; and pushed by digest (untagged).
    const docker = imageManifest(config, [layer], DOCKER_MANIFEST);
    expect((await t.request("PUT", "/v2/bob/app/manifests/v2", { ...bearer(token), body: docker })).status).toBe(201);
    expect((await t.request("GET", "/v2/bob/app/manifests/v2", bearer(token))).headers.get("content-type")).toBe(DOCKER_MANIFEST);
    const untagged = imageManifest(config, [], DOCKER_MANIFEST);
    expect((await t.request("PUT", `/v2/bob/app/manifests/${sha(untagged)}`, { ...bearer(token), body: untagged })).status).toBe(201);
    const wrong = await t.request("PUT", `/v2/bob/app/manifests/${sha("x")}`, { ...bearer(token), body: untagged });
    expect(wrong.status).toBe(400);
    // An index of manifests the image has; one it lacks is MANIFEST_BLOB_UNKNOWN.
    const index = (digests: string[]) =>
      JSON.stringify({ schemaVersion: 2, mediaType: OCI_INDEX, manifests: digests.map((d) => ({ mediaType: OCI_MANIFEST, digest: d, size: 1, platform: { os: "linux", architecture: "amd64" } })) });
    const idx = await t.request("PUT", "/v2/bob/app/manifests/multi", { ...bearer(token, { "Content-Type": OCI_INDEX }), body: index([sha(manifest)]) });
    expect(idx.status).toBe(201);
    const idxBad = await t.request("PUT", "/v2/bob/app/manifests/multi2", { ...bearer(token, { "Content-Type": OCI_INDEX }), body: index([sha("none")]) });
    expect(idxBad.status).toBe(404);
    expect(((await idxBad.json()) as any).errors[0].code).toBe("MANIFEST_BLOB_UNKNOWN");
    const schema1 = await t.request("PUT", "/v2/bob/app/manifests/old", { ...bearer(token, { "Content-Type": OCI_MANIFEST }), body: '{"schemaVersion":1}' });
    expect(((await schema1.json()) as any).errors[0].code).toBe("UNSUPPORTED");

    const all = await t.json("GET", "/v2/bob/app/tags/list", bearer(token));
    expect(all.body).toEqual({ name: "bob/app", tags: ["multi", "v1", "v2"] });
    expect(all.headers.get("link")).toBe('</v2/bob/app/tags/list?last=v2>; rel="next"');
    const page = await t.json("GET", "/v2/bob/app/tags/list?n=2", bearer(token));
    expect(page.body.tags).toEqual(["multi", "v1"]);
    expect(page.headers.get("link")).toBe('</v2/bob/app/tags/list?last=v1&n=2>; rel="next"');
    const next = await t.json("GET", "/v2/bob/app/tags/list?n=2&last=v1", bearer(token));
    expect(next.body.tags).toEqual(["v2"]);
    const none = await t.json("GET", "/v2/bob/nothing/tags/list", bearer(token));
    expect(none.status).toBe(404);
    expect(none.body.errors[0].code).toBe("NAME_UNKNOWN");
    expect((await t.json("GET", "/v2/bob/Bad_Name/tags/list", bearer(token))).body.errors[0].code).toBe("NAME_INVALID");

    // Anonymous tokens read public images, write nothing.
    const anon = await registryToken(t);
    expect((await t.request("GET", "/v2/bob/app/manifests/v1", bearer(anon))).status).toBe(200);
    const denied = await pushBlob(t, anon, "bob/app", "anon");
    expect(denied.status).toBe(401);
    expect(denied.headers.get("www-authenticate")).toContain("Bearer realm=");
    // Another user may read but not write.
    await t.user("carl");
    const carl = await registryToken(t, ["carl", "password123"]);
    const carlPush = await pushBlob(t, carl, "bob/app", "carl");
    expect(carlPush.status).toBe(403);
    expect(((await carlPush.json()) as any).errors[0].code).toBe("DENIED");
  });

  test("chunked uploads: PATCH with Content-Range, 416 out of order, status, PUT ?digest=, cancel", async () => {
    await t.user("dora");
    const token = await registryToken(t, ["dora", "password123"]);
    const start = await t.request("POST", "/v2/dora/img/blobs/uploads/", bearer(token));
    expect(start.status).toBe(202);
    const uuid = start.headers.get("docker-upload-uuid")!;
    expect(start.headers.get("location")).toBe(`/v2/dora/img/blobs/uploads/${uuid}`);
    expect(start.headers.get("range")).toBe("0-0");
    const p1 = await t.request("PATCH", `/v2/dora/img/blobs/uploads/${uuid}`, { ...bearer(token, { "Content-Range": "0-4" }), body: "hello" });
    expect(p1.status).toBe(202);
    expect(p1.headers.get("range")).toBe("0-4");
    const skip = await t.request("PATCH", `/v2/dora/img/blobs/uploads/${uuid}`, { ...bearer(token, { "Content-Range": "9-12" }), body: "late" });
    expect(skip.status).toBe(416);
    expect(((await skip.json()) as any).errors[0].code).toBe("BLOB_UPLOAD_INVALID");
    const noRange = await t.request("PATCH", `/v2/dora/img/blobs/uploads/${uuid}`, { ...bearer(token), body: "more" });
    expect(noRange.status).toBe(400);
    const p2 = await t.request("PATCH", `/v2/dora/img/blobs/uploads/${uuid}`, { ...bearer(token, { "Content-Range": "5-10" }), body: " world" });
    expect(p2.headers.get("range")).toBe("0-10");
    const status = await t.request("GET", `/v2/dora/img/blobs/uploads/${uuid}`, bearer(token));
    expect(status.status).toBe(204);
    expect(status.headers.get("docker-upload-uuid")).toBe(uuid);
    const badDigest = await t.request("PUT", `/v2/dora/img/blobs/uploads/${uuid}?digest=${sha("x")}`, bearer(token));
    expect(badDigest.status).toBe(400);
    const fresh = (await t.request("POST", "/v2/dora/img/blobs/uploads/", bearer(token))).headers.get("docker-upload-uuid")!;
    await t.request("PATCH", `/v2/dora/img/blobs/uploads/${fresh}`, { ...bearer(token, { "Content-Range": "0-5" }), body: "hello " });
    const done = await t.request("PUT", `/v2/dora/img/blobs/uploads/${fresh}?digest=${sha("hello world")}`, { ...bearer(token), body: "world" });
    expect(done.status).toBe(201);
    expect(done.headers.get("docker-content-digest")).toBe(sha("hello world"));
    expect(await (await t.request("GET", `/v2/dora/img/blobs/${sha("hello world")}`, bearer(token))).text()).toBe("hello world");
    expect((await t.request("GET", `/v2/dora/img/blobs/uploads/${fresh}`, bearer(token))).status).toBe(404);
    // Cancel.
    const c = (await t.request("POST", "/v2/dora/img/blobs/uploads/", bearer(token))).headers.get("docker-upload-uuid")!;
    expect((await t.request("DELETE", `/v2/dora/img/blobs/uploads/${c}`, bearer(token))).status).toBe(204);
    const gone = await t.request("DELETE", `/v2/dora/img/blobs/uploads/${c}`, bearer(token));
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as any).errors[0].code).toBe("BLOB_UPLOAD_UNKNOWN");
    const dir = t.settings.packages.chunkedUploadPath;
    expect(existsSync(dir) ? readdirSync(dir).filter((f) => f === c || f === fresh) : []).toEqual([]);
  });

  test("cross-repository mount, blob and manifest deletes, the catalog with Link paging", async () => {
    const erin = await t.user("erin");
    const token = await registryToken(t, ["erin", "password123"]);
    const config = '{"os":"linux"}';
    expect((await pushBlob(t, token, "erin/one", config)).status).toBe(201);
    const mounted = await t.request("POST", `/v2/erin/two/blobs/uploads/?mount=${sha(config)}&from=erin/one`, bearer(token));
    expect(mounted.status).toBe(201);
    expect(mounted.headers.get("location")).toBe(`/v2/erin/two/blobs/${sha(config)}`);
    expect((await t.request("HEAD", `/v2/erin/two/blobs/${sha(config)}`, bearer(token))).status).toBe(200);
    // A mount of a blob not there starts an upload instead.
    const notThere = await t.request("POST", `/v2/erin/two/blobs/uploads/?mount=${sha("zzz")}&from=erin/one`, bearer(token));
    expect(notThere.status).toBe(202);

    const manifest = imageManifest(config, []);
    expect((await t.request("PUT", "/v2/erin/two/manifests/latest", { ...bearer(token, { "Content-Type": OCI_MANIFEST }), body: manifest })).status).toBe(201);
    expect((await t.request("PUT", "/v2/erin/two/manifests/stable", { ...bearer(token, { "Content-Type": OCI_MANIFEST }), body: manifest })).status).toBe(201);
    // Deleting the manifest by digest removes every tag holding it.
    expect((await t.request("DELETE", `/v2/erin/two/manifests/${sha(manifest)}`, bearer(token))).status).toBe(202);
    expect((await t.request("GET", "/v2/erin/two/manifests/latest", bearer(token))).status).toBe(404);
    expect((await t.request("GET", "/v2/erin/two/manifests/stable", bearer(token))).status).toBe(404);
    expect((await t.request("DELETE", `/v2/erin/two/manifests/${sha(manifest)}`, bearer(token))).status).toBe(404);
    // The image went with its last manifest, and the blob no image holds any more with it.
    expect(getPackage(t.env.db, erin.id, "container", "two")).toBeUndefined();
    expect(getBlobBySha256(t.env.db, sha(config).slice(7))).toBeDefined(); // erin/one still has it

    expect((await t.request("DELETE", `/v2/erin/one/blobs/${sha(config)}`, bearer(token))).status).toBe(202);
    expect((await t.request("HEAD", `/v2/erin/one/blobs/${sha(config)}`, bearer(token))).status).toBe(404);
    expect(getBlobBySha256(t.env.db, sha(config).slice(7))).toBeUndefined();

    const all = await t.json("GET", "/v2/_catalog", bearer(token));
    expect(all.status).toBe(200);
    expect(all.body.repositories).toContain("bob/app");
    const page = await t.json("GET", "/v2/_catalog?n=1", bearer(token));
    expect(page.body.repositories).toEqual([all.body.repositories[0]]);
    expect(page.headers.get("link")).toBe(`</v2/_catalog?last=${encodeURIComponent(all.body.repositories[0])}&n=1>; rel="next"`);
    const second = await t.json("GET", `/v2/_catalog?n=1&last=${encodeURIComponent(all.body.repositories[0])}`, bearer(token));
    expect(second.body.repositories).toEqual([all.body.repositories[1]]);
  });

  test("a private owner's images, a read-only token's registry token, REQUIRE_SIGNIN_VIEW", async () => {
    const fay = await t.user("fay");
    await t.ok("PATCH", "/api/v1/admin/users/fay", t.token(await t.user("root", { admin: true })), { login_name: "fay", source_id: 0, visibility: "private" });
    const token = await registryToken(t, ["fay", "password123"]);
    expect((await pushBlob(t, token, "fay/secret", "private bytes")).status).toBe(201);
    expect((await t.request("HEAD", `/v2/fay/secret/blobs/${sha("private bytes")}`, bearer(token))).status).toBe(200);
    const anon = await t.request("HEAD", `/v2/fay/secret/blobs/${sha("private bytes")}`, bearer(await registryToken(t)));
    expect(anon.status).toBe(401);
    await t.user("gus");
    const gus = await t.json("GET", `/v2/fay/secret/blobs/${sha("private bytes")}`, bearer(await registryToken(t, ["gus", "password123"])));
    expect(gus.status).toBe(403);
    expect(gus.body.errors[0].code).toBe("DENIED");
    // The catalog shows the image to its owner only.
    expect((await t.json("GET", "/v2/_catalog", bearer(token))).body.repositories).toContain("fay/secret");
    expect((await t.json("GET", "/v2/_catalog", bearer(await registryToken(t)))).body.repositories).not.toContain("fay/secret");
    // A registry token carries the scope of the access token it was issued for.
    const readOnly = t.token(fay, ["read:package"]);
    const scoped = await registryToken(t, ["fay", readOnly]);
    expect((await t.request("HEAD", `/v2/fay/secret/blobs/${sha("private bytes")}`, bearer(scoped))).status).toBe(200);
    expect((await pushBlob(t, scoped, "fay/secret", "more")).status).toBe(403);
  });
});

describe("container registry with REQUIRE_SIGNIN_VIEW", () => {
  const t = makeTestApp("[service]\nREQUIRE_SIGNIN_VIEW = true\n");

  test("no anonymous token, and an anonymous token is no credential", async () => {
    expect((await t.request("GET", "/v2/token")).status).toBe(401);
    await t.user("hal");
    expect((await t.request("GET", "/v2/", bearer(await registryToken(t, ["hal", "password123"])))).status).toBe(200);
  });
});
