import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp, type TestApp } from "../support/app.ts";
import { authUrl, gitOk } from "../support/git.ts";
import { formatGoDuration, parseGoDuration } from "../../src/config/go-duration.ts";

// The source forge may push to loopback; the target forge receives the mirror pushes.
const src = makeTestApp("[migrations]\nALLOW_LOCALNETWORKS = true\n", { listen: true });
const dst = makeTestApp("[mirror]\nENABLED = false\n", { listen: true });
const strict = makeTestApp("[migrations]\nBLOCKED_DOMAINS = *.blocked.test\n");
const closed = makeTestApp("[mirror]\nDISABLE_NEW_PUSH = true\n[migrations]\nALLOW_LOCALNETWORKS = true\n");

const alice = await src.user("alice", { password: "alice-pass" });
const bob = await src.user("bob");
const aliceToken = src.token(alice);
const bobToken = src.token(bob);
const readToken = src.token(alice, ["read:repository"]);
await src.ok("POST", "/api/v1/user/repos", aliceToken, { name: "r", auto_init: true }, 201);
await src.ok("PUT", "/api/v1/repos/alice/r/collaborators/bob", aliceToken, { permission: "write" }, 204);
const api = (rest = "") => `/api/v1/repos/alice/r${rest}`;

const PASSWORD = "pw-Sup3rS3cret-7731";

async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

/** Branches and tags of a repository as `ref sha` lines, sorted. */
async function refs(url: string): Promise<string[]> {
  const out = await gitOk(["ls-remote", url]);
  return out
    .split("\n")
    .filter((l) => /\trefs\/(heads|tags)\//.test(l))
    .map((l) => l.split("\t").reverse().join(" "))
    .sort();
}

describe("Go durations", () => {
  test("parse and print as Go does", () => {
    expect(parseGoDuration("8h")).toBe(8 * 3600e9);
    expect(parseGoDuration("1h30m")).toBe(5400e9);
    expect(parseGoDuration("1.5s")).toBe(1.5e9);
    expect(parseGoDuration("0")).toBe(0);
    expect(parseGoDuration("-10m")).toBe(-600e9);
    expect(() => parseGoDuration("")).toThrow('time: invalid duration ""');
    expect(() => parseGoDuration("10")).toThrow('time: missing unit in duration "10"');
    expect(() => parseGoDuration("1d")).toThrow('time: unknown unit "d" in duration "1d"');
    expect(formatGoDuration(8 * 3600e9)).toBe("8h0m0s");
    expect(formatGoDuration(600e9)).toBe("10m0s");
    expect(formatGoDuration(0)).toBe("0s");
    expect(formatGoDuration(1.5e9)).toBe("1.5s");
    expect(formatGoDuration(300e6)).toBe("300ms");
    expect(formatGoDuration(90061e9)).toBe("25h1m1s");
  });
});

describe("push mirror API", () => {
  let failing: any;
  test("create: sync_on_commit and the interval returned, the address without credentials, Gitea's remote name", async () => {
    failing = await src.ok("POST", api("/push_mirrors"), aliceToken, {
      remote_address: `http://mirror-user:${PASSWORD}@127.0.0.1:9/nowhere.git`,
      interval: "8h",
      sync_on_commit: true,
    });
    expect(failing).toEqual({
      repo_name: "r",
      remote_name: expect.stringMatching(/^remote_mirror_[0-9A-Za-z]{10}$/),
      remote_address: "http://127.0.0.1:9/nowhere.git",
      created: expect.any(String),
      last_update: null,
      last_error: "",
      interval: "8h0m0s",
      sync_on_commit: true,
    });
    const quiet = await src.ok("POST", api("/push_mirrors"), aliceToken, {
      remote_address: "http://127.0.0.1:9/other.git",
      remote_username: "u",
      remote_password: PASSWORD,
      interval: "0",
      sync_on_commit: false,
    });
    expect(quiet.sync_on_commit).toBe(false);
    expect(quiet.interval).toBe("0s");
    expect(quiet.remote_name).not.toBe(failing.remote_name);

    const list = await src.json("GET", api("/push_mirrors"), { token: aliceToken });
    expect(list.status).toBe(200);
    expect(list.headers.get("X-Total-Count")).toBe("2");
    expect(list.body.map((m: any) => [m.remote_name, m.sync_on_commit])).toEqual([
      [failing.remote_name, true],
      [quiet.remote_name, false],
    ]);
    const one = await src.ok("GET", api(`/push_mirrors/${quiet.remote_name}`), aliceToken);
    expect(one.remote_address).toBe("http://127.0.0.1:9/other.git");
    const page2 = await src.ok("GET", api("/push_mirrors?limit=1&page=2"), aliceToken);
    expect(page2.map((m: any) => m.remote_name)).toEqual([quiet.remote_name]);

    await src.ok("DELETE", api(`/push_mirrors/${quiet.remote_name}`), aliceToken, undefined, 204);
    await src.ok("GET", api(`/push_mirrors/${quiet.remote_name}`), aliceToken, undefined, 404);
    await src.ok("DELETE", api(`/push_mirrors/${quiet.remote_name}`), aliceToken, undefined, 404);
  });

  test("a mirror with an interval syncs at once; a failing remote records its error without the credentials", async () => {
    const m = await waitFor("the first periodic sync", async () => {
      const r = await src.ok("GET", api(`/push_mirrors/${failing.remote_name}`), aliceToken);
      return r.last_update ? r : undefined;
    });
    expect(m.last_error).not.toBe("");
    expect(m.last_error).not.toContain(PASSWORD);
    expect(m.last_error).not.toContain(Buffer.from(`mirror-user:${PASSWORD}`).toString("base64"));
    expect(m.last_error).not.toContain("mirror-user:");
  });

  test("a short password does not mangle the error: redaction follows URL structure, not substrings", async () => {
    // "p" occurs in "http" and in the repository name: a substring redaction would cut both.
    const short = await src.ok("POST", api("/push_mirrors"), aliceToken, {
      remote_address: "http://127.0.0.1:9/repo.git",
      remote_username: "u",
      remote_password: "p",
      interval: "0",
    });
    await src.ok("POST", api("/push_mirrors-sync"), aliceToken);
    const m = await waitFor("the failed sync", async () => {
      const r = await src.ok("GET", api(`/push_mirrors/${short.remote_name}`), aliceToken);
      return r.last_update ? r : undefined;
    });
    expect(m.last_error).toContain("http://127.0.0.1:9/repo.git");
    expect(m.last_error).not.toContain("<credentials>");
    await src.ok("DELETE", api(`/push_mirrors/${short.remote_name}`), aliceToken, undefined, 204);
  });

  test("credentials are never returned and never stored in clear", async () => {
    const all = await src.json("GET", api("/push_mirrors"), { token: aliceToken });
    expect(JSON.stringify(all.body)).not.toContain(PASSWORD);
    const dbPath = src.settings.database.path;
    for (const file of [dbPath, `${dbPath}-wal`]) {
      if (!existsSync(file)) continue;
      const bytes = readFileSync(file);
      expect(bytes.includes(Buffer.from(PASSWORD))).toBe(false);
      expect(bytes.includes(Buffer.from(`mirror-user:${PASSWORD}`).toString("base64"))).toBe(false);
    }
  });

  test("repository admins only: a writer gets 403, an anonymous caller 401, a read-only token 403", async () => {
    const body = { remote_address: "http://127.0.0.1:9/x.git", interval: "0" };
    const forbidden = await src.json("POST", api("/push_mirrors"), { token: bobToken, body });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.message).toBe("user should be an owner or a collaborator with admin write of a repository");
    expect((await src.json("GET", api("/push_mirrors"), { token: bobToken })).status).toBe(403);
    expect((await src.json("POST", api("/push_mirrors-sync"), { token: bobToken })).status).toBe(403);
    expect((await src.json("DELETE", api(`/push_mirrors/${failing.remote_name}`), { token: bobToken })).status).toBe(403);
    expect((await src.json("GET", api("/push_mirrors"))).status).toBe(401);
    expect((await src.json("POST", api("/push_mirrors"), { token: readToken, body })).status).toBe(403);
    expect((await src.json("GET", api("/push_mirrors"), { token: readToken })).status).toBe(200);
    expect((await src.json("GET", "/api/v1/repos/alice/nope/push_mirrors", { token: aliceToken })).status).toBe(404);
  });

  test("an archived repository's mirrors can be read, not changed (423)", async () => {
    await src.ok("POST", "/api/v1/user/repos", aliceToken, { name: "old" }, 201);
    await src.ok("PATCH", "/api/v1/repos/alice/old", aliceToken, { archived: true });
    const body = { remote_address: "http://127.0.0.1:9/x.git", interval: "0" };
    expect((await src.json("POST", "/api/v1/repos/alice/old/push_mirrors", { token: aliceToken, body })).status).toBe(423);
    expect((await src.json("POST", "/api/v1/repos/alice/old/push_mirrors-sync", { token: aliceToken })).status).toBe(423);
    expect(await src.ok("GET", "/api/v1/repos/alice/old/push_mirrors", aliceToken)).toEqual([]);
  });

  test("validation answers as Gitea", async () => {
    const post = (body: unknown, t: TestApp = src, path = api("/push_mirrors")) => t.json("POST", path, { token: aliceToken, body });
    const addr = "http://127.0.0.1:9/x.git";
    const cases: [unknown, number, string | undefined][] = [
      [{ remote_address: addr }, 400, 'time: invalid duration ""'],
      [{ remote_address: addr, interval: "5m" }, 400, "interval must be 0 (no periodic sync) or at least 10m0s"],
      [{ remote_address: addr, interval: "-1h" }, 400, "interval must be 0 (no periodic sync) or at least 10m0s"],
      [{ remote_address: addr, interval: "1d" }, 400, 'time: unknown unit "d" in duration "1d"'],
      [{ remote_address: "ssh://git@127.0.0.1/x.git", interval: "0" }, 400, "Invalid mirror protocol"],
      [{ remote_address: "git://127.0.0.1/x.git", interval: "0" }, 400, "Invalid mirror protocol"],
      [{ remote_address: "http://[::1/x.git", interval: "0" }, 400, "Invalid Url "],
      [{ remote_address: "/srv/git/x.git", interval: "0" }, 401, "Permission denied"],
      [{ remote_address: "file:///srv/git/x.git", interval: "0" }, 401, "Permission denied"],
      [{ remote_address: addr, interval: "0", sync_on_commit: "yes" }, 422, undefined],
    ];
    for (const [body, status, message] of cases) {
      const r = await post(body);
      expect({ body, status: r.status, message: message === undefined ? undefined : r.body?.message }).toEqual({ body, status, message });
    }
    expect((await src.ok("GET", api("/push_mirrors"), aliceToken)).length).toBe(1);
  });

  test("local networks are refused unless [migrations] ALLOW_LOCALNETWORKS; BLOCKED_DOMAINS refuses by name", async () => {
    const owner = await strict.user("alice");
    const token = strict.token(owner);
    await strict.ok("POST", "/api/v1/user/repos", token, { name: "r" }, 201);
    for (const remote of ["http://127.0.0.1/x.git", "http://10.1.2.3/x.git", "http://[::1]/x.git", "http://mirror.blocked.test/x.git"]) {
      const r = await strict.json("POST", api("/push_mirrors"), { token, body: { remote_address: remote, interval: "0" } });
      expect({ remote, status: r.status, message: r.body?.message }).toEqual({ remote, status: 401, message: "Permission denied" });
    }
  });

  test("[mirror] DISABLE_NEW_PUSH = true refuses new mirrors, the rest still answers", async () => {
    const owner = await closed.user("dora");
    const token = closed.token(owner);
    await closed.ok("POST", "/api/v1/user/repos", token, { name: "r" }, 201);
    const r = await closed.json("POST", "/api/v1/repos/dora/r/push_mirrors", {
      token,
      body: { remote_address: "http://127.0.0.1:9/x.git", interval: "0" },
    });
    expect({ status: r.status, message: r.body?.message }).toEqual({ status: 400, message: "Creating new push mirrors is disabled" });
    expect(await closed.ok("GET", "/api/v1/repos/dora/r/push_mirrors", token)).toEqual([]);
    await closed.ok("POST", "/api/v1/repos/dora/r/push_mirrors-sync", token);
  });

  test("[mirror] ENABLED = false: every push mirror route answers 400", async () => {
    const owner = await dst.user("carl");
    const token = dst.token(owner);
    await dst.ok("POST", "/api/v1/user/repos", token, { name: "r" }, 201);
    for (const [method, path] of [
      ["GET", "/push_mirrors"],
      ["POST", "/push_mirrors"],
      ["POST", "/push_mirrors-sync"],
      ["GET", "/push_mirrors/remote_mirror_x"],
      ["DELETE", "/push_mirrors/remote_mirror_x"],
    ] as const) {
      const r = await dst.json(method, `/api/v1/repos/carl/r${path}`, { token, body: method === "POST" ? { interval: "0" } : undefined });
      expect({ path, status: r.status, message: r.body?.message }).toEqual({ path, status: 400, message: "Mirror feature is disabled" });
    }
  });
});

describe("syncing to another forge", () => {
  test("push_mirrors-sync and sync_on_commit make the target's branches and tags those of the source", async () => {
    // The target: an empty repository on the second forge, pushed to with a token of its owner.
    const mirrorUser = await dst.user("mirroruser");
    const dstToken = dst.token(mirrorUser);
    await dst.ok("POST", "/api/v1/user/repos", dstToken, { name: "target" }, 201);
    const targetUrl = new URL("mirroruser/target.git", dst.baseUrl).href;
    const targetRead = authUrl(dst.baseUrl, "mirroruser/target.git", "mirroruser", dstToken);

    // The source: a branch and a tag besides main.
    await src.ok("POST", "/api/v1/user/repos", aliceToken, { name: "s", auto_init: true }, 201);
    const sourceUrl = authUrl(src.baseUrl, "alice/s.git", "alice", "alice-pass");
    const work = join(mkdtempSync(join(tmpdir(), "hearth-pm-")), "w");
    await gitOk(["clone", "-q", sourceUrl, work]);
    await gitOk(["checkout", "-q", "-b", "feature"], { cwd: work });
    await Bun.write(join(work, "f.txt"), "feature\n");
    await gitOk(["add", "f.txt"], { cwd: work });
    await gitOk(["commit", "-q", "-m", "feature"], { cwd: work });
    await gitOk(["tag", "v1"], { cwd: work });
    await gitOk(["push", "-q", "origin", "feature", "v1"], { cwd: work });

    const sapi = (rest: string) => `/api/v1/repos/alice/s${rest}`;
    const mirror = await src.ok("POST", sapi("/push_mirrors"), aliceToken, {
      remote_address: targetUrl,
      remote_username: "mirroruser",
      remote_password: dstToken,
      interval: "0",
      sync_on_commit: true,
    });
    expect(mirror.remote_address).toBe(targetUrl);
    const before = await refs(sourceUrl);
    expect(before.length).toBe(3);
    expect(await refs(targetRead)).toEqual([]);

    await src.ok("POST", sapi("/push_mirrors-sync"), aliceToken);
    await waitFor("the mirror sync", async () => ((await refs(targetRead)).join() === before.join() ? true : undefined));
    const synced = await waitFor("the sync record", async () => {
      const m = await src.ok("GET", sapi(`/push_mirrors/${mirror.remote_name}`), aliceToken);
      return m.last_update ? m : undefined;
    });
    expect(synced.last_error).toBe("");

    // A push with a new commit on main and the feature branch deleted: mirrored without asking.
    await gitOk(["checkout", "-q", "main"], { cwd: work });
    await Bun.write(join(work, "m.txt"), "more\n");
    await gitOk(["add", "m.txt"], { cwd: work });
    await gitOk(["commit", "-q", "-m", "more"], { cwd: work });
    await gitOk(["push", "-q", "origin", "main", ":feature"], { cwd: work });
    const after = await refs(sourceUrl);
    expect(after).not.toEqual(before);
    expect(after.some((l) => l.startsWith("refs/heads/feature "))).toBe(false);
    await waitFor("the sync on commit", async () => ((await refs(targetRead)).join() === after.join() ? true : undefined));
  });

  test("a refused push records the remote's error, without the credentials", async () => {
    const bad = await src.ok("POST", api("/push_mirrors"), aliceToken, {
      remote_address: new URL("mirroruser/target.git", dst.baseUrl).href,
      remote_username: "mirroruser",
      remote_password: PASSWORD,
      interval: "0",
    });
    await src.ok("POST", api("/push_mirrors-sync"), aliceToken);
    const m = await waitFor("the failed sync", async () => {
      const r = await src.ok("GET", api(`/push_mirrors/${bad.remote_name}`), aliceToken);
      return r.last_update ? r : undefined;
    });
    expect(m.last_error).not.toBe("");
    expect(m.last_error).not.toContain(PASSWORD);
    expect(m.last_error).not.toContain(Buffer.from(`mirroruser:${PASSWORD}`).toString("base64"));
  });
});
