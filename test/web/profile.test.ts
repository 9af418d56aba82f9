import { describe, expect, test } from "bun:test";
import { makeTestApp, ROOT_URL } from "../support/app.ts";
import { WebClient, signedIn, visibleText } from "../support/web.ts";
import { createUser } from "../../src/services/user/account.ts";

const t = makeTestApp();
const root = await t.user("root", { admin: true });
const rootToken = t.token(root);
const alice = await t.user("alice");
const aliceToken = t.token(alice);
const bob = await t.user("bob");
const bobToken = t.token(bob);
const dave = await t.user("dave");
const daveToken = t.token(dave);
await t.user("erin");
for (const [name, visibility] of [["carol", "private"], ["lim", "limited"]] as const) {
  await createUser(t.env, { username: name, email: `${name}@example.com`, password: "password123", mustChangePassword: false, visibility });
}

await t.ok("PATCH", "/api/v1/user/settings", aliceToken, {
  full_name: "Alice Liddell",
  location: "Wonderland",
  website: "https://alice.example.org/",
  description: "Follows <b>white</b> rabbits.",
});
await t.ok("PATCH", "/api/v1/user/settings", bobToken, { website: "javascript:alert(1)" });

const repo = (token: string, name: string, body: Record<string, unknown> = {}) => t.ok("POST", "/api/v1/user/repos", token, { name, ...body }, 201);
await repo(aliceToken, "wonder", { description: "rabbit holes" });
await repo(aliceToken, "looking-glass");
await repo(aliceToken, "diary", { private: true });
await t.ok("PUT", "/api/v1/repos/alice/diary/collaborators/dave", aliceToken, { permission: "read" }, 204);
await repo(bobToken, "bobs-secret", { private: true });
// bob stars one of alice's public repositories and his own private one.
await t.ok("PUT", "/api/v1/user/starred/alice/wonder", bobToken, undefined, 204);
await t.ok("PUT", "/api/v1/user/starred/bob/bobs-secret", bobToken, undefined, 204);
// bob and carol (private) follow alice; alice follows bob and the organization.
await t.ok("PUT", "/api/v1/user/following/alice", bobToken, undefined, 204);
await t.ok("PUT", "/api/v1/user/following/alice", t.token((await import("../../src/services/user/lookup.ts")).requireUser(t.env, "carol")), undefined, 204);
await t.ok("PUT", "/api/v1/user/following/bob", aliceToken, undefined, 204);

// acme: alice owns it (public member); bob is in "writers" (membership concealed); dave in "readers".
await t.ok("POST", "/api/v1/orgs", aliceToken, { username: "acme", full_name: "Acme Corp", description: "We make <i>anvils</i>.", location: "Desert" }, 201);
await t.ok("PUT", "/api/v1/orgs/acme/public_members/alice", aliceToken, undefined, 204);
await t.ok("POST", "/api/v1/orgs/acme/repos", aliceToken, { name: "anvil" }, 201);
await t.ok("POST", "/api/v1/orgs/acme/repos", aliceToken, { name: "plans", private: true }, 201);
const writers = await t.ok("POST", "/api/v1/orgs/acme/teams", aliceToken, { name: "Writers", permission: "write", units: ["repo.code"], description: "They write." }, 201);
const readers = await t.ok("POST", "/api/v1/orgs/acme/teams", aliceToken, { name: "readers", permission: "read", units: ["repo.code"] }, 201);
await t.ok("PUT", `/api/v1/teams/${writers.id}/members/bob`, aliceToken, undefined, 204);
await t.ok("PUT", `/api/v1/teams/${writers.id}/repos/acme/plans`, aliceToken, undefined, 204);
await t.ok("PUT", `/api/v1/teams/${readers.id}/members/dave`, aliceToken, undefined, 204);
await t.ok("POST", "/api/v1/orgs", aliceToken, { username: "limco", visibility: "limited" }, 201);
await t.ok("POST", "/api/v1/orgs", aliceToken, { username: "hushco", visibility: "private" }, 201);

/** The repositories a list shows, as `owner/name`. */
function repoNames(page: string): string[] {
  return [...page.matchAll(/<li><div><a href="\/([^/"]+)\/([^/"]+)"><strong>/g)].map((m) => `${m[1]}/${m[2]}`);
}
function accountNames(page: string): string[] {
  return [...page.matchAll(/<li class="account-item">[\s\S]*?<a href="\/([^/"]+)"><strong>/g)].map((m) => m[1]!);
}
const status = async (web: WebClient, path: string) => (await web.get(path)).status;

describe("html_url of users and organizations", () => {
  test("every html_url the API hands out opens that account's page", async () => {
    const web = await signedIn(t, "alice");
    const urls = [
      (await t.ok("GET", "/api/v1/users/alice", aliceToken)).html_url,
      (await t.ok("GET", "/api/v1/users/bob", aliceToken)).html_url,
      (await t.ok("GET", "/api/v1/users/carol", rootToken)).html_url,
      // Gitea's Organization has no html_url; an organization's comes as a user's or a repository's owner.
      (await t.ok("GET", "/api/v1/users/acme", aliceToken)).html_url,
      (await t.ok("GET", "/api/v1/users/hushco", aliceToken)).html_url,
      (await t.ok("GET", "/api/v1/repos/acme/anvil", aliceToken)).owner.html_url,
      ...(await t.ok("GET", "/api/v1/users/search?q=", aliceToken)).data.map((u: { html_url: string }) => u.html_url),
    ] as string[];
    for (const url of urls) {
      expect(url.startsWith(ROOT_URL)).toBe(true);
      const path = `/${url.slice(ROOT_URL.length)}`;
      const name = decodeURIComponent(path.slice(1));
      const viewer = name === "carol" ? await signedIn(t, "root") : web;
      const page = await viewer.page(path);
      expect(page).toContain(`<title>`);
      expect(visibleText(page)).toContain(name);
    }
  });
});

describe("a user's profile", () => {
  test("shows the card: avatar, names, location, website, description, joined date, follow counts", async () => {
    const page = await new WebClient(t).page("/alice");
    const text = visibleText(page);
    expect(page).toContain('<title>Alice Liddell (alice) - hearth</title>');
    expect(page.match(/<h1[ >]/g)?.length).toBe(1);
    expect(page).toContain('<span class="full-name">Alice Liddell</span> <span class="user-name">alice</span>');
    expect(page).toContain('class="avatar" src="/assets/img/avatar_default.png" width="200"');
    expect(text).toContain("Wonderland");
    expect(page).toContain('<a href="https://alice.example.org/" rel="nofollow noopener me">https://alice.example.org/</a>');
    expect(text).toContain("Follows <b>white</b> rabbits.");
    expect(page).not.toContain("<b>white</b>");
    expect(text).toMatch(/Joined on \d{4}-\d\d-\d\d/);
    // carol is private: a stranger counts only bob among alice's followers.
    expect(page).toContain('<a href="/alice?tab=followers">1 follower</a>');
    expect(await (await signedIn(t, "root")).page("/alice")).toContain('<a href="/alice?tab=followers">2 followers</a>');
    expect(page).toContain('<a href="/alice?tab=following">1 following</a>');
    // The email shows to signed-in visitors only.
    expect(page).not.toContain("alice@example.com");
    expect(await (await signedIn(t, "bob")).page("/alice")).toContain('href="mailto:alice@example.com"');
  });

  test("a website that is not http(s) is shown as text, never linked; without a full name the name is the title", async () => {
    const page = await new WebClient(t).page("/bob");
    expect(page).toContain('<h1><span class="full-name">bob</span></h1>');
    expect(visibleText(page)).toContain("javascript:alert(1)");
    expect(page).not.toContain('href="javascript:');
  });

  test("repositories: strangers see the public ones, the owner, a collaborator and a site admin the private one too", async () => {
    expect(repoNames(await new WebClient(t).page("/alice")).sort()).toEqual(["alice/looking-glass", "alice/wonder"]);
    expect(repoNames(await (await signedIn(t, "erin")).page("/alice")).sort()).toEqual(["alice/looking-glass", "alice/wonder"]);
    for (const who of ["alice", "dave", "root"]) {
      expect(repoNames(await (await signedIn(t, who)).page("/alice")).sort()).toEqual(["alice/diary", "alice/looking-glass", "alice/wonder"]);
    }
    const page = await new WebClient(t).page("/alice");
    expect(page).toContain('<a href="/alice" aria-current="page">Repositories <span class="counter">2</span></a>');
  });

  test("repositories are searched and ordered; the form keeps what was asked", async () => {
    const web = new WebClient(t);
    expect(repoNames(await web.page("/alice?q=rabbit"))).toEqual(["alice/wonder"]);
    expect(repoNames(await web.page("/alice?sort=alphabetically"))).toEqual(["alice/looking-glass", "alice/wonder"]);
    expect(repoNames(await web.page("/alice?sort=reversealphabetically"))).toEqual(["alice/wonder", "alice/looking-glass"]);
    const page = await web.page("/alice?q=glass&sort=alphabetically");
    expect(page).toContain('<form class="inline-form list-search" method="get" action="/alice"');
    expect(page).toContain('name="q" value="glass"');
    expect(page).toContain('<option value="alphabetically" selected>');
  });

  test("stars: only what the visitor may see; the owner of a private starred repository sees it", async () => {
    const stranger = await new WebClient(t).page("/bob?tab=stars");
    expect(repoNames(stranger)).toEqual(["alice/wonder"]);
    expect(stranger).toContain('<a href="/bob?tab=stars" aria-current="page">Starred <span class="counter">1</span></a>');
    expect(stranger).toContain('<input type="hidden" name="tab" value="stars">');
    expect(repoNames(await (await signedIn(t, "bob")).page("/bob?tab=stars")).sort()).toEqual(["alice/wonder", "bob/bobs-secret"]);
    expect(repoNames(await new WebClient(t).page("/bob?tab=stars&q=nothing"))).toEqual([]);
  });

  test("followers and following list the accounts the visitor may see", async () => {
    expect(accountNames(await new WebClient(t).page("/alice?tab=followers"))).toEqual(["bob"]);
    expect(accountNames(await (await signedIn(t, "root")).page("/alice?tab=followers")).sort()).toEqual(["bob", "carol"]);
    expect(accountNames(await new WebClient(t).page("/alice?tab=following"))).toEqual(["bob"]);
    const page = await new WebClient(t).page("/alice?tab=following");
    expect(page).toContain('<a href="/alice?tab=following" aria-current="page">Following <span class="counter">1</span></a>');
  });

  test("the organizations the user shows: public memberships to others, every one to the user", async () => {
    expect(await new WebClient(t).page("/alice")).toContain('href="/acme" title="Acme Corp"');
    expect(await new WebClient(t).page("/bob")).not.toContain('href="/acme"');
    expect(await (await signedIn(t, "bob")).page("/bob")).toContain('href="/acme"');
  });

  test("a private user is a 404 to strangers and other users, seen by itself and site admins; a limited one by signed-in visitors", async () => {
    expect(await status(new WebClient(t), "/carol")).toBe(404);
    expect(await status(await signedIn(t, "bob"), "/carol")).toBe(404);
    expect(await status(await signedIn(t, "carol"), "/carol")).toBe(200);
    expect(await status(await signedIn(t, "root"), "/carol")).toBe(200);
    expect(await status(new WebClient(t), "/lim")).toBe(404);
    expect(await status(await signedIn(t, "bob"), "/lim")).toBe(200);
    expect(await status(new WebClient(t), "/nobody-at-all")).toBe(404);
  });
});

describe("an organization's pages", () => {
  test("its home: names, description, repositories the visitor may see, public members", async () => {
    const page = await new WebClient(t).page("/acme");
    const text = visibleText(page);
    expect(page).toContain("<title>Acme Corp - hearth</title>");
    expect(text).toContain("Acme Corp acme");
    expect(text).toContain("We make <i>anvils</i>.");
    expect(text).toContain("Desert");
    expect(repoNames(page)).toEqual(["acme/anvil"]);
    expect(page).toContain('href="/alice" title="Alice Liddell"');
    expect(page).not.toContain('href="/bob"');
    expect(page).not.toContain("/org/acme/teams");
    const asBob = await (await signedIn(t, "bob")).page("/acme");
    expect(repoNames(asBob).sort()).toEqual(["acme/anvil", "acme/plans"]);
    expect(asBob).toContain('href="/bob"');
    expect(asBob).toContain('href="/org/acme/teams/writers"');
    expect(repoNames(await (await signedIn(t, "erin")).page("/acme"))).toEqual(["acme/anvil"]);
    expect(repoNames(await new WebClient(t).page("/acme?q=nope"))).toEqual([]);
  });

  test("members: public ones to everyone, all with their roles to members", async () => {
    const stranger = await new WebClient(t).page("/org/acme/members");
    expect(accountNames(stranger)).toEqual(["alice"]);
    // Every tab counts what the visitor finds there; Teams is for members only.
    expect(stranger).toContain('<a href="/acme">Repositories <span class="counter">1</span></a>');
    expect(stranger).toContain('<a href="/org/acme/members" aria-current="page">Members <span class="counter">1</span></a>');
    expect(stranger).not.toContain('href="/org/acme/teams"');
    expect(stranger).not.toContain("Owner");
    const member = await (await signedIn(t, "dave")).page("/org/acme/members");
    expect(accountNames(member)).toEqual(["alice", "bob", "dave"]);
    // dave's team does not have the private repository.
    expect(member).toContain('<a href="/acme">Repositories <span class="counter">1</span></a>');
    expect(member).toContain('<a href="/org/acme/teams">Teams <span class="counter">1</span></a>');
    expect(member).toMatch(/alice<\/strong><\/a> <span class="muted">Alice Liddell<\/span>\s+<span class="tag">Owner<\/span> <span class="muted small">Public membership<\/span>/);
    expect(member).toMatch(/bob<\/strong><\/a>\s+<span class="tag">Member<\/span> <span class="muted small">Private membership<\/span>/);
  });

  test("teams: sign in first; a 404 to non-members; owners see every team, members their own", async () => {
    const anon = await new WebClient(t).get("/org/acme/teams");
    expect(anon.status).toBe(303);
    expect(anon.headers.get("location")).toBe("/user/login?redirect_to=%2Forg%2Facme%2Fteams");
    expect(await status(await signedIn(t, "erin"), "/org/acme/teams")).toBe(404);
    const names = (page: string) => [...page.matchAll(/<a href="\/org\/acme\/teams\/([^"]+)"><strong>/g)].map((m) => m[1]);
    const asOwner = await (await signedIn(t, "alice")).page("/org/acme/teams");
    expect(names(asOwner)).toEqual(["owners", "readers", "writers"]);
    expect(asOwner).toContain('<strong>Owners</strong></a> <span class="tag">Owner access</span>');
    expect(asOwner).toContain('<strong>readers</strong></a> <span class="tag">Read access</span>');
    expect(names(await (await signedIn(t, "root")).page("/org/acme/teams"))).toEqual(["owners", "readers", "writers"]);
    expect(names(await (await signedIn(t, "bob")).page("/org/acme/teams"))).toEqual(["writers"]);
  });

  test("a team's page: its members and repositories, to its members and the owners only", async () => {
    const bobWeb = await signedIn(t, "bob");
    const team = await bobWeb.page("/org/acme/teams/writers");
    expect(accountNames(team)).toEqual(["bob"]);
    expect(visibleText(team)).toContain("They write.");
    expect(team).toContain('Writers <span class="tag">Write access</span>');
    expect(visibleText(team)).toContain("Code: write");
    expect(repoNames(await bobWeb.page("/org/acme/teams/Writers/repositories"))).toEqual(["acme/plans"]);
    expect(await status(bobWeb, "/org/acme/teams/readers")).toBe(404);
    expect(await status(bobWeb, "/org/acme/teams/no-such-team")).toBe(404);
    expect(await status(await signedIn(t, "erin"), "/org/acme/teams/writers")).toBe(404);
    expect(accountNames(await (await signedIn(t, "alice")).page("/org/acme/teams/readers"))).toEqual(["dave"]);
  });

  test("a private organization is a 404 to non-members; a limited one to strangers", async () => {
    for (const path of ["/hushco", "/org/hushco/members"]) {
      expect(await status(new WebClient(t), path)).toBe(404);
      expect(await status(await signedIn(t, "bob"), path)).toBe(404);
      expect(await status(await signedIn(t, "alice"), path)).toBe(200);
      expect(await status(await signedIn(t, "root"), path)).toBe(200);
    }
    expect(await status(await signedIn(t, "bob"), "/org/hushco/teams")).toBe(404);
    for (const path of ["/limco", "/org/limco/members"]) {
      expect(await status(new WebClient(t), path)).toBe(404);
      expect(await status(await signedIn(t, "erin"), path)).toBe(200);
    }
  });
});

describe("avatars", () => {
  const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

  test("/user/avatar/{name}/{size} redirects to the default picture, then to an uploaded one, which answers", async () => {
    const web = new WebClient(t);
    const before = await web.get("/user/avatar/erin/40");
    expect(before.status).toBe(303);
    expect(before.headers.get("location")).toBe("/assets/img/avatar_default.png");
    expect(before.headers.get("cache-control")).toBe("private, max-age=300");
    expect((await t.request("GET", before.headers.get("location")!)).status).toBe(200);

    const erin = t.token((await import("../../src/services/user/lookup.ts")).requireUser(t.env, "erin"));
    await t.ok("POST", "/api/v1/user/avatar", erin, { image: png }, 204);
    const after = await web.get("/user/avatar/erin/40");
    const location = after.headers.get("location")!;
    expect(location).toMatch(/^\/avatars\/[0-9a-f]+\?size=40$/);
    const file = await t.request("GET", location);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");
    // The API's avatar_url names the same file, and the profile's picture too.
    const apiUrl = (await t.ok("GET", "/api/v1/users/erin", erin)).avatar_url as string;
    expect(location.startsWith(`/${apiUrl.slice(ROOT_URL.length)}`)).toBe(true);
    expect(await web.page("/erin")).toContain(`src="${location.split("?")[0]}"`);
  });

  test("/{name}.png is the avatar at its default size; Gitea's ghost has the default picture", async () => {
    const web = new WebClient(t);
    const png = await web.get("/alice.png");
    expect(png.status).toBe(303);
    expect(png.headers.get("location")).toBe("/assets/img/avatar_default.png");
    const ghost = await web.get("/user/avatar/Ghost/20");
    expect(ghost.status).toBe(303);
    expect(ghost.headers.get("location")).toBe("/assets/img/avatar_default.png");
  });

  test("an unknown account, or one the visitor may not see, has no avatar route (404)", async () => {
    const web = new WebClient(t);
    expect(await status(web, "/user/avatar/nobody-at-all/40")).toBe(404);
    expect(await status(web, "/nobody-at-all.png")).toBe(404);
    expect(await status(web, "/user/avatar/carol/40")).toBe(404);
    expect(await status(web, "/carol.png")).toBe(404);
    expect(await status(web, "/hushco.png")).toBe(404);
    expect(await status(await signedIn(t, "carol"), "/carol.png")).toBe(303);
  });

  test("/avatars/ and /repo-avatars/ serve uploaded pictures; unknown names are 404", async () => {
    await t.ok("POST", "/api/v1/repos/alice/wonder/avatar", aliceToken, { image: png }, 204);
    const url = (await t.ok("GET", "/api/v1/repos/alice/wonder", aliceToken)).avatar_url as string;
    expect(url).toContain("/repo-avatars/");
    const res = await t.request("GET", `/${url.slice(ROOT_URL.length)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect((await t.request("GET", "/repo-avatars/0123456789abcdef")).status).toBe(404);
    expect((await t.request("GET", "/avatars/0123456789abcdef")).status).toBe(404);
  });
});

describe("renamed accounts", () => {
  test("the old name of a user redirects (307) to the profile, the avatar and .png under the new one", async () => {
    await t.ok("POST", "/api/v1/admin/users/dave/rename", rootToken, { new_username: "david" }, 204);
    const web = new WebClient(t);
    const profile = await web.get("/dave?tab=followers");
    expect(profile.status).toBe(307);
    expect(profile.headers.get("location")).toBe("/david?tab=followers");
    const avatar = await web.get("/user/avatar/dave/40");
    expect(avatar.status).toBe(307);
    expect(avatar.headers.get("location")).toBe("/user/avatar/david/40");
    const png = await web.get("/dave.png");
    expect(png.status).toBe(307);
    expect(png.headers.get("location")).toBe("/david.png");
    expect(await status(web, "/david")).toBe(200);
    void daveToken;
  });

  test("an organization's old name redirects its home and its pages", async () => {
    await t.ok("POST", "/api/v1/orgs", aliceToken, { username: "oldco" }, 201);
    await t.ok("POST", "/api/v1/orgs/oldco/rename", aliceToken, { new_name: "newco" }, 204);
    const web = new WebClient(t);
    const home = await web.get("/oldco");
    expect(home.status).toBe(307);
    expect(home.headers.get("location")).toBe("/newco");
    const members = await web.get("/org/oldco/members");
    expect(members.status).toBe(307);
    expect(members.headers.get("location")).toBe("/org/newco/members");
  });
});
