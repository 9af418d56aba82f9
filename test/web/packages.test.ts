import { describe, expect, test } from "bun:test";
import { makeTestApp, ROOT_URL } from "../support/app.ts";
import { WebClient, signedIn, visibleText } from "../support/web.ts";

describe("package pages", () => {
  const t = makeTestApp();

  test("an owner's packages and a version page with its files and how to install it; the API's html_url opens it", async () => {
    const alice = await t.user("alice");
    const token = t.token(alice);
    for (const v of ["1.0.0", "1.1.0"]) {
      const r = await t.request("PUT", `/api/packages/alice/generic/tool/${v}/tool-${v}.bin`, { token, body: `bytes of ${v}` });
      expect(r.status).toBe(201);
    }
    const web = new WebClient(t);
    const list = visibleText(await web.page("/alice/-/packages"));
    expect(list).toContain("tool Generic 1.1.0");
    expect(list).toContain("1.0.0");
    const api = await t.json("GET", "/api/v1/packages/alice/generic/tool/1.0.0", { token });
    const path = `/${(api.body.html_url as string).slice(ROOT_URL.length)}`;
    const page = visibleText(await web.page(path));
    expect(page).toContain("tool-1.0.0.bin");
    expect(page).toContain(new Bun.CryptoHasher("sha256").update("bytes of 1.0.0").digest("hex"));
    expect(page).toContain("curl -OJ http://hearth.test/api/packages/alice/generic/tool/1.0.0/tool-1.0.0.bin");
    expect(page).toContain("Versions 2");
    expect(visibleText(await web.page("/alice/-/packages?q=nothing-like-it"))).toContain("No package matches your search.");
  });

  test("a private owner's packages send the anonymous to sign in and refuse a stranger", async () => {
    const bob = await t.user("bob");
    await t.ok("PATCH", "/api/v1/admin/users/bob", t.token(await t.user("root", { admin: true })), { login_name: "bob", source_id: 0, visibility: "private" });
    expect((await t.request("PUT", "/api/packages/bob/generic/secret/1/s.bin", { token: t.token(bob), body: "s" })).status).toBe(201);
    const anon = await new WebClient(t).get("/bob/-/packages");
    expect(anon.status).toBe(303);
    expect(anon.headers.get("location")).toContain("/user/login");
    await t.user("carol");
    const stranger = await signedIn(t, "carol");
    expect((await stranger.get("/bob/-/packages")).status).toBe(403);
    expect(visibleText(await (await signedIn(t, "bob")).page("/bob/-/packages"))).toContain("secret");
  });
});

describe("package settings", () => {
  const t = makeTestApp();

  test("the Cargo index is made from the settings page and then offered for rebuilding; the Chef key pair form is there", async () => {
    await t.user("olga");
    const web = await signedIn(t, "olga");
    const before = await web.page("/user/settings/packages");
    expect(visibleText(before)).toContain("There is no index repository yet.");
    expect(before).toContain('action="/user/settings/packages/chef/regenerate_keypair"');
    expect(before).toContain('aria-current="page">Packages');
    const made = await web.post("/user/settings/packages/cargo/initialize", {});
    expect(made.status).toBe(303);
    expect(made.headers.get("location")).toBe("/user/settings/packages");
    const after = await web.page("/user/settings/packages");
    expect(after).toContain('href="/olga/_cargo-index"');
    expect(after).toContain('action="/user/settings/packages/cargo/rebuild"');
    expect((await new WebClient(t).get("/user/settings/packages")).status).toBe(303);
  });

  test("an organization's package settings are for its owners", async () => {
    const owner = await t.user("oscar");
    await t.user("pia");
    await t.ok("POST", "/api/v1/orgs", t.token(owner), { username: "crates" }, 201);
    expect(visibleText(await (await signedIn(t, "oscar")).page("/org/crates/settings/packages"))).toContain("Cargo index");
    expect((await (await signedIn(t, "pia")).get("/org/crates/settings/packages")).status).toBeGreaterThanOrEqual(403);
  });
});
