import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { WebClient, signedIn, visibleText } from "../support/web.ts";
import { createUser } from "../../src/services/user/account.ts";

// Two items a page, so paging shows with a handful of repositories.
const t = makeTestApp("[ui]\nEXPLORE_PAGING_NUM = 2\n");
const root = await t.user("root", { admin: true });
const alice = await t.user("alice");
const aliceToken = t.token(alice);
const bob = await t.user("bob");
const bobToken = t.token(bob);
const rootToken = t.token(root);

async function userOf(name: string, fields: { visibility?: "private" | "limited"; fullName?: string }) {
  const user = await createUser(t.env, { username: name, email: `${name}@example.com`, password: "password123", mustChangePassword: false, visibility: fields.visibility });
  if (fields.fullName) await t.ok("PATCH", `/api/v1/admin/users/${name}`, rootToken, { full_name: fields.fullName, login_name: name, source_id: 0 });
  return user;
}
await userOf("carol", { visibility: "private" });
await userOf("lim", { visibility: "limited", fullName: "Lima Limited" });
await userOf("sleepy", {});
await t.ok("PATCH", "/api/v1/admin/users/sleepy", rootToken, { active: false, login_name: "sleepy", source_id: 0 });
await t.ok("PATCH", "/api/v1/admin/users/alice", rootToken, { full_name: "Alice Liddell", login_name: "alice", source_id: 0 });

const repo = (token: string, name: string, body: Record<string, unknown> = {}) => t.ok("POST", "/api/v1/user/repos", token, { name, ...body }, 201);
await repo(aliceToken, "apple", { description: "Crisp <script>alert(1)</script> fruit" });
await repo(aliceToken, "banana");
await repo(aliceToken, "cherry");
await repo(aliceToken, "secret-alice", { private: true });
await repo(bobToken, "bobs-tools");
// bob stars cherry twice over nothing else: cherry has the most stars.
await t.ok("PUT", "/api/v1/user/starred/alice/cherry", bobToken, undefined, 204);
await t.ok("PUT", "/api/v1/user/starred/alice/cherry", rootToken, undefined, 204);
await t.ok("PUT", "/api/v1/user/starred/alice/banana", rootToken, undefined, 204);

await t.ok("POST", "/api/v1/orgs", aliceToken, { username: "pubco", full_name: "Public Company" }, 201);
await t.ok("POST", "/api/v1/orgs", aliceToken, { username: "limco", visibility: "limited" }, 201);
await t.ok("POST", "/api/v1/orgs", aliceToken, { username: "hushco", visibility: "private" }, 201);
await t.ok("POST", "/api/v1/orgs/limco/repos", aliceToken, { name: "limited-thing" }, 201);
await t.ok("POST", "/api/v1/orgs/hushco/repos", aliceToken, { name: "hush-thing" }, 201);

/** The repositories a list page shows, in order, as `owner/name` from their links. */
function repoNames(page: string): string[] {
  const list = page.slice(page.indexOf('<div class="box">'));
  return [...list.matchAll(/<li><div><a href="\/([^/"]+)\/([^/"]+)">/g)].map((m) => `${m[1]}/${m[2]}`);
}
/** The accounts a list page shows, in order, from their links. */
function accountNames(page: string): string[] {
  return [...page.matchAll(/<li class="account-item">[\s\S]*?<a href="\/([^/"]+)"><strong>/g)].map((m) => m[1]!);
}
/** Every page of a list, following the pager's "Next" links. */
async function allPages(web: WebClient, path: string, names: (page: string) => string[]): Promise<string[]> {
  const out: string[] = [];
  let next: string | undefined = path;
  for (let i = 0; next && i < 20; i++) {
    const page = await web.page(next);
    out.push(...names(page));
    const rel = /<a href="([^"]+)" rel="next">/.exec(page)?.[1]?.replace(/&amp;/g, "&");
    next = rel ? `${path.split("?")[0]}${rel}` : undefined;
  }
  return out;
}

describe("/explore", () => {
  test("/explore redirects to the repositories", async () => {
    const res = await new WebClient(t).get("/explore");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/explore/repos");
  });

  test("the header's Explore link and the tabs lead to the three lists", async () => {
    const page = await new WebClient(t).page("/explore/repos");
    expect(page).toContain('<a href="/explore/repos" aria-current="page">Repositories</a>');
    expect(page).toContain('href="/explore/users"');
    expect(page).toContain('href="/explore/organizations"');
    expect(page.match(/<h1[ >]/g)?.length).toBe(1);
  });
});

describe("/explore/repos", () => {
  test("strangers see public repositories of public owners only; every page of the list together", async () => {
    const names = await allPages(new WebClient(t), "/explore/repos?sort=alphabetically", repoNames);
    expect(names).toEqual(["alice/apple", "alice/banana", "bob/bobs-tools", "alice/cherry"]);
  });

  test("signed in: a limited organization's repositories, one's own private ones, and a member's organization", async () => {
    const asBob = await allPages(await signedIn(t, "bob"), "/explore/repos?sort=alphabetically", repoNames);
    expect(asBob).toContain("limco/limited-thing");
    expect(asBob).not.toContain("alice/secret-alice");
    expect(asBob).not.toContain("hushco/hush-thing");
    const asAlice = await allPages(await signedIn(t, "alice"), "/explore/repos?sort=alphabetically", repoNames);
    expect(asAlice).toEqual(expect.arrayContaining(["alice/secret-alice", "hushco/hush-thing", "limco/limited-thing"]));
    const asRoot = await allPages(await signedIn(t, "root"), "/explore/repos", repoNames);
    expect(asRoot.length).toBe(7);
  });

  test("a search finds names and descriptions; the count and the form keep what was asked", async () => {
    const web = new WebClient(t);
    const page = await web.page("/explore/repos?q=crisp");
    expect(repoNames(page)).toEqual(["alice/apple"]);
    expect(visibleText(page)).toContain("1 repository matching “crisp”");
    expect(page).toContain('<input id="list-q" type="search" name="q" value="crisp"');
    expect(page).toContain('<label class="sr-only" for="list-q">Search repositories</label>');
    expect(page).toContain('<form class="inline-form list-search" method="get" action="/explore/repos"');
    // Descriptions are text: the markup in one is shown, never run.
    expect(page).toContain("Crisp &lt;script&gt;alert(1)&lt;/script&gt; fruit");
    expect(page).not.toContain("<script>alert(1)");
    expect(repoNames(await web.page("/explore/repos?q=nothing-like-this"))).toEqual([]);
    expect(visibleText(await web.page("/explore/repos?q=nothing-like-this"))).toContain("No repository matches your search.");
  });

  test("Gitea's orders: names both ways, stars, and an unknown order falls back to recently updated", async () => {
    const web = new WebClient(t);
    const all = async (sort: string) => allPages(web, `/explore/repos?sort=${sort}`, repoNames);
    expect(await all("reversealphabetically")).toEqual(["alice/cherry", "bob/bobs-tools", "alice/banana", "alice/apple"]);
    expect((await all("moststars")).slice(0, 2)).toEqual(["alice/cherry", "alice/banana"]);
    expect((await all("feweststars")).at(-1)).toBe("alice/cherry");
    expect((await all("newest"))[0]).toBe("bob/bobs-tools");
    expect((await all("oldest"))[0]).toBe("alice/apple");
    const fallback = await web.page("/explore/repos?sort=bogus");
    expect(fallback).toContain('<option value="recentupdate" selected>');
  });

  test("the pager marks the current page and keeps the search and order", async () => {
    const page = await new WebClient(t).page("/explore/repos?sort=alphabetically&page=2");
    expect(repoNames(page)).toEqual(["bob/bobs-tools", "alice/cherry"]);
    expect(page).toContain('<span aria-current="page">2</span>');
    expect(page).toContain('href="?sort=alphabetically&amp;page=1" rel="prev"');
    expect(page).toContain('<option value="alphabetically" selected>');
  });
});

describe("/explore/users", () => {
  test("strangers see active public users; limited, private and inactive ones and organizations are not listed", async () => {
    const names = await allPages(new WebClient(t), "/explore/users?sort=alphabetically", accountNames);
    expect(names).toEqual(["alice", "bob", "root"]);
  });

  test("signed in: limited users too, and oneself when private; a site admin sees everyone active", async () => {
    expect(await allPages(await signedIn(t, "bob"), "/explore/users?sort=alphabetically", accountNames)).toEqual(["alice", "bob", "lim", "root"]);
    expect(await allPages(await signedIn(t, "carol"), "/explore/users?sort=alphabetically", accountNames)).toEqual(["alice", "bob", "carol", "lim", "root"]);
    expect(await allPages(await signedIn(t, "root"), "/explore/users?sort=alphabetically", accountNames)).toEqual(["alice", "bob", "carol", "lim", "root"]);
  });

  test("a search matches the full name; the default order is newest first; an order Gitea does not offer is a 404", async () => {
    const web = await signedIn(t, "bob");
    const found = await web.page("/explore/users?q=liddell");
    expect(accountNames(found)).toEqual(["alice"]);
    expect(visibleText(found)).toContain("Alice Liddell");
    expect(accountNames(await web.page("/explore/users?q=LIMITED"))).toEqual(["lim"]);
    expect(accountNames(await web.page("/explore/users"))[0]).toBe("lim");
    expect(accountNames(await web.page("/explore/users?sort=oldest"))[0]).toBe("root");
    expect((await web.get("/explore/users?sort=recentupdate")).status).toBe(404);
    expect((await web.get("/explore/users?sort=lastlogin")).status).toBe(404);
  });

  test("emails show to signed-in visitors only, unless kept private", async () => {
    expect(await new WebClient(t).page("/explore/users?q=alice")).not.toContain("alice@example.com");
    expect(await (await signedIn(t, "bob")).page("/explore/users?q=alice")).toContain('href="mailto:alice@example.com"');
    await t.ok("PATCH", "/api/v1/user/settings", aliceToken, { hide_email: true });
    expect(await (await signedIn(t, "bob")).page("/explore/users?q=alice")).not.toContain("alice@example.com");
    expect(await (await signedIn(t, "alice")).page("/explore/users?q=alice")).toContain("alice@example.com");
    await t.ok("PATCH", "/api/v1/user/settings", aliceToken, { hide_email: false });
  });

  test("each listed user's link opens their profile", async () => {
    const web = new WebClient(t);
    for (const name of accountNames(await web.page("/explore/users?sort=alphabetically"))) {
      expect(visibleText(await web.page(`/${name}`))).toContain(name);
    }
  });
});

describe("/explore/organizations", () => {
  test("strangers see public organizations; signed-in visitors limited ones; members their private ones; admins all", async () => {
    expect(await allPages(new WebClient(t), "/explore/organizations?sort=alphabetically", accountNames)).toEqual(["pubco"]);
    expect(await allPages(await signedIn(t, "bob"), "/explore/organizations?sort=alphabetically", accountNames)).toEqual(["limco", "pubco"]);
    expect(await allPages(await signedIn(t, "alice"), "/explore/organizations?sort=alphabetically", accountNames)).toEqual(["hushco", "limco", "pubco"]);
    expect(await allPages(await signedIn(t, "root"), "/explore/organizations?sort=alphabetically", accountNames)).toEqual(["hushco", "limco", "pubco"]);
  });

  test("badges say which are not public; a search finds the full name; each link opens the organization", async () => {
    const web = await signedIn(t, "alice");
    const page = await web.page("/explore/organizations?sort=alphabetically");
    expect(page).toMatch(/hushco<\/strong><\/a> <span class="tag">Private<\/span>/);
    expect(page).toMatch(/limco<\/strong><\/a> <span class="tag">Limited<\/span>/);
    expect(accountNames(await web.page("/explore/organizations?q=company"))).toEqual(["pubco"]);
    for (const name of ["hushco", "limco", "pubco"]) expect(await web.page(`/${name}`)).toContain(`<h1>`);
  });
});

describe("a site that requires signing in to view", () => {
  const closed = makeTestApp("[service]\nREQUIRE_SIGNIN_VIEW = true\n");

  test("the explore pages send strangers to sign in, and come back there after", async () => {
    await closed.user("zed");
    for (const path of ["/explore/repos", "/explore/users", "/explore/organizations"]) {
      const res = await new WebClient(closed).get(path);
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe(`/user/login?redirect_to=${encodeURIComponent(path)}`);
    }
    expect(accountNames(await (await signedIn(closed, "zed")).page("/explore/users"))).toEqual(["zed"]);
  });
});
