import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { gitOk, localRepo } from "../support/git.ts";
import { startGitDaemon } from "../support/git-daemon.ts";
import { WebClient, signedIn, visibleText } from "../support/web.ts";

/** A plain git source on loopback, stopped with the file. */
async function gitDaemon(): Promise<{ base: string; url: string }> {
  const daemon = await startGitDaemon();
  afterAll(() => daemon.stop());
  return daemon;
}

/** A bare repository `name` with a main branch (one commit) and a dev branch, served by the daemon. */
async function served(daemonBase: string, name: string): Promise<void> {
  const work = await localRepo("main");
  await gitOk(["checkout", "-q", "-b", "dev"], { cwd: work });
  await Bun.write(join(work, "dev.txt"), "dev\n");
  await gitOk(["add", "."], { cwd: work });
  await gitOk(["commit", "-qm", "dev"], { cwd: work });
  await gitOk(["checkout", "-q", "main"], { cwd: work });
  await gitOk(["clone", "-q", "--bare", work, join(daemonBase, `${name}.git`)]);
}

const t = makeTestApp("[migrations]\nALLOW_LOCALNETWORKS = true\n[mirror]\nMIN_INTERVAL = 1m\n", { listen: true });
const alice = await t.user("alice");
await t.user("bob");
const aliceToken = t.token(alice);
await t.ok("POST", "/api/v1/orgs", aliceToken, { username: "acme" }, 201);
const daemon = await gitDaemon();
await served(daemon.base, "proj");

/** The error flash of a page, as read. */
const errorOf = (page: string) => visibleText(/<div class="flash error"[^>]*>([\s\S]*?)<\/div>/.exec(page)?.[1] ?? "");

/** The migration form's fields for a plain git source. */
const gitFields = (over: Record<string, string> = {}) => ({
  service: "1",
  clone_addr: `${daemon.url}proj.git`,
  uid: String(alice.id),
  repo_name: "proj",
  description: "brought in",
  ...over,
});

describe("/repo/migrate", () => {
  test("signed out, the page sends to sign-in", async () => {
    const res = await new WebClient(t).get("/repo/migrate");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/user/login?redirect_to=${encodeURIComponent("/repo/migrate")}`);
  });

  test("the chooser lists Git, GitHub, Gitea, GitLab and Gogs with Gitea's service_type numbers", async () => {
    const web = await signedIn(t, "alice");
    const page = await web.page("/repo/migrate");
    const links = [...page.matchAll(/<a class="migrate-service" href="([^"]+)"><strong>([^<]+)<\/strong>/g)].map((m) => [m[2], m[1]!.replace(/&amp;/g, "&")]);
    expect(links).toEqual([
      ["Git", "/repo/migrate?service_type=1"],
      ["GitHub", "/repo/migrate?service_type=2"],
      ["Gitea", "/repo/migrate?service_type=3"],
      ["GitLab", "/repo/migrate?service_type=4"],
      ["Gogs", "/repo/migrate?service_type=5"],
    ]);
    expect(page.match(/<h1[ >]/g)!.length).toBe(1);
    expect(page).not.toMatch(/<script|\sstyle="/);
    // ?org= and ?mirror= are carried to the service's form, as Gitea's chooser does.
    const kept = await web.page("/repo/migrate?org=acme&mirror=1");
    expect(kept).toContain('href="/repo/migrate?service_type=1&amp;org=acme&amp;mirror=1"');
  });

  test("each service's form asks what Gitea's asks: git a user name and password, the forges a token", async () => {
    const web = await signedIn(t, "alice");
    const git = await web.page("/repo/migrate?service_type=1");
    expect(visibleText(git)).toContain("Migrate From Git");
    expect(git).toContain('name="auth_username"');
    expect(git).toContain('name="auth_password" type="password"');
    expect(git).not.toContain('name="auth_token"');
    expect(git).not.toContain('name="issues"');
    expect(git).toContain('<input type="hidden" name="service" value="1">');
    for (const [type, title] of [["2", "GitHub"], ["3", "Gitea"], ["4", "GitLab"]] as const) {
      const form = await web.page(`/repo/migrate?service_type=${type}`);
      expect(visibleText(form)).toContain(`Migrate From ${title}`);
      expect(form).toContain('name="auth_token" type="password"');
      expect(form).not.toContain('name="auth_password"');
      for (const item of ["milestones", "labels", "issues", "pull_requests", "releases"]) expect(form).toContain(`name="${item}"`);
    }
    expect(visibleText(await web.page("/repo/migrate?service_type=4"))).toContain("Merge Requests");
    const gogs = await web.page("/repo/migrate?service_type=5");
    expect(gogs).toContain('name="issues"');
    expect(gogs).not.toContain('name="pull_requests"');
    expect(gogs).not.toContain('name="releases"');
    // Owners: the doer and the organizations they own; ?org= preselects one.
    const owners = await web.page(`/repo/migrate?service_type=1&org=acme`);
    const select = /<select id="f-uid" name="uid" required>([\s\S]*?)<\/select>/.exec(owners)![1]!;
    expect(visibleText(select)).toBe("alice acme");
    expect(select).toMatch(/<option value="\d+" selected>acme<\/option>/);
    // ?mirror=1 ticks the mirror box.
    expect(await web.page("/repo/migrate?service_type=1&mirror=1")).toContain('name="mirror" checked');
  });

  test("a form post from another site or with a wrong _csrf is refused", async () => {
    const web = await signedIn(t, "alice");
    await web.page("/repo/migrate?service_type=1");
    const cross = await web.post("/repo/migrate", gitFields({ repo_name: "x1" }), { headers: { "Sec-Fetch-Site": "cross-site" } });
    expect(cross.status).toBe(403);
    const wrong = await web.post("/repo/migrate", { ...gitFields({ repo_name: "x2" }), _csrf: "forged" }, { csrf: false });
    expect(wrong.status).toBe(400);
    const r = await t.request("GET", "/api/v1/repos/alice/x1", { headers: { Authorization: `token ${aliceToken}` } });
    expect(r.status).toBe(404);
  });

  test("a plain git source is migrated and the form redirects to the new repository", async () => {
    const web = await signedIn(t, "alice");
    await web.page("/repo/migrate?service_type=1");
    const res = await web.post("/repo/migrate", gitFields());
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/alice/proj");
    const repo = await t.ok("GET", "/api/v1/repos/alice/proj", aliceToken);
    expect(repo.description).toBe("brought in");
    expect(repo.mirror).toBe(false);
    expect(repo.original_url).toBe(`${daemon.url}proj.git`);
    const branches = await t.ok("GET", "/api/v1/repos/alice/proj/branches", aliceToken);
    expect(branches.map((b: { name: string }) => b.name).sort()).toEqual(["dev", "main"]);
    // A second one of that name: the form again, with Gitea's message and what was typed.
    const again = await web.post("/repo/migrate", gitFields({ auth_username: "someone", auth_password: "hunter2-secret" }));
    expect(again.status).toBe(422);
    const page = await again.text();
    expect(errorOf(page)).toBe("The repository name is already used.");
    expect(page).toContain(`value="${daemon.url}proj.git"`);
    expect(page).toContain('value="someone"');
    expect(page).not.toContain("hunter2-secret");
  });

  test("refusals re-render the form with the message, never a 500, and never the token", async () => {
    const web = await signedIn(t, "alice");
    await web.page("/repo/migrate?service_type=3");
    const cases: [Record<string, string>, string][] = [
      [{ clone_addr: "/srv/git/proj.git" }, "You are not allowed to import local repositories."],
      [{ clone_addr: "ftp://example.invalid/x.git" }, "Invalid url: the protocol must be http, https or git"],
      [{ clone_addr: `${daemon.url}missing.git`, repo_name: "missing" }, "Migration failed"],
      [{ repo_name: "bad name!" }, ""],
      [{ description: "d".repeat(2049) }, "Description must contain at most 2048 characters."],
      [{ clone_addr: "" }, "Migrate / Clone From URL cannot be empty."],
      [{ mirror: "on", mirror_interval: "5s", repo_name: "fast" }, "below Minimum Interval"],
    ];
    for (const [over, message] of cases) {
      const res = await web.post("/repo/migrate", { ...gitFields({ service: "1", repo_name: "other" }), auth_token: "tok-never-shown", ...over });
      const page = await res.text();
      expect(res.status).toBe(422);
      expect(errorOf(page)).toContain(message);
      expect(errorOf(page)).not.toBe("");
      expect(page).not.toContain("tok-never-shown");
      expect(page).toContain('name="clone_addr"');
    }
    // Bob may not put a repository into alice's account.
    const bob = await signedIn(t, "bob");
    await bob.page("/repo/migrate?service_type=1");
    const res = await bob.post("/repo/migrate", gitFields({ repo_name: "stolen" }));
    expect(res.status).toBe(422);
    expect(errorOf(await res.text())).toBe("Given user is not an organization.");
  });

  test("a mirror into an organization: the header says what it mirrors", async () => {
    const web = await signedIn(t, "alice");
    await web.page("/repo/migrate?service_type=1");
    const acme = await t.ok("GET", "/api/v1/orgs/acme", aliceToken);
    const res = await web.post("/repo/migrate", gitFields({ uid: String(acme.id), repo_name: "mirrored", mirror: "on", mirror_interval: "2h", issues: "on" }));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/acme/mirrored");
    const repo = await t.ok("GET", "/api/v1/repos/acme/mirrored", aliceToken);
    expect(repo.mirror).toBe(true);
  });
});

describe("switched off by the site", () => {
  test("[repository] DISABLE_MIGRATIONS refuses the pages with 403; [mirror] DISABLE_NEW_PULL hides the mirror option", async () => {
    const off = makeTestApp("[repository]\nDISABLE_MIGRATIONS = true\n[mirror]\nDISABLE_NEW_PULL = true\n");
    await off.user("carol");
    const web = await signedIn(off, "carol");
    expect((await web.get("/repo/migrate")).status).toBe(403);
    expect((await web.get("/repo/migrate?service_type=1")).status).toBe(403);
    expect((await web.post("/repo/migrate", gitFields({ uid: "1" }))).status).toBe(403);
    const noPull = makeTestApp("[mirror]\nDISABLE_NEW_PULL = true\n");
    await noPull.user("carol");
    const form = await (await signedIn(noPull, "carol")).page("/repo/migrate?service_type=1&mirror=1");
    expect(form).not.toContain('name="mirror"');
    expect(form).toContain('name="clone_addr"');
  });
});

describe("a pull mirror's settings", () => {
  /** A mirror of a fresh source `name`, owned by alice, migrated through the form. */
  async function mirrorOf(web: WebClient, name: string, interval = "2h"): Promise<void> {
    await served(daemon.base, name);
    await web.page("/repo/migrate?service_type=1");
    const res = await web.post("/repo/migrate", gitFields({ clone_addr: `${daemon.url}${name}.git`, repo_name: name, mirror: "on", mirror_interval: interval }));
    expect(res.status).toBe(303);
  }

  test("the header says what it mirrors; the settings show the remote, interval, last update and the actions", async () => {
    const web = await signedIn(t, "alice");
    await mirrorOf(web, "m1");
    const home = visibleText(await web.page("/alice/m1"));
    expect(home).toContain(`mirror of ${daemon.url}m1.git`);
    expect(home).toContain("Mirror");
    // A mirror takes no pull requests (Gitea's CanEnablePulls): no tab, and no page behind it.
    expect(home).not.toContain("Pull requests");
    expect((await web.get("/alice/m1/pulls")).status).toBe(404);
    const page = await web.page("/alice/m1/settings");
    const text = visibleText(page);
    expect(text).toContain("Mirror Settings");
    expect(text).toContain(`${daemon.url}m1.git Pull`);
    expect(page).toContain('name="interval" type="text" value="2h0m0s"');
    expect(page).toMatch(/<button class="primary" type="submit">Synchronize Now<\/button>/);
    expect(text).toContain("Convert to Regular Repository");
    expect(page).toContain('<a href="/alice/m1/settings" aria-current="page">Settings</a>');
    expect(page.match(/<h1[ >]/g)!.length).toBe(1);
    expect(page).not.toMatch(/<script|\sstyle="/);
    // A repository that is not a mirror has no mirror section.
    const plain = visibleText(await web.page("/alice/proj/settings"));
    expect(plain).not.toContain("Mirror Settings");
    expect(plain).not.toContain("Convert to Regular Repository");
  });

  test("credentials given for the source are never shown; a failed sync's error is", async () => {
    const web = await signedIn(t, "alice");
    await served(daemon.base, "m2");
    await web.page("/repo/migrate?service_type=1");
    const res = await web.post(
      "/repo/migrate",
      gitFields({ clone_addr: `${daemon.url}m2.git`, repo_name: "m2", mirror: "on", auth_username: "mirror-user", auth_password: "pw-secret" }),
    );
    expect(res.status).toBe(303);
    for (const path of ["/alice/m2", "/alice/m2/settings"]) {
      const page = await web.page(path);
      expect(page).not.toContain("pw-secret");
      expect(page).not.toContain("mirror-user");
    }
    // The source goes away: the next sync fails and the settings say why.
    rmSync(join(daemon.base, "m2.git"), { recursive: true, force: true });
    expect((await web.post("/alice/m2/settings", { action: "mirror-sync" })).status).toBe(303);
    let page = "";
    for (let i = 0; i < 150 && !page.includes("Last error:"); i++) {
      await Bun.sleep(100);
      page = await web.page("/alice/m2/settings");
    }
    expect(visibleText(page)).toMatch(/Last error: .+/);
    expect(page).not.toContain("pw-secret");
  });

  test("only the repository's administrators reach the settings", async () => {
    const bob = await signedIn(t, "bob");
    expect((await bob.get("/alice/m1/settings")).status).toBe(403);
    const res = await bob.post("/alice/m1/settings", { action: "mirror-sync" });
    expect(res.status).toBe(403);
    const anon = await new WebClient(t).get("/alice/m1/settings");
    expect(anon.status).toBe(303);
    // Nor is there a Settings tab for them.
    expect(await bob.page("/alice/m1")).not.toContain("/alice/m1/settings");
  });

  test("the interval is edited, and a wrong one shown again with Gitea's message", async () => {
    const web = await signedIn(t, "alice");
    await web.page("/alice/m1/settings");
    const ok = await web.post("/alice/m1/settings", { action: "mirror", interval: "90m" });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/alice/m1/settings");
    const after = await web.page("/alice/m1/settings");
    expect(after).toContain("The repository settings have been updated.");
    expect(after).toContain('name="interval" type="text" value="1h30m0s"');
    for (const bad of ["5s", "soon"]) {
      const res = await web.post("/alice/m1/settings", { action: "mirror", interval: bad });
      expect(res.status).toBe(422);
      const page = await res.text();
      expect(errorOf(page)).toBe("The mirror interval is not valid.");
      expect(page).toContain(`name="interval" type="text" value="${bad}"`);
    }
    // Empty switches the periodic sync off, as Gitea's form does.
    expect((await web.post("/alice/m1/settings", { action: "mirror", interval: "" })).status).toBe(303);
    expect(await web.page("/alice/m1/settings")).toContain('name="interval" type="text" value=""');
  });

  test("Synchronize Now brings the source's new branch", async () => {
    const web = await signedIn(t, "alice");
    const work = await localRepo("main");
    await gitOk(["push", "-q", "--force", join(daemon.base, "m1.git"), "main:feature"], { cwd: work });
    await web.page("/alice/m1/settings");
    const res = await web.post("/alice/m1/settings", { action: "mirror-sync" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/alice/m1/settings");
    expect(visibleText(await web.page("/alice/m1/settings"))).toContain(`Pulling changes from the remote ${daemon.url}m1.git at the moment.`);
    let names: string[] = [];
    for (let i = 0; i < 150 && !names.includes("feature"); i++) {
      await Bun.sleep(100);
      names = (await t.ok("GET", "/api/v1/repos/alice/m1/branches", aliceToken)).map((b: { name: string }) => b.name);
    }
    expect(names).toContain("feature");
  });

  test("Convert to Regular Repository: the name must be typed, then the mirror is a normal repository", async () => {
    const web = await signedIn(t, "alice");
    await web.page("/alice/m1/settings");
    const wrong = await web.post("/alice/m1/settings", { action: "convert", repo_name: "m2" });
    expect(wrong.status).toBe(422);
    expect(errorOf(await wrong.text())).toBe("The repository name you entered is incorrect.");
    expect((await t.ok("GET", "/api/v1/repos/alice/m1", aliceToken)).mirror).toBe(true);
    const res = await web.post("/alice/m1/settings", { action: "convert", repo_name: "m1" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/alice/m1");
    const home = await web.page("/alice/m1");
    expect(home).toContain("The mirror has been converted into a regular repository.");
    expect(visibleText(home)).not.toContain("mirror of");
    expect((await t.ok("GET", "/api/v1/repos/alice/m1", aliceToken)).mirror).toBe(false);
    const settings = visibleText(await web.page("/alice/m1/settings"));
    expect(settings).not.toContain("Mirror Settings");
    // The mirror actions now answer 404, as Gitea's.
    expect((await web.post("/alice/m1/settings", { action: "mirror", interval: "1h" })).status).toBe(404);
    expect((await web.post("/alice/m1/settings", { action: "unknown" })).status).toBe(404);
    expect((await web.post("/alice/m1/settings", { action: "mirror-sync" })).status).toBe(404);
    expect((await web.post("/alice/m1/settings", { action: "convert", repo_name: "m1" })).status).toBe(404);
  });
});
