import { beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../support/app.ts";
import { populateRepo } from "../support/fixtures.ts";
import { WebClient, signedIn, visibleText } from "../support/web.ts";
import { requireUser } from "../../src/services/user/lookup.ts";

const API = "/api/v1/repos";
const pathOf = (url: string) => new URL(url).pathname;
const hrefs = (page: string) => [...page.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&"));

const ASSET = new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 0xff, 0x00, 0x10, 0x20, 0x7f]);

async function uploadAsset(t: TestApp, token: string, repo: string, releaseId: number, name: string, data: Uint8Array) {
  const form = new FormData();
  form.append("attachment", new Blob([new Uint8Array(data)]), name);
  const res = await t.request("POST", `${API}/alice/${repo}/releases/${releaseId}/assets`, { token, body: form });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: number; download_count: number };
}

describe("release pages", () => {
  const t = makeTestApp();
  let token: string;
  const anon = new WebClient(t);
  let v2: { id: number; html_url: string; zipball_url: string; tarball_url: string };
  let assetId: number;

  beforeAll(async () => {
    const alice = await t.user("alice");
    await t.user("mallory");
    token = t.token(alice);
    await populateRepo(t, token, "alice", "tools");
    await populateRepo(t, token, "alice", "secret", { private: true });
    v2 = await t.ok("POST", `${API}/alice/tools/releases`, token, {
      tag_name: "v2",
      name: "Second <release>",
      body: "Notes with **bold** text.\n\n<script>alert(1)</script>",
      prerelease: true,
    }, 201);
    assetId = (await uploadAsset(t, token, "tools", v2.id, "tool-linux.tar.gz", ASSET)).id;
    const draft = await t.ok("POST", `${API}/alice/tools/releases`, token, { tag_name: "v3", name: "Unfinished", draft: true }, 201);
    await uploadAsset(t, token, "tools", draft.id, "draft.bin", ASSET);
    const secret = (await t.ok("GET", `${API}/alice/secret/releases/tags/v1`, token)) as { id: number };
    await uploadAsset(t, token, "secret", secret.id, "secret.bin", ASSET);
  });

  test("the list: newest first, Markdown notes rendered and sanitised, badges, assets and source archives", async () => {
    const page = await anon.page("/alice/tools/releases");
    const text = visibleText(page);
    expect(text).toContain("Releases 2");
    expect(text.indexOf("Second <release>")).toBeLessThan(text.indexOf("v1"));
    expect(page).toContain("<strong>bold</strong>");
    expect(page).not.toContain("<script>alert(1)</script>");
    expect(text).toContain("Pre-release");
    expect(text).toMatch(/tool-linux\.tar\.gz 9 B · 0 downloads/);
    expect(hrefs(page)).toContain("/alice/tools/releases/download/v2/tool-linux.tar.gz");
    // The source archives are the API's zipball_url and tarball_url.
    expect(hrefs(page)).toContain(pathOf(v2.zipball_url));
    expect(hrefs(page)).toContain(pathOf(v2.tarball_url));
    for (const url of [v2.zipball_url, v2.tarball_url]) {
      const archive = await anon.get(pathOf(url));
      expect(archive.status).toBe(200);
      await archive.arrayBuffer();
    }
    // v1 is the latest release (v2 is a pre-release); the draft is not shown to the anonymous.
    expect(text).toMatch(/v1 Latest/);
    expect(text).not.toContain("Unfinished");
  });

  test("a draft is shown to those who may write releases", async () => {
    const owner = await signedIn(t, "alice");
    const text = visibleText(await owner.page("/alice/tools/releases"));
    expect(text).toContain("Releases 3");
    expect(text).toContain("Unfinished Draft");
    await anon.page("/alice/tools/releases/tag/v3", 404);
    expect(visibleText(await owner.page("/alice/tools/releases/tag/v3"))).toContain("Unfinished");
  });

  test("the API's html_url opens the release", async () => {
    const page = await anon.page(pathOf(v2.html_url));
    const text = visibleText(page);
    expect(text).toContain("Second <release>");
    expect(text).toContain("Notes with bold text.");
    await anon.page("/alice/tools/releases/tag/nope", 404);
    // A tag name with a slash keeps it in the path.
    const slashed = await t.ok("POST", `${API}/alice/tools/releases`, token, { tag_name: "rel/2", name: "Slashed", prerelease: true }, 201);
    expect(pathOf(slashed.html_url)).toBe("/alice/tools/releases/tag/rel/2");
    expect(visibleText(await anon.page(pathOf(slashed.html_url)))).toContain("Slashed");
  });

  test("/releases/latest goes to the latest release, neither draft nor pre-release", async () => {
    const res = await anon.get("/alice/tools/releases/latest");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/alice/tools/releases/tag/v1");
  });

  test("an asset downloads by tag and name, anonymously, and is counted", async () => {
    const res = await anon.get("/alice/tools/releases/download/v2/tool-linux.tar.gz");
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(ASSET);
    expect(res.headers.get("content-disposition")).toContain("tool-linux.tar.gz");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const asset = await t.ok("GET", `${API}/alice/tools/releases/${v2.id}/assets/${assetId}`, token);
    expect(asset.download_count).toBe(1);
    await anon.page("/alice/tools/releases/download/v2/other.tar.gz", 404);
    await anon.page("/alice/tools/releases/download/v9/tool-linux.tar.gz", 404);
    // Tag names are exact.
    await anon.page("/alice/tools/releases/download/V2/tool-linux.tar.gz", 404);
  });

  test("`latest` names the latest release when no release has that tag", async () => {
    const v1 = await t.ok("GET", `${API}/alice/tools/releases/tags/v1`, token);
    await uploadAsset(t, token, "tools", v1.id, "install.sh", new TextEncoder().encode("echo hi\n"));
    const res = await anon.get("/alice/tools/releases/download/latest/install.sh");
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("echo hi\n");
  });

  test("a draft's asset downloads only for release writers", async () => {
    await anon.page("/alice/tools/releases/download/v3/draft.bin", 404);
    const stranger = await signedIn(t, "mallory");
    await stranger.page("/alice/tools/releases/download/v3/draft.bin", 404);
    const owner = await signedIn(t, "alice");
    expect((await owner.get("/alice/tools/releases/download/v3/draft.bin")).status).toBe(200);
  });

  test("install scripts download a private release's asset with a token; a token without the repository scope is refused", async () => {
    const path = "/alice/secret/releases/download/v1/secret.bin";
    const withToken = await t.request("GET", path, { token });
    expect(withToken.status).toBe(200);
    expect(new Uint8Array(await withToken.arrayBuffer())).toEqual(ASSET);
    expect((await t.request("GET", path, { basic: ["alice", "password123"] })).status).toBe(200);
    const issuesOnly = t.token(requireUser(t.env, "alice"), ["read:issue"]);
    expect((await t.request("GET", path, { token: issuesOnly })).status).toBe(403);
    const bad = await t.request("GET", path, { token: "0".repeat(40) });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("www-authenticate")).toContain("Basic");
  });

  test("a private repository's releases are 404 to strangers, there for the owner", async () => {
    const stranger = await signedIn(t, "mallory");
    const owner = await signedIn(t, "alice");
    for (const p of ["/releases", "/releases/tag/v1", "/releases/latest", "/releases/download/v1/secret.bin"]) {
      await anon.page(`/alice/secret${p}`, 404);
      await stranger.page(`/alice/secret${p}`, 404);
    }
    await owner.page("/alice/secret/releases");
    await owner.page("/alice/secret/releases/tag/v1");
    expect((await owner.get("/alice/secret/releases/download/v1/secret.bin")).status).toBe(200);
  });

  test("with the releases unit off, the pages are 404", async () => {
    await t.ok("POST", "/api/v1/user/repos", token, { name: "norel", auto_init: true }, 201);
    await t.ok("PATCH", `${API}/alice/norel`, token, { has_releases: false }, 200);
    await anon.page("/alice/norel/releases", 404);
  });
});

describe("releases under REQUIRE_SIGNIN_VIEW", () => {
  const t = makeTestApp("[service]\nREQUIRE_SIGNIN_VIEW = true\n");
  test("the anonymous are sent to sign in, downloads included", async () => {
    const alice = await t.user("alice");
    const token = t.token(alice);
    await populateRepo(t, token, "alice", "tools");
    const v1 = await t.ok("GET", `${API}/alice/tools/releases/tags/v1`, token);
    await uploadAsset(t, token, "tools", v1.id, "a.bin", ASSET);
    const anon = new WebClient(t);
    for (const p of ["/releases", "/releases/tag/v1", "/releases/download/v1/a.bin"]) {
      const res = await anon.get(`/alice/tools${p}`);
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toStartWith("/user/login?redirect_to=");
    }
    const owner = await signedIn(t, "alice");
    expect((await owner.get("/alice/tools/releases/download/v1/a.bin")).status).toBe(200);
  });
});
