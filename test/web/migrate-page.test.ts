import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { gitOk, localRepo } from "../support/git.ts";
import { WebClient, signedIn, visibleText } from "../support/web.ts";

/** A plain git source: `git daemon` serving a directory on loopback (as test/migration/migrate-git.test.ts). */
async function gitDaemon(): Promise<{ base: string; url: string }> {
  const base = mkdtempSync(join(tmpdir(), "hearth-gitd-"));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const proc = Bun.spawn(["git", "daemon", "--export-all", "--reuseaddr", `--base-path=${base}`, "--listen=127.0.0.1", `--port=${port}`, base], {
    stdout: "ignore",
    stderr: "pipe",
  });
  afterAll(() => {
    proc.kill();
    rmSync(base, { recursive: true, force: true });
  });
  for (let i = 0; i < 100; i++) {
    const probe = Bun.spawnSync(["git", "ls-remote", `git://127.0.0.1:${port}/none`], { stderr: "pipe" });
    if (!probe.stderr.toString().includes("Connection refused")) break;
    await Bun.sleep(100);
  }
  return { base, url: `git://127.0.0.1:${port}/` };
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
