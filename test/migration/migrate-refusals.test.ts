import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { makeTestApp, type TestApp } from "../support/app.ts";

/**
 * What `POST /repos/migrate` refuses, and what it never lets out: every refusal of Gitea's
 * (hosts, paths, names, owners, limits, switches, intervals, services), a redirect into a refused
 * network, and the credentials of a migration, which stay out of answers, the database and the
 * repository's files.
 */

const API = "/api/v1";
const DISALLOWED = "You can not import from disallowed hosts.";

/** An HTTP server on loopback that counts what reaches it; `answer` decides the reply. */
function countingServer(answer: (req: Request) => Response = () => new Response("{}", { status: 404 })) {
  let hits = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) => {
      hits++;
      return answer(req);
    },
  });
  afterAll(() => server.stop(true));
  return { port: server.port, hits: () => hits };
}

const migrate = (t: TestApp, token: string, body: Record<string, unknown>) => t.json("POST", `${API}/repos/migrate`, { token, body });

describe("with the default [migrations] settings", () => {
  const t = makeTestApp("", { listen: true });
  const counter = countingServer();

  test("a loopback source is refused before any connection is made", async () => {
    const alice = await t.user("alice");
    const token = t.token(alice);
    for (const service of ["gitea", "gogs", "git"]) {
      const r = await migrate(t, token, { clone_addr: `http://127.0.0.1:${counter.port}/alice/proj`, repo_name: "proj", service });
      expect([r.status, r.body.message]).toEqual([422, DISALLOWED]);
    }
    expect(counter.hits()).toBe(0);
    expect((await t.json("GET", `${API}/repos/alice/proj`, { token })).status).toBe(404);
  });

  test("a local path is refused", async () => {
    const bob = await t.user("bob");
    const r = await migrate(t, t.token(bob), { clone_addr: t.dir, repo_name: "local" });
    expect([r.status, r.body.message]).toEqual([422, "You are not allowed to import local repositories."]);
    const f = await migrate(t, t.token(bob), { clone_addr: `file://${t.dir}`, repo_name: "local" });
    expect(f.status).toBe(422);
  });
});

describe("[migrations] BLOCKED_DOMAINS and ALLOWED_DOMAINS", () => {
  test("a blocked host is refused though local networks are allowed", async () => {
    const t = makeTestApp("[migrations]\nALLOW_LOCALNETWORKS = true\nBLOCKED_DOMAINS = localhost\n", { listen: true });
    const counter = countingServer();
    const token = t.token(await t.user("alice"));
    const r = await migrate(t, token, { clone_addr: `http://localhost:${counter.port}/alice/proj`, repo_name: "proj", service: "gitea" });
    expect([r.status, r.body.message]).toEqual([422, DISALLOWED]);
    expect(counter.hits()).toBe(0);
  });

  describe("ALLOWED_DOMAINS = localhost", () => {
    const t = makeTestApp("[migrations]\nALLOWED_DOMAINS = localhost\n", { listen: true });
    // What the redirect points at: a loopback address the allow list does not name.
    const inner = countingServer(() => Response.json({ version: "1.25.0" }));
    const outer = countingServer((req) => Response.redirect(`http://127.0.0.1:${inner.port}${new URL(req.url).pathname}`, 302));

    test("an address the list does not match is refused without a connection", async () => {
      const token = t.token(await t.user("alice"));
      const r = await migrate(t, token, { clone_addr: `http://127.0.0.1:${inner.port}/alice/proj`, repo_name: "proj", service: "gitea" });
      expect([r.status, r.body.message]).toEqual([422, DISALLOWED]);
      expect(inner.hits()).toBe(0);
    });

    test("an allowed source redirecting to a loopback address is refused at the redirect", async () => {
      const token = t.token(await t.user("bob"));
      const r = await migrate(t, token, { clone_addr: `http://localhost:${outer.port}/alice/proj`, repo_name: "proj", service: "gitea" });
      expect([r.status, r.body.message]).toEqual([422, DISALLOWED]);
      // The allowed name was asked; the address it sent us to never was.
      expect(outer.hits()).toBeGreaterThan(0);
      expect(inner.hits()).toBe(0);
      expect((await t.json("GET", `${API}/repos/bob/proj`, { token })).status).toBe(404);
    });
  });
});

/** An instance that migrates from itself: a plain git source it serves on its own socket. */
async function selfSource() {
  const t = makeTestApp("[migrations]\nALLOW_LOCALNETWORKS = true\n[repository]\nMAX_CREATION_LIMIT = 1\n", { listen: true });
  const alice = await t.user("alice");
  const aliceToken = t.token(alice);
  const bobToken = t.token(await t.user("bob"));
  await t.ok("POST", `${API}/user/repos`, aliceToken, { name: "src", auto_init: true }, 201);
  return { t, aliceToken, bobToken, src: `${t.baseUrl}alice/src.git` };
}
const { t: owners, aliceToken, bobToken, src } = await selfSource();

describe("names, owners and limits", () => {
  const t = owners;

  test("an existing name is 409", async () => {
    // alice is at her limit too: the name is judged first.
    const c = await migrate(t, aliceToken, { clone_addr: src, repo_name: "src" });
    expect([c.status, c.body.message]).toEqual([409, "The repository with the same name already exists."]);
  });

  test("repo_owner naming nobody is 422", async () => {
    const r = await migrate(t, aliceToken, { clone_addr: src, repo_name: "x", repo_owner: "nobody" });
    expect([r.status, r.body.message]).toEqual([422, "user redirect does not exist [name: nobody]"]);
  });

  test("a repository may not be put into another user's account", async () => {
    const r = await migrate(t, bobToken, { clone_addr: src, repo_name: "into-alice", repo_owner: "alice" });
    expect(r.status).toBe(403);
    expect((await t.json("GET", `${API}/repos/alice/into-alice`, { token: aliceToken })).status).toBe(404);
  });

  test("an organization's owner may migrate into it; a stranger may not", async () => {
    await t.ok("POST", `${API}/orgs`, aliceToken, { username: "team" }, 201);
    const stranger = await migrate(t, bobToken, { clone_addr: src, repo_name: "tools", repo_owner: "team" });
    expect(stranger.status).toBe(403);
    const r = await migrate(t, aliceToken, { clone_addr: src, repo_name: "tools", repo_owner: "team" });
    expect([r.status, r.body.full_name]).toEqual([201, "team/tools"]);
  });

  test("MAX_CREATION_LIMIT reached is 422", async () => {
    const r = await migrate(t, aliceToken, { clone_addr: src, repo_name: "second" });
    expect([r.status, r.body.message]).toEqual([422, "You have already reached your limit of 1 repositories."]);
  });

  test("an unknown service is 422", async () => {
    const r = await migrate(t, aliceToken, { clone_addr: src, repo_name: "svc", repo_owner: "team", service: "sourceforge" });
    expect([r.status, r.body.message]).toEqual([422, "unknown migration service: sourceforge"]);
    const known = await migrate(t, aliceToken, { clone_addr: src, repo_name: "svc", repo_owner: "team", service: "onedev" });
    expect([known.status, known.body.message]).toEqual([422, "Migrate from onedev is not supported"]);
  });

  test("a mirror interval below [mirror] MIN_INTERVAL is 422", async () => {
    const r = await migrate(t, aliceToken, { clone_addr: src, repo_name: "fast", repo_owner: "team", mirror: true, mirror_interval: "1m" });
    expect([r.status, r.body.message]).toEqual([422, "interval 1m0s is set below Minimum Interval of 10m0s"]);
    expect((await t.json("GET", `${API}/repos/team/fast`, { token: aliceToken })).status).toBe(404);
  });
});

describe("switched off", () => {
  const t = makeTestApp("[migrations]\nALLOW_LOCALNETWORKS = true\n[repository]\nDISABLE_MIGRATIONS = true\n[mirror]\nDISABLE_NEW_PULL = true\n", {
    listen: true,
  });

  test("DISABLE_MIGRATIONS is 403, and DISABLE_NEW_PULL refuses a mirror", async () => {
    const alice = await t.user("alice", { admin: true });
    const token = t.token(alice);
    await t.ok("POST", `${API}/user/repos`, token, { name: "src", auto_init: true }, 201);
    const src = `${t.baseUrl}alice/src.git`;
    const r = await migrate(t, token, { clone_addr: src, repo_name: "copy" });
    expect([r.status, r.body.message]).toEqual([403, "the site administrator has disabled migrations"]);
    const m = await migrate(t, token, { clone_addr: src, repo_name: "copy", mirror: true });
    expect([m.status, m.body.message]).toEqual([403, "the site administrator has disabled the creation of new pull mirrors"]);
  });
});

describe("credentials stay secret", () => {
  const password = "Alice-Very-Secret-Passw0rd-7f3a";
  const t = makeTestApp("[migrations]\nALLOW_LOCALNETWORKS = true\n", { listen: true });

  /** Every file below `dir` whose bytes contain `secret`. */
  function filesContaining(dir: string, secret: string): string[] {
    const needle = Buffer.from(secret);
    const found: string[] = [];
    const walk = (d: string) => {
      for (const name of readdirSync(d)) {
        const p = join(d, name);
        const st = statSync(p);
        if (st.isDirectory()) walk(p);
        else if (st.isFile() && readFileSync(p).includes(needle)) found.push(p);
      }
    };
    if (existsSync(dir)) walk(dir);
    return found;
  }

  test("neither the token nor the password is in an answer, the database or the repository's files", async () => {
    const alice = await t.user("alice", { password });
    const aliceToken = t.token(alice);
    const bob = await t.user("bob");
    const bobToken = t.token(bob);
    await t.ok("POST", `${API}/user/repos`, aliceToken, { name: "hidden", auto_init: true, private: true }, 201);
    await t.ok("POST", `${API}/repos/alice/hidden/issues`, aliceToken, { title: "a secret issue" }, 201);
    const addr = `${t.baseUrl}alice/hidden`;

    const bodies: string[] = [];
    const withToken = await migrate(t, bobToken, { clone_addr: addr, repo_name: "by-token", service: "gitea", auth_token: aliceToken, issues: true });
    expect(withToken.status).toBe(201);
    const mirrored = await migrate(t, bobToken, {
      clone_addr: addr,
      repo_name: "by-password",
      service: "gitea",
      mirror: true,
      auth_username: "alice",
      auth_password: password,
    });
    expect(mirrored.status).toBe(201);
    expect(mirrored.body.mirror).toBe(true);
    // Credentials in the address itself are taken out of it too.
    const inAddress = await migrate(t, bobToken, {
      clone_addr: `${t.baseUrl.replace("://", `://alice:${password}@`)}alice/hidden.git`,
      repo_name: "by-address",
      mirror: true,
    });
    expect(inAddress.status).toBe(201);
    const failed = await migrate(t, bobToken, { clone_addr: `${addr}-gone`, repo_name: "gone", service: "gitea", auth_token: aliceToken });
    expect(failed.status).toBe(422);
    bodies.push(...[withToken, mirrored, inAddress, failed].map((r) => JSON.stringify(r.body)));
    for (const name of ["by-token", "by-password", "by-address"]) {
      bodies.push(JSON.stringify(await t.ok("GET", `${API}/repos/bob/${name}`, bobToken)));
    }
    expect((await t.ok("GET", `${API}/repos/bob/by-token/issues`, bobToken)).map((i: { title: string }) => i.title)).toEqual(["a secret issue"]);

    // The search finds what is there: the migrated issue's title is in the database.
    expect(filesContaining(t.dir, "a secret issue").length).toBeGreaterThan(0);
    for (const secret of [aliceToken, password]) {
      expect(bodies.filter((b) => b.includes(secret))).toEqual([]);
      // The database with its write-ahead log, and every repository's config, hooks and refs.
      const db = t.settings.database.path;
      expect([db, `${db}-wal`].filter((f) => existsSync(f) && readFileSync(f).includes(Buffer.from(secret)))).toEqual([]);
      expect(filesContaining(t.settings.server.appDataPath, secret)).toEqual([]);
      expect(filesContaining(t.dir, secret)).toEqual([]);
    }
  });
});
