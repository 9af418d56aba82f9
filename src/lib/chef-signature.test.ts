import { describe, expect, test } from "bun:test";
import { ChefAuthError, chefAuthorization, chefSignedText, chefSignVersion, parseRfc3339 } from "./chef-signature.ts";
import { cleanPath } from "./path.ts";

describe("chefSignVersion", () => {
  test("versions 1.0 to 1.3, sha1 or (1.3 only) sha256, as Gitea's getSignVersion", () => {
    expect(chefSignVersion("algorithm=sha1;version=1.0;")).toBe("1.0");
    expect(chefSignVersion("version=1.1")).toBe("1.1");
    expect(chefSignVersion("version=1.2;algorithm=sha1")).toBe("1.2");
    expect(chefSignVersion("algorithm=sha256;version=1.3;")).toBe("1.3");
    for (const bad of [null, "", "version=none", "version=1.4", "version=1.0;algorithm=sha2", "version=1.0;algorithm=sha256"]) {
      expect(() => chefSignVersion(bad)).toThrow(ChefAuthError);
    }
  });
});

describe("chefAuthorization", () => {
  test("joins X-Ops-Authorization-1..N in order and decodes them", () => {
    const sig = Buffer.from(Array.from({ length: 100 }, (_, i) => i));
    const b64 = sig.toString("base64");
    const h = new Headers();
    // Out of order on purpose: the number orders them.
    h.set("X-Ops-Authorization-3", b64.slice(120));
    h.set("X-Ops-Authorization-1", b64.slice(0, 60));
    h.set("X-Ops-Authorization-2", b64.slice(60, 120));
    expect(chefAuthorization(h).equals(sig)).toBe(true);
  });
  test("a gap, none or no base64 is refused", () => {
    expect(() => chefAuthorization(new Headers())).toThrow(ChefAuthError);
    expect(() => chefAuthorization(new Headers({ "X-Ops-Authorization-1": "AAAA", "X-Ops-Authorization-3": "AAAA" }))).toThrow(ChefAuthError);
    expect(() => chefAuthorization(new Headers({ "X-Ops-Authorization-4": "dummy" }))).toThrow(ChefAuthError);
    expect(() => chefAuthorization(new Headers({ "X-Ops-Authorization-1": "no base64!" }))).toThrow(ChefAuthError);
  });
});

test("cleanPath is Go's path.Clean", () => {
  expect(cleanPath("/a//b/./c/../d/")).toBe("/a/b/d");
  expect(cleanPath("/../a")).toBe("/a");
  expect(cleanPath("/")).toBe("/");
  expect(cleanPath("")).toBe(".");
  expect(cleanPath("a/../../b")).toBe("../b");
});

describe("chefSignedText", () => {
  const req = { method: "POST", path: "/api//x/", contentHash: "HASH", timestamp: "2023-01-01T00:00:00Z", userId: "alice", serverApiVersion: "1" };
  const sha1 = (s: string) => new Bun.CryptoHasher("sha1").update(s).digest("base64");
  test("1.3: the plain lines, the path cleaned, the user as is", () => {
    expect(chefSignedText(req, "1.3")).toBe(
      "Method:POST\nPath:/api/x\nX-Ops-Content-Hash:HASH\nX-Ops-Sign:version=1.3\nX-Ops-Timestamp:2023-01-01T00:00:00Z\nX-Ops-UserId:alice\nX-Ops-Server-API-Version:1",
    );
  });
  test("1.0: the hashed path; 1.1 and 1.2 hash the user id too", () => {
    const old = (user: string) => `Method:POST\nHashed Path:${sha1("/api/x")}\nX-Ops-Content-Hash:HASH\nX-Ops-Timestamp:2023-01-01T00:00:00Z\nX-Ops-UserId:${user}`;
    expect(chefSignedText(req, "1.0")).toBe(old("alice"));
    expect(chefSignedText(req, "1.1")).toBe(old(sha1("alice")));
    expect(chefSignedText(req, "1.2")).toBe(old(sha1("alice")));
  });
});

test("parseRfc3339 reads what Go's time.RFC3339 reads", () => {
  expect(parseRfc3339("2023-01-01T00:00:00Z")).toBe(Date.UTC(2023, 0, 1));
  expect(parseRfc3339("2023-01-01T02:30:00+02:30")).toBe(Date.UTC(2023, 0, 1));
  expect(parseRfc3339("2023-01-01T00:00:00.5Z")).toBe(Date.UTC(2023, 0, 1) + 500);
  for (const bad of ["", "yesterday", "2023-01-01", "2023-01-01 00:00:00Z", "2023-02-30T00:00:00Z", "2023-01-01T24:00:00Z", "2023-01-01T00:00:00"]) {
    expect(parseRfc3339(bad)).toBeUndefined();
  }
});
