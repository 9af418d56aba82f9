import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { WebClient, signedIn, visibleText } from "../support/web.ts";
import { getUserById } from "../../src/services/user/lookup.ts";
import { Visibility } from "../../src/services/user/visibility.ts";

const t = makeTestApp("[picture]\nAVATAR_MAX_FILE_SIZE = 4096\n");
const alice = await t.user("alice");
const bob = await t.user("bob");

/** The flash messages of a page: what the next GET shows after a form redirected. */
function flashes(page: string): string[] {
  return [...page.matchAll(/<div class="flash (\w+)"[^>]*>([\s\S]*?)<\/div>/g)].map((m) => `${m[1]}: ${visibleText(m[2]!)}`);
}

/** A POST that must redirect (303) to `to`; the page it leads to is returned. */
async function postAndFollow(web: WebClient, path: string, fields: Record<string, string | string[]> | FormData, to: string): Promise<string> {
  const res = await web.post(path, fields);
  const body = await res.text();
  if (res.status !== 303) throw new Error(`POST ${path}: ${res.status}\n${visibleText(body).slice(0, 800)}`);
  expect(res.headers.get("location")).toBe(to);
  return web.page(to);
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 1, 2, 3, 4]);

describe("the settings pages", () => {
  test("need a signed-in visitor: the anonymous are sent to sign in and come back", async () => {
    const web = new WebClient(t);
    for (const path of ["/user/settings", "/user/settings/account", "/user/settings/applications", "/user/settings/security"]) {
      const res = await web.get(path);
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe(`/user/login?redirect_to=${encodeURIComponent(path)}`);
    }
    const post = await web.post("/user/settings/applications", { name: "x", "scope-user": "read:user" });
    expect(post.status).toBe(303);
    expect(post.headers.get("location")).toStartWith("/user/login");
  });

  test("each page has the side navigation with the current section marked", async () => {
    const web = await signedIn(t, "alice");
    const sections: [string, string][] = [
      ["/user/settings", "Profile"],
      ["/user/settings/account", "Account"],
      ["/user/settings/applications", "Applications"],
      ["/user/settings/security", "Security"],
    ];
    for (const [path, label] of sections) {
      const page = await web.page(path);
      const nav = /<nav class="settings-nav" aria-label="User settings">([\s\S]*?)<\/nav>/.exec(page)![1]!;
      for (const [p] of sections) expect(nav).toContain(`href="${p}"`);
      expect([...nav.matchAll(/aria-current="page"/g)].length).toBe(1);
      expect(nav).toContain(`<a href="${path}" aria-current="page">${label}</a>`);
      expect(page.match(/<h1[ >]/g)!.length).toBe(1);
      expect(page).not.toMatch(/<script|\sstyle="/);
    }
    const enroll = await web.page("/user/settings/security/two_factor/enroll");
    expect(enroll).toContain('<a href="/user/settings/security" aria-current="true">Security</a>');
  });

  test("a session cookie is no credential for /api/v1", async () => {
    const web = await signedIn(t, "alice");
    const cookie = [...web.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await t.request("GET", "/api/v1/user", { headers: { Cookie: cookie } });
    expect(res.status).toBe(401);
  });

  test("a form posted from another site changes nothing", async () => {
    const web = await signedIn(t, "alice");
    const res = await web.post("/user/settings", { full_name: "Mallory" }, { headers: { "Sec-Fetch-Site": "cross-site" } });
    expect(res.status).toBe(403);
    expect(getUserById(t.env, alice.id)!.fullName).not.toBe("Mallory");
  });
});

describe("profile", () => {
  test("saves every field, says so once, and shows the values back", async () => {
    const carol = await t.user("carol");
    const web = await signedIn(t, "carol");
    const page = await postAndFollow(
      web,
      "/user/settings",
      {
        name: "carol",
        full_name: "Carol <Tester>",
        website: "https://carol.example/",
        location: "Lisbon",
        description: "Writes tests.",
        visibility: "2",
        keep_email_private: "on",
        keep_activity_private: "on",
      },
      "/user/settings",
    );
    expect(flashes(page)).toEqual(["success: Your profile has been updated."]);
    expect(page).toContain('value="Carol &lt;Tester&gt;"');
    expect(page).toMatch(/name="visibility" value="2" checked/);
    expect(page).toMatch(/name="keep_email_private" value="on" checked/);
    const row = getUserById(t.env, carol.id)!;
    expect(row).toMatchObject({
      fullName: "Carol <Tester>",
      website: "https://carol.example/",
      location: "Lisbon",
      description: "Writes tests.",
      visibility: Visibility.Private,
      keepEmailPrivate: true,
      hideActivity: true,
    });
    // The flash was shown once.
    expect(flashes(await web.page("/user/settings"))).toEqual([]);
    // Unchecked boxes and the visibility by name go back.
    await postAndFollow(web, "/user/settings", { name: "carol", full_name: "Carol", visibility: "public" }, "/user/settings");
    expect(getUserById(t.env, carol.id)).toMatchObject({ fullName: "Carol", visibility: Visibility.Public, keepEmailPrivate: false, hideActivity: false });
  });

  test("a bad field is explained, the typed values kept, and nothing saved", async () => {
    const web = await signedIn(t, "alice");
    await web.page("/user/settings");
    const res = await web.post("/user/settings", { name: "alice", full_name: "Not Saved", website: "javascript:alert(1)" });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(flashes(text)).toEqual(['error: "javascript:alert(1)" is not a valid URL.']);
    expect(text).toContain('value="Not Saved"');
    expect(getUserById(t.env, alice.id)!.fullName).toBe("");
    const long = await web.post("/user/settings", { name: "alice", location: "x".repeat(51) });
    expect(flashes(await long.text())).toEqual(["error: Location must contain at most 50 characters."]);
    const vis = await web.post("/user/settings", { name: "alice", visibility: "7" });
    expect(vis.status).toBe(200);
    expect(getUserById(t.env, alice.id)!.visibility).toBe(Visibility.Public);
  });

  test("renames the account; a taken or reserved name is refused", async () => {
    const dan = await t.user("dan");
    const web = await signedIn(t, "dan");
    await web.page("/user/settings");
    const taken = await web.post("/user/settings", { name: "bob", full_name: "Dan" });
    expect(flashes(await taken.text())).toEqual(["error: The username is already taken."]);
    const reserved = await web.post("/user/settings", { name: "explore" });
    expect(flashes(await reserved.text())).toEqual(['error: The username "explore" is reserved.']);
    expect(getUserById(t.env, dan.id)!.name).toBe("dan");
    const page = await postAndFollow(web, "/user/settings", { name: "daniel", full_name: "Dan" }, "/user/settings");
    expect(flashes(page)).toEqual(["success: Your profile has been updated."]);
    expect(getUserById(t.env, dan.id)).toMatchObject({ name: "daniel", fullName: "Dan" });
    expect(page).toContain('href="/daniel"');
    // Still signed in, under the new name; the old name redirects on the API.
    const moved = await t.request("GET", "/api/v1/users/dan");
    expect([301, 307]).toContain(moved.status);
  });
});

describe("avatar", () => {
  const upload = (bytes: Uint8Array<ArrayBuffer>, name = "me.png") => {
    const form = new FormData();
    form.set("source", "local");
    form.set("avatar", new File([bytes], name, { type: "image/png" }));
    return form;
  };

  test("an uploaded image becomes the avatar, served from this site; delete takes it away", async () => {
    const web = await signedIn(t, "bob");
    await web.page("/user/settings");
    const page = await postAndFollow(web, "/user/settings/avatar", upload(PNG), "/user/settings");
    expect(flashes(page)).toEqual(["success: Your avatar has been updated."]);
    const hash = getUserById(t.env, bob.id)!.avatar;
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(page).toContain(`src="/avatars/${hash}"`);
    const img = await t.request("GET", `/avatars/${hash}`);
    expect(img.status).toBe(200);
    expect(new Uint8Array(await img.arrayBuffer())).toEqual(PNG);
    const after = await postAndFollow(web, "/user/settings/avatar/delete", {}, "/user/settings");
    expect(flashes(after)).toEqual(["success: Your avatar has been deleted."]);
    expect(getUserById(t.env, bob.id)!.avatar).toBe("");
    expect((await t.request("GET", `/avatars/${hash}`)).status).toBe(404);
  });

  test("not an image, or over [picture] AVATAR_MAX_FILE_SIZE, is refused in Gitea's words", async () => {
    const web = await signedIn(t, "alice");
    await web.page("/user/settings");
    const text = await web.post("/user/settings/avatar", upload(new TextEncoder().encode("<svg onload=alert(1)>"), "x.svg"));
    expect(text.status).toBe(200);
    expect(flashes(await text.text())).toEqual(["error: The uploaded file is not an image."]);
    const big = new Uint8Array(9000);
    big.set(PNG);
    const tooBig = await web.post("/user/settings/avatar", upload(big));
    expect(flashes(await tooBig.text())).toEqual(["error: The uploaded file size (8 KiB) exceeds the maximum size (4 KiB)."]);
    const none = await web.post("/user/settings/avatar", { source: "local" });
    expect(flashes(await none.text())).toEqual(["error: Choose an image file to upload."]);
    expect(getUserById(t.env, alice.id)!.avatar).toBe("");
  });
});

describe("password", () => {
  test("a wrong current password, a mismatch and a short one are refused", async () => {
    const web = await signedIn(t, "alice");
    await web.page("/user/settings/account");
    const cases: [Record<string, string>, string][] = [
      [{ old_password: "wrong-password", password: "new-password-1", retype: "new-password-1" }, "The current password is incorrect."],
      [{ old_password: "password123", password: "new-password-1", retype: "new-password-2" }, "The passwords do not match."],
      [{ old_password: "password123", password: "short", retype: "short" }, "Password length cannot be less than 8 characters."],
    ];
    for (const [fields, message] of cases) {
      const res = await web.post("/user/settings/account", fields);
      expect(res.status).toBe(200);
      expect(flashes(await res.text())).toEqual([`error: ${message}`]);
    }
    expect((await t.json("GET", "/api/v1/user", { basic: ["alice", "password123"] })).status).toBe(200);
  });

  test("a new password signs out every other session and remember-me token, and keeps this one", async () => {
    const erin = await t.user("erin");
    const other = await signedIn(t, "erin");
    const remembered = new WebClient(t);
    await remembered.signIn("erin", "password123", true);
    const web = new WebClient(t);
    await web.signIn("erin", "password123", true);
    const before = web.cookies.get("i_like_gitea");
    const page = await postAndFollow(
      web,
      "/user/settings/account",
      { old_password: "password123", password: "brand-new-pass", retype: "brand-new-pass" },
      "/user/settings/account",
    );
    expect(flashes(page)).toEqual(["success: Your password has been updated. Sign in using your new password from now on."]);
    // This browser: still in, under a new session id, its remember-me token renewed.
    expect(web.cookies.get("i_like_gitea")).not.toBe(before);
    expect(await web.page("/")).toContain('href="/erin"');
    web.cookies.delete("i_like_gitea");
    expect(await web.page("/")).toContain('href="/erin"');
    // The others: out.
    expect(await other.page("/")).not.toContain('href="/erin"');
    remembered.cookies.delete("i_like_gitea");
    expect(await remembered.page("/")).not.toContain('href="/erin"');
    expect((await t.json("GET", "/api/v1/user", { basic: ["erin", "password123"] })).status).toBe(401);
    expect((await t.json("GET", "/api/v1/user", { basic: ["erin", "brand-new-pass"] })).status).toBe(200);
    expect(getUserById(t.env, erin.id)!.mustChangePassword).toBe(false);
  });

  test("an account that must change its password is told so, and the change clears it", async () => {
    const app = makeTestApp();
    const admin = await app.user("root", { admin: true });
    await app.ok(
      "POST",
      "/api/v1/admin/users",
      app.token(admin),
      { username: "frank", email: "frank@example.com", password: "password123", must_change_password: true },
      201,
    );
    const web = new WebClient(app);
    const res = await web.signIn("frank");
    expect(res.headers.get("location")).toBe("/user/settings/account");
    const page = await web.page("/user/settings/account");
    expect(visibleText(page)).toContain("You must change your password before you continue.");
    const after = await postAndFollow(
      web,
      "/user/settings/account",
      { old_password: "password123", password: "changed-pass-1", retype: "changed-pass-1" },
      "/user/settings/account",
    );
    expect(visibleText(after)).not.toContain("You must change your password");
  });

  test("wrong current passwords count against the sign-in limit", async () => {
    const app = makeTestApp("[security]\nLOGIN_RATE_LIMIT = 2\n");
    const gina = await app.user("gina");
    const web = await signedIn(app, "gina");
    await web.page("/user/settings/account");
    const wrong = { old_password: "not-it-at-all", password: "new-password-1", retype: "new-password-1" };
    expect((await web.post("/user/settings/account", wrong)).status).toBe(200);
    expect((await web.post("/user/settings/account", wrong)).status).toBe(200);
    const before = getUserById(app.env, gina.id)!.passwd;
    const limited = await web.post("/user/settings/account", { ...wrong, old_password: "password123" });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(getUserById(app.env, gina.id)!.passwd).toBe(before);
  });
});

describe("email addresses", () => {
  test("added, made primary, removed; a taken or invalid address is refused with what was typed", async () => {
    const hank = await t.user("hank");
    const web = await signedIn(t, "hank");
    const added = await postAndFollow(web, "/user/settings/account/email", { email: "hank@work.example" }, "/user/settings/account");
    expect(flashes(added)).toEqual(["success: The new email address has been added."]);
    expect(visibleText(added)).toContain("hank@work.example");

    const taken = await web.post("/user/settings/account/email", { email: "bob@example.com" });
    expect(taken.status).toBe(200);
    const takenText = await taken.text();
    expect(flashes(takenText)).toEqual(["error: The email address is already used."]);
    expect(takenText).toContain('value="bob@example.com"');
    const invalid = await web.post("/user/settings/account/email", { email: "not an address" });
    expect(flashes(await invalid.text())).toEqual(["error: The email address is invalid."]);

    const token = t.token(hank, ["read:user"]);
    const list = (await t.json("GET", "/api/v1/user/emails", { token })).body as { email: string; primary: boolean }[];
    expect(list.map((e) => [e.email, e.primary])).toEqual([
      ["hank@example.com", true],
      ["hank@work.example", false],
    ]);
    const id = (address: string) => {
      const m = new RegExp(`${address.replace(/[.]/g, "\\.")}[\\s\\S]*?name="id" value="(\\d+)"`).exec(added);
      return m![1]!;
    };
    const workId = id("hank@work.example");

    const primary = await postAndFollow(web, "/user/settings/account/email", { _method: "PRIMARY", id: workId }, "/user/settings/account");
    expect(flashes(primary)).toEqual(["success: Your primary email address has been changed."]);
    expect(getUserById(t.env, hank.id)!.email).toBe("hank@work.example");
    expect((await t.json("GET", "/api/v1/user", { token })).body.email).toBe("hank@work.example");

    // The primary address cannot go; the other one can.
    const refused = await web.post("/user/settings/account/email/delete", { id: workId });
    expect(refused.status).toBe(200);
    expect(flashes(await refused.text())[0]).toContain("Primary email address cannot be deleted");
    const oldId = /hank@example\.com[\s\S]*?name="id" value="(\d+)"/.exec(primary)![1]!;
    const removed = await postAndFollow(web, "/user/settings/account/email/delete", { id: oldId }, "/user/settings/account");
    expect(flashes(removed)).toEqual(["success: The email address has been removed."]);
    expect(visibleText(removed)).not.toContain("hank@example.com");
  });

  test("another account's address is not reachable by its id", async () => {
    const ivy = await t.user("ivy");
    const mine = await signedIn(t, "ivy");
    await postAndFollow(mine, "/user/settings/account/email", { email: "ivy@second.example" }, "/user/settings/account");
    const page = await mine.page("/user/settings/account");
    const ivyId = /ivy@second\.example[\s\S]*?name="id" value="(\d+)"/.exec(page)![1]!;
    const web = await signedIn(t, "alice");
    await web.page("/user/settings/account");
    const del = await web.post("/user/settings/account/email/delete", { id: ivyId });
    expect(del.status).toBe(200);
    expect(flashes(await del.text())[0]).toStartWith("error:");
    const primary = await web.post("/user/settings/account/email", { _method: "PRIMARY", id: ivyId });
    expect(flashes(await primary.text())[0]).toStartWith("error:");
    const list = (await t.json("GET", "/api/v1/user/emails", { token: t.token(ivy, ["read:user"]) })).body as { email: string }[];
    expect(list.map((e) => e.email)).toContain("ivy@second.example");
    expect(getUserById(t.env, alice.id)!.email).toBe("alice@example.com");
  });
});

describe("access tokens", () => {
  test("a token made on the page is shown once, works on the API within its scopes, and is listed", async () => {
    const web = await signedIn(t, "alice");
    const form = await web.page("/user/settings/applications");
    expect(form).toContain('name="scope-repository"');
    expect(form).toContain('name="scope-public-only"');
    expect(form).not.toContain('name="scope-admin"');
    const page = await postAndFollow(
      web,
      "/user/settings/applications",
      { name: "ci", "scope-public-only": "", "scope-repository": "read:repository", "scope-user": "read:user", "scope-issue": "" },
      "/user/settings/applications",
    );
    const flash = flashes(page);
    expect(flash).toHaveLength(1);
    expect(flash[0]).toStartWith("success: Your new token has been generated. Copy it now as it will not be shown again.");
    const token = /<code class="secret">([0-9a-f]{40})<\/code>/.exec(page)![1]!;
    // Once: the next visit shows the list without it.
    const again = await web.page("/user/settings/applications");
    expect(again).not.toContain(token);
    expect(visibleText(again)).toContain("ci");
    expect(again).toContain(`…${token.slice(-8)}`);
    expect(visibleText(again)).toContain("read:repository");
    expect(visibleText(again)).toContain("No recent activity");

    // Use is recorded by the second: wait for one to pass, so "last used" differs from "added".
    await Bun.sleep(1100);
    const me = await t.json("GET", "/api/v1/user", { token });
    expect(me.status).toBe(200);
    expect(me.body.login).toBe("alice");
    const write = await t.json("POST", "/api/v1/user/repos", { token, body: { name: "not-allowed" } });
    expect(write.status).toBe(403);
    expect(visibleText(await web.page("/user/settings/applications"))).toContain("Last used");
  });

  test("no permission, a bad scope, a missing or a taken name are refused and the form keeps its choices", async () => {
    const web = await signedIn(t, "alice");
    await web.page("/user/settings/applications");
    const none = await web.post("/user/settings/applications", { name: "empty", "scope-public-only": "public-only" });
    expect(none.status).toBe(200);
    const noneText = await none.text();
    expect(flashes(noneText)).toEqual(["error: You must select at least one permission to create a token"]);
    expect(noneText).toContain('value="empty"');
    expect(noneText).toMatch(/name="scope-public-only" value="public-only" checked/);
    const bad = await web.post("/user/settings/applications", { name: "bad", "scope-repository": "write:everything" });
    expect(flashes(await bad.text())[0]).toContain("invalid access token scope");
    const unnamed = await web.post("/user/settings/applications", { name: "  ", "scope-user": "read:user" });
    expect(flashes(await unnamed.text())).toEqual(["error: Token Name cannot be empty."]);
    await postAndFollow(web, "/user/settings/applications", { name: "twice", "scope-user": "write:user" }, "/user/settings/applications");
    const dup = await web.post("/user/settings/applications", { name: "twice", "scope-user": "read:user" });
    const dupText = await dup.text();
    expect(flashes(dupText)).toEqual(["error: twice has been used as an application name already. Please use a new one."]);
    expect(dupText).toMatch(/<option value="read:user" selected>/);
  });

  test("a public-only token is listed as such and reaches public resources only", async () => {
    const web = await signedIn(t, "bob");
    const page = await postAndFollow(
      web,
      "/user/settings/applications",
      { name: "public", "scope-public-only": "public-only", "scope-repository": "write:repository" },
      "/user/settings/applications",
    );
    const token = /<code class="secret">([0-9a-f]{40})<\/code>/.exec(page)![1]!;
    expect(visibleText(page)).toContain("Repository and Organization Access: Public only");
    const all = t.token(bob);
    await t.ok("POST", "/api/v1/user/repos", all, { name: "hidden", private: true }, 201);
    await t.ok("POST", "/api/v1/user/repos", all, { name: "open" }, 201);
    expect((await t.json("GET", "/api/v1/repos/bob/open", { token })).status).toBe(200);
    expect((await t.json("GET", "/api/v1/repos/bob/hidden", { token })).status).toBe(403);
  });

  test("deleting a token revokes it; another user's token id is left alone", async () => {
    const web = await signedIn(t, "alice");
    const page = await postAndFollow(web, "/user/settings/applications", { name: "to-delete", "scope-user": "read:user" }, "/user/settings/applications");
    const token = /<code class="secret">([0-9a-f]{40})<\/code>/.exec(page)![1]!;
    const list = await web.page("/user/settings/applications");
    const id = /to-delete[\s\S]*?name="id" value="(\d+)"/.exec(list)![1]!;

    const bobToken = t.token(bob, ["read:user"], "bobs");
    const bobId = String(((await t.json("GET", "/api/v1/users/bob/tokens", { basic: ["bob", "password123"] })).body as { id: number; name: string }[]).find((x) => x.name === "bobs")!.id);
    const other = await web.post("/user/settings/applications/delete", { id: bobId });
    expect(other.status).toBe(200);
    expect(flashes(await other.text())).toEqual(["error: The access token does not exist."]);
    expect((await t.json("GET", "/api/v1/user", { token: bobToken })).status).toBe(200);
    const byName = await web.post("/user/settings/applications/delete", { id: "to-delete" });
    expect(flashes(await byName.text())).toEqual(["error: The access token does not exist."]);

    const after = await postAndFollow(web, "/user/settings/applications/delete", { id }, "/user/settings/applications");
    expect(flashes(after)).toEqual(["success: The token has been deleted. Applications using it no longer have access to your account."]);
    expect(visibleText(after)).not.toContain("to-delete");
    expect((await t.json("GET", "/api/v1/user", { token })).status).toBe(401);
  });
});
