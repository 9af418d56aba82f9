import { describe, expect, test } from "bun:test";
import { isDigest, isImageName, isSha256Digest, isTag, ManifestError, parseContentRange, parseManifest, parseOciPath, platformOf } from "./oci.ts";

const D = `sha256:${"a".repeat(64)}`;
const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

describe("oci", () => {
  test("image names, tags and digests as Gitea and the spec allow them", () => {
    expect(isImageName("app")).toBe(true);
    expect(isImageName("group/sub-app/x.y_z")).toBe(true);
    expect(isImageName("App")).toBe(false);
    expect(isImageName("a//b")).toBe(false);
    expect(isImageName("-a")).toBe(false);
    expect(isTag("v1.0_rc-1")).toBe(true);
    expect(isTag(".hidden")).toBe(false);
    expect(isTag("x".repeat(129))).toBe(false);
    expect(isSha256Digest(D)).toBe(true);
    expect(isSha256Digest(`sha256:${"A".repeat(64)}`)).toBe(false);
    expect(isDigest("sha512:abc")).toBe(true);
    expect(isDigest("latest")).toBe(false);
  });

  test("the path below /v2/{owner}/ with names holding slashes", () => {
    expect(parseOciPath("a/b/manifests/latest")).toEqual({ kind: "manifest", image: "a/b", reference: "latest" });
    expect(parseOciPath(`img/blobs/${D}`)).toEqual({ kind: "blob", image: "img", digest: D });
    expect(parseOciPath("img/blobs/uploads/")).toEqual({ kind: "uploads", image: "img" });
    expect(parseOciPath("x/y/z/blobs/uploads/abc")).toEqual({ kind: "upload", image: "x/y/z", uuid: "abc" });
    expect(parseOciPath("img/tags/list")).toEqual({ kind: "tags", image: "img" });
    expect(parseOciPath("img/sha256%3Aabc/blobs/uploads")).toEqual({ kind: "uploads", image: "img/sha256:abc" });
    expect(parseOciPath("manifests/x")).toBeUndefined();
    expect(parseOciPath("img/other/x")).toBeUndefined();
    expect(parseOciPath("img/%zz/tags/list")).toBeUndefined();
  });

  test("Content-Range as clients send it", () => {
    expect(parseContentRange("0-99")).toEqual({ start: 0, end: 99 });
    expect(parseContentRange("bytes=5-9")).toEqual({ start: 5, end: 9 });
    expect(parseContentRange("bytes 5-9/10")).toEqual({ start: 5, end: 9 });
    expect(parseContentRange("5-")).toBeUndefined();
    expect(parseContentRange("abc")).toBeUndefined();
  });

  test("manifests: media type from the request or the document, schema 2 only, descriptors checked", () => {
    const image = { schemaVersion: 2, config: { mediaType: "c", digest: D, size: 3 }, layers: [{ mediaType: "l", digest: D, size: 4 }] };
    const m = parseManifest(enc(image), "application/vnd.oci.image.manifest.v1+json; charset=utf-8");
    expect(m).toEqual({ kind: "image", mediaType: "application/vnd.oci.image.manifest.v1+json", config: { mediaType: "c", digest: D, size: 3 }, layers: [{ mediaType: "l", digest: D, size: 4 }] });
    const docker = parseManifest(enc({ ...image, mediaType: "application/vnd.docker.distribution.manifest.v2+json" }), "application/json");
    expect(docker.mediaType).toBe("application/vnd.docker.distribution.manifest.v2+json");
    const index = parseManifest(
      enc({ schemaVersion: 2, manifests: [{ mediaType: "application/vnd.oci.image.manifest.v1+json", digest: D, size: 1, platform: { os: "linux", architecture: "arm64", variant: "v8" } }] }),
      "application/vnd.oci.image.index.v1+json",
    );
    expect(index.kind).toBe("index");
    if (index.kind === "index") expect(platformOf(index.manifests[0]!)).toBe("linux/arm64/v8");
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e instanceof ManifestError ? e.code : "other";
      }
      return "none";
    };
    expect(code(() => parseManifest(enc({ schemaVersion: 1 }), "application/vnd.oci.image.manifest.v1+json"))).toBe("UNSUPPORTED");
    expect(code(() => parseManifest(enc(image), "text/plain"))).toBe("MANIFEST_INVALID");
    expect(code(() => parseManifest(new TextEncoder().encode("{"), "application/vnd.oci.image.manifest.v1+json"))).toBe("MANIFEST_INVALID");
    expect(code(() => parseManifest(enc({ ...image, config: { digest: "nope" } }), "application/vnd.oci.image.manifest.v1+json"))).toBe("MANIFEST_INVALID");
    expect(code(() => parseManifest(enc({ schemaVersion: 2, manifests: [{ mediaType: "x", digest: D }] }), "application/vnd.oci.image.index.v1+json"))).toBe("MANIFEST_INVALID");
  });
});
