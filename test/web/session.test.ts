import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { WebClient, signedIn, visibleText } from "../support/web.ts";
import { getUserById } from "../../src/services/user/lookup.ts";
import { writeTx } from "../../src/db/client.ts";
import { webSessions } from "../../src/db/schema/index.ts";

const t = makeTestApp("[security]\nLOGIN_RATE_LIMIT = 4\n");
await t.user("alice");

describe("pages and errors", () => {
  test("the landing page signed out, an HTML 404 for unknown pages, JSON under /api", async () => {
    const web = new WebClient(t);
    const home = await web.page("/");
    expect(home).toContain('href="/user/login"');
    expect(home).toContain('href="/explore/repos"');
    const res = await web.get("/no/such/page/here");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(visibleText(await res.text())).toContain("Page not found");
    const api = await t.request("GET", "/api/v1/nothing/here");
    expect(api.status).toBe(404);
    expect(api.headers.get("content-type")).toContain("application/json");
  });

  test("pages forbid scripts and framing, and the stylesheet is cached for good", async () => {
    const res = await new WebClient(t).get("/user/login");
    expect(res.headers.get("content-security-policy")).toContain("script-src 'none'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    const css = /href="(\/assets\/css\/hearth\.[0-9a-f]+\.css)"/.exec(await res.text())![1]!;
    const sheet = await t.request("GET", css);
    expect(sheet.status).toBe(200);
    expect(sheet.headers.get("cache-control")).toContain("immutable");
    expect(await sheet.text()).toContain("prefers-color-scheme: dark");
  });

  test("robots.txt keeps crawlers off the heavy pages", async () => {
    const res = await t.request("GET", "/robots.txt");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Disallow: /*/*/archive/");
  });
});

describe("signing in and out", () => {
  test("a wrong password and an unknown account get the same answer", async () => {
    const web = new WebClient(t);
    await web.get("/user/login");
    const wrong = await web.post("/user/login", { user_name: "alice", password: "nope-nope" });
    const unknown = await web.post("/user/login", { user_name: "nobody-here", password: "nope-nope" });
    expect(wrong.status).toBe(200);
    expect(unknown.status).toBe(200);
    const a = visibleText(await wrong.text());
    const b = visibleText(await unknown.text());
    expect(a).toContain("Username or password is incorrect.");
    expect(b).toContain("Username or password is incorrect.");
    expect(web.cookies.has("i_like_gitea")).toBe(false);
  });

  test("signing in starts a new server-side session; the API refuses its cookie", async () => {
    const web = new WebClient(t);
    // An anonymous session exists before (a flash message needs one).
    await web.post("/user/login", { user_name: "alice", password: "nope-nope" });
    web.cookies.set("i_like_gitea", "0123456789abcdef0123456789abcdef");
    const res = await web.signIn("alice");
    expect(res.headers.get("location")).toBe("/");
    const session = web.cookies.get("i_like_gitea")!;
    expect(session).toMatch(/^[0-9a-f]{32}$/);
    expect(session).not.toBe("0123456789abcdef0123456789abcdef");
    expect(res.headers.getSetCookie().find((c) => c.startsWith("i_like_gitea="))).toContain("HttpOnly");
    const home = await web.page("/");
    expect(home).toContain('href="/alice"');
    const api = await t.request("GET", "/api/v1/user", { headers: { Cookie: `i_like_gitea=${session}` } });
    expect(api.status).toBe(401);
  });

  test("redirect_to brings the visitor back, never to another site", async () => {
    const web = new WebClient(t);
    await web.get("/user/login");
    const back = await web.post("/user/login", { user_name: "alice", password: "password123", redirect_to: "/explore/repos" });
    expect(back.headers.get("location")).toBe("/explore/repos");
    const web2 = new WebClient(t);
    await web2.get("/user/login");
    const away = await web2.post("/user/login", { user_name: "alice", password: "password123", redirect_to: "//evil.example/x" });
    expect(away.headers.get("location")).toBe("/");
  });

  test("signing out ends the session on the server, not only in the browser", async () => {
    const web = await signedIn(t, "alice");
    const stolen = web.cookies.get("i_like_gitea")!;
    const out = await web.post("/user/logout", {});
    expect(out.status).toBe(303);
    expect(web.cookies.has("i_like_gitea")).toBe(false);
    const replay = new WebClient(t);
    replay.cookies.set("i_like_gitea", stolen);
    expect(await replay.page("/")).toContain('href="/user/login"');
  });

  test("an expired session signs no one in", async () => {
    const web = await signedIn(t, "alice");
    writeTx(t.env.db, (tx) => tx.update(webSessions).set({ expiresUnix: 1 }).run());
    expect(await web.page("/")).not.toContain('href="/alice"');
  });

  test("remember-me signs in again once the session is gone, and each token works once", async () => {
    const web = new WebClient(t);
    await web.signIn("alice", "password123", true);
    const remember = web.cookies.get("gitea_incredible")!;
    expect(remember).toMatch(/^[0-9a-f]{32}:[0-9a-f]{64}$/);
    web.cookies.delete("i_like_gitea");
    expect(await web.page("/")).toContain('href="/alice"');
    expect(web.cookies.get("gitea_incredible")).not.toBe(remember);
    expect(web.cookies.has("i_like_gitea")).toBe(true);
    const thief = new WebClient(t);
    thief.cookies.set("gitea_incredible", remember);
    expect(await thief.page("/")).not.toContain('href="/alice"');
  });

  test("a disabled account's session stops working", async () => {
    const bob = await t.user("bob");
    const web = await signedIn(t, "bob");
    await t.ok("PATCH", "/api/v1/admin/users/bob", t.token(await t.user("root", { admin: true })), { login_name: "bob", source_id: 0, prohibit_login: true });
    expect(getUserById(t.env, bob.id)!.prohibitLogin).toBe(true);
    expect(await web.page("/")).not.toContain('href="/bob"');
  });
});

describe("cross-site form posts", () => {
  test("refused by Sec-Fetch-Site, by a foreign Origin and by a wrong _csrf; a plain script passes", async () => {
    const web = await signedIn(t, "alice");
    const crossSite = await web.post("/user/logout", {}, { headers: { "Sec-Fetch-Site": "cross-site" } });
    expect(crossSite.status).toBe(403);
    const foreign = await web.post("/user/logout", {}, { headers: { "Sec-Fetch-Site": "", Origin: "http://evil.example" } });
    expect(foreign.status).toBe(403);
    const badToken = await web.post("/user/logout", { _csrf: "f".repeat(32) }, { csrf: false });
    expect(badToken.status).toBe(400);
    // Still signed in after all three.
    expect(await web.page("/")).toContain('href="/alice"');
    const script = await web.post("/user/logout", {}, { csrf: false, headers: { "Sec-Fetch-Site": "" } });
    expect(script.status).toBe(303);
  });

  test("the sign-in form carries the _csrf field old scripts read", async () => {
    const web = new WebClient(t);
    const form = await web.page("/user/login");
    const field = /name="_csrf" value="([0-9a-f]{32})"/.exec(form)![1];
    expect(field).toBe(web.cookies.get("_csrf")!);
  });
});

describe("failed sign-ins are limited per address", () => {
  test("after the limit even the right password waits", async () => {
    const app = makeTestApp("[security]\nLOGIN_RATE_LIMIT = 2\n");
    await app.user("carol");
    const web = new WebClient(app);
    await web.get("/user/login");
    for (let i = 0; i < 2; i++) expect((await web.post("/user/login", { user_name: "carol", password: "wrong-one" })).status).toBe(200);
    const limited = await web.post("/user/login", { user_name: "carol", password: "password123" });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});

describe("REQUIRE_SIGNIN_VIEW", () => {
  const app = makeTestApp("[service]\nREQUIRE_SIGNIN_VIEW = true\n");
  test("the anonymous are sent to sign in, and come back after", async () => {
    await app.user("dave");
    const web = new WebClient(app);
    const res = await web.get("/explore/repos?q=x");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/user/login?redirect_to=${encodeURIComponent("/explore/repos?q=x")}`);
    const form = await web.page("/user/login?redirect_to=%2Fexplore%2Frepos%3Fq%3Dx");
    expect(form).toContain('name="redirect_to" value="/explore/repos?q=x"');
    const signin = await web.post("/user/login", { user_name: "dave", password: "password123", redirect_to: "/explore/repos?q=x" });
    expect(signin.headers.get("location")).toBe("/explore/repos?q=x");
  });
});

describe("sign-up", () => {
  test("creates the account and signs it in; the first account of a site is its admin", async () => {
    const app = makeTestApp();
    const web = new WebClient(app);
    await web.page("/user/sign_up");
    const res = await web.post("/user/sign_up", { user_name: "first", email: "first@example.com", password: "longenough1", retype: "longenough1" });
    expect(res.status).toBe(303);
    expect(await web.page("/")).toContain('href="/first"');
    const later = new WebClient(app);
    await later.page("/user/sign_up");
    await later.post("/user/sign_up", { user_name: "second", email: "second@example.com", password: "longenough1", retype: "longenough1" });
    const first = await app.json("GET", "/api/v1/users/first", { basic: ["first", "longenough1"] });
    const second = await app.json("GET", "/api/v1/users/second", { basic: ["second", "longenough1"] });
    expect(first.body.is_admin).toBe(true);
    expect(second.body.is_admin).toBe(false);
  });

  test("explains what is wrong and keeps what was typed", async () => {
    const web = new WebClient(t);
    await web.page("/user/sign_up");
    const mismatch = await web.post("/user/sign_up", { user_name: "erin", email: "erin@example.com", password: "longenough1", retype: "other-one1" });
    const text = await mismatch.text();
    expect(visibleText(text)).toContain("The passwords do not match.");
    expect(text).toContain('value="erin@example.com"');
    const taken = await web.post("/user/sign_up", { user_name: "alice", email: "x@example.com", password: "longenough1", retype: "longenough1" });
    expect(visibleText(await taken.text())).toContain("The username is already taken.");
    const short = await web.post("/user/sign_up", { user_name: "frank", email: "frank@example.com", password: "short", retype: "short" });
    expect(visibleText(await short.text())).toContain("at least 8 characters");
  });

  test("DISABLE_REGISTRATION closes the form and refuses posts", async () => {
    const app = makeTestApp("[service]\nDISABLE_REGISTRATION = true\n");
    const web = new WebClient(app);
    expect(visibleText(await web.page("/user/sign_up"))).toContain("Registration is disabled");
    expect(await web.page("/user/login")).not.toContain("/user/sign_up");
    const res = await web.post("/user/sign_up", { user_name: "gina", email: "gina@example.com", password: "longenough1", retype: "longenough1" });
    expect(res.status).toBe(403);
  });
});
