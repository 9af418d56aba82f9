import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VERSION } from "../src/version.ts";
import { hearth, hearthOk, startWeb } from "./support/cli.ts";
import { loadAllCommands } from "../src/main.ts";

/**
 * The CLI as users run it: `bun src/main.ts ...` in a subprocess, with HEARTH_WORK_DIR pointing at
 * a temp dir. Spawns cost ~150ms each (plus argon2 for user commands), so independent commands run
 * in parallel and related assertions share one spawn.
 */

const tmp = mkdtempSync(join(tmpdir(), "hearth-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const ok = hearthOk;

/** Asserts a failure with exactly one `hearth: reason` line on stderr, and returns that reason. */
async function fails(workDir: string, args: string[], env?: Record<string, string>): Promise<{ code: number; reason: string }> {
  const r = await hearth(workDir, args, env);
  expect(r.code).not.toBe(0);
  expect(r.stdout).toBe("");
  expect(r.stderr).toMatch(/^hearth: [^\n]+\n$/);
  return { code: r.code, reason: r.stderr.slice("hearth: ".length, -1) };
}

let dirs = 0;
function workDir(): string {
  const d = join(tmp, `w${++dirs}`);
  mkdirSync(d, { recursive: true });
  return d;
}

describe("help, version, generate, usage errors", () => {
  test("the top-level help's names and descriptions are those of the commands' own modules", async () => {
    for (const { listed, loaded } of await loadAllCommands()) expect({ name: listed.name, description: listed.description }).toEqual({ name: loaded.name, description: loaded.description });
  });

  const dir = workDir();

  test("--version, --help, admin --help, admin user create --help", async () => {
    const [version, short, help, helpCmd, admin, create, bare] = await Promise.all([
      ok(dir, ["--version"]),
      ok(dir, ["-v"]),
      ok(dir, ["--help"]),
      ok(dir, ["help", "admin", "user"]),
      ok(dir, ["admin", "--help"]),
      ok(dir, ["admin", "user", "create", "--help"]),
      hearth(dir, ["admin"]),
    ]);
    expect(version).toBe(`hearth version ${VERSION.hearth} (Gitea API ${VERSION.api})\n`);
    expect(short).toBe(version);

    expect(help).toStartWith("hearth - ");
    for (const cmd of ["web", "admin", "generate"]) expect(help).toMatch(new RegExp(`^  ${cmd} +\\S`, "m"));

    expect(helpCmd).toStartWith("hearth admin user - Modify users");
    for (const cmd of ["create", "list", "change-password", "delete", "generate-access-token", "enroll-2fa"]) {
      expect(helpCmd).toMatch(new RegExp(`^  ${cmd} +\\S`, "m"));
    }

    expect(admin).toStartWith("hearth admin - ");
    expect(admin).toMatch(/^  user +Modify users$/m);

    expect(create).toStartWith("hearth admin user create - Create a new user in database");
    expect(create).toMatch(/^  --username value +username \(required\)$/m);
    expect(create).toMatch(/^  --email value +user email address \(required\)$/m);
    expect(create).toMatch(/^  --random-password +generate a random password for the user \(default: false\)$/m);
    expect(create).toContain("--must-change-password");
    expect(create).toContain("--config value");

    // A command group without its subcommand: help on stderr, exit 1.
    expect(bare.code).toBe(1);
    expect(bare.stdout).toBe("");
    expect(bare.stderr).toStartWith("hearth admin - ");
  });

  test("generate secret prints a bare secret of the kind asked for", async () => {
    const [key, key2, token, bogus, none] = await Promise.all([
      ok(dir, ["generate", "secret", "SECRET_KEY"]),
      ok(dir, ["generate", "secret", "SECRET_KEY"]),
      ok(dir, ["generate", "secret", "INTERNAL_TOKEN"]),
      fails(dir, ["generate", "secret", "BOGUS"]),
      fails(dir, ["generate", "secret"]),
    ]);
    expect(key).toMatch(/^[A-Za-z0-9_-]{64}$/); // no newline when stdout is not a terminal
    expect(key2).not.toBe(key);
    expect(token).toMatch(/^[A-Za-z0-9_-]{88}$/);
    expect(bogus).toEqual({ code: 2, reason: "usage: generate secret SECRET_KEY|INTERNAL_TOKEN" });
    expect(none.code).toBe(2);
  });

  test("unknown commands, flags and arguments exit 2 with a one-line reason", async () => {
    const [cmd, sub, flag, arg, badBool] = await Promise.all([
      fails(dir, ["bogus"]),
      fails(dir, ["admin", "user", "frobnicate"]),
      fails(dir, ["admin", "user", "list", "--frob"]),
      fails(dir, ["admin", "user", "list", "extra"]),
      fails(dir, ["admin", "user", "list", "--admin=maybe"]),
    ]);
    expect(cmd).toEqual({ code: 2, reason: 'unknown command "bogus" for "hearth"' });
    expect(sub).toEqual({ code: 2, reason: 'unknown command "frobnicate" for "hearth admin user"' });
    expect(flag.code).toBe(2);
    expect(flag.reason).toContain("--frob");
    expect(arg).toEqual({ code: 2, reason: 'unexpected argument "extra" for "hearth admin user list"' });
    expect(badBool.code).toBe(2);
    expect(badBool.reason).toContain("--admin");
  });
});

describe("admin user commands", () => {
  const dir = workDir();
  let db: Database;
  const row = (name: string) =>
    db
      .query<{ id: number; must_change_password: number; is_admin: number; passwd: string }, [string]>(
        "SELECT id, must_change_password, is_admin, passwd FROM user WHERE lower_name = ?",
      )
      .get(name.toLowerCase());

  beforeAll(async () => {
    // The first user: an admin, not made to change the password Gitea-style.
    const out = await ok(dir, ["admin", "user", "create", "--admin", "--username", "root", "--email", "root@example.com", "--password", "password123"]);
    expect(out).toBe("New user 'root' has been successfully created!\n");
    db = new Database(join(dir, "data", "hearth.db"), { readonly: true });
  });
  afterAll(() => db?.close());

  test("the first user is not made to change the password; later ones are unless told otherwise", async () => {
    expect(row("root")).toMatchObject({ must_change_password: 0, is_admin: 1 });
    const [alice, bob] = await Promise.all([
      ok(dir, ["admin", "user", "create", "--username", "alice", "--email", "alice@example.com", "--password", "password123"]),
      ok(dir, ["admin", "user", "create", "-u", "bob", "-e", "bob@example.com", "-p", "password123", "--must-change-password=false"]),
    ]);
    expect(alice).toBe("New user 'alice' has been successfully created!\n");
    expect(bob).toBe("New user 'bob' has been successfully created!\n");
    expect(row("alice")).toMatchObject({ must_change_password: 1, is_admin: 0 });
    expect(row("bob")).toMatchObject({ must_change_password: 0, is_admin: 0 });
  });

  test("the generated secrets are saved in the default config file", () => {
    const ini = readFileSync(join(dir, "custom", "conf", "app.ini"), "utf8");
    expect(ini).toMatch(/^\[security\]$/m);
    expect(ini).toMatch(/^SECRET_KEY = [A-Za-z0-9_-]{64}$/m);
    expect(ini).toMatch(/^INTERNAL_TOKEN = [A-Za-z0-9_-]{88}$/m);
  });

  test("create refuses a missing --email, a duplicate, a bad password or scope, without creating anything", async () => {
    const [noEmail, noPassword, both, dupName, dupEmail, short, badScope] = await Promise.all([
      fails(dir, ["admin", "user", "create", "--username", "carol", "--password", "password123"]),
      fails(dir, ["admin", "user", "create", "--username", "carol", "--email", "carol@example.com"]),
      fails(dir, ["admin", "user", "create", "--username", "carol", "--email", "carol@example.com", "--password", "password123", "--random-password"]),
      fails(dir, ["admin", "user", "create", "--username", "root", "--email", "other@example.com", "--password", "password123"]),
      fails(dir, ["admin", "user", "create", "--username", "carol", "--email", "ROOT@example.com", "--password", "password123"]),
      fails(dir, ["admin", "user", "create", "--username", "carol", "--email", "carol@example.com", "--password", "short"]),
      fails(dir, ["admin", "user", "create", "--username", "carol", "--email", "carol@example.com", "--password", "password123", "--access-token", "--access-token-scopes", "write:nonsense"]),
    ]);
    expect(noEmail).toEqual({ code: 2, reason: "flag --email is required" });
    expect(noPassword).toEqual({ code: 2, reason: "must set either --password or --random-password" });
    expect(both.code).toBe(2);
    expect(dupName).toEqual({ code: 1, reason: "user already exists [name: root]" });
    expect(dupEmail.reason).toContain("e-mail already in use");
    expect(short.code).toBe(1);
    expect(badScope.reason).toContain("invalid access token scope");
    expect(row("carol")).toBeNull();
  });

  test("--random-password prints the password; --access-token prints a token", async () => {
    const out = await ok(dir, ["admin", "user", "create", "--username", "dave", "--email", "dave@example.com", "--random-password", "--random-password-length", "16", "--access-token", "--access-token-scopes", "read:user"]);
    const lines = out.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^generated random password is '[A-Za-z0-9_-]{16}'$/);
    expect(lines[1]).toMatch(/^Access token was successfully created\.\.\. [0-9a-f]{40}$/);
    expect(lines[2]).toBe("New user 'dave' has been successfully created!");
    const pw = /'(.*)'/.exec(lines[0]!)![1]!;
    expect(await Bun.password.verify(pw, row("dave")!.passwd)).toBe(true);
    const scope = db.query<{ scope: string }, []>("SELECT scope FROM access_token WHERE name = 'gitea-admin'").get();
    expect(scope?.scope).toBe("read:user");
  });

  test("list shows every user, --admin only administrators", async () => {
    const [all, admins] = await Promise.all([ok(dir, ["admin", "user", "list"]), ok(dir, ["admin", "user", "list", "--admin"])]);
    const rows = all.trimEnd().split("\n").map((l) => l.split(/\s+/));
    expect(rows[0]).toEqual(["ID", "Username", "Email", "IsActive", "IsAdmin", "2FA"]);
    // alice and bob were created concurrently: their order is either; rows are sorted by id.
    expect(rows.slice(1).map((r) => r[1]).sort()).toEqual(["alice", "bob", "dave", "root"]);
    const ids = rows.slice(1).map((r) => Number(r[0]));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(rows[1]).toEqual([String(row("root")!.id), "root", "root@example.com", "true", "true", "false"]);
    const adminRows = admins.trimEnd().split("\n").slice(1).map((l) => l.split(/\s+/)[1]);
    expect(adminRows).toEqual(["root"]);
  });

  test("change-password sets the password and the must-change flag", async () => {
    const before = row("alice")!.passwd;
    const out = await ok(dir, ["admin", "user", "change-password", "--username", "alice", "--password", "new-password-1", "--must-change-password=false"]);
    expect(out).toBe("alice's password has been successfully updated!\n");
    const after = row("alice")!;
    expect(after.passwd).not.toBe(before);
    expect(await Bun.password.verify("new-password-1", after.passwd)).toBe(true);
    expect(after.must_change_password).toBe(0);
    const [again, missing, short] = await Promise.all([
      ok(dir, ["admin", "user", "change-password", "-u", "alice", "-p", "new-password-2"]),
      fails(dir, ["admin", "user", "change-password", "-u", "nobody", "-p", "new-password-2"]),
      fails(dir, ["admin", "user", "change-password", "-u", "alice", "-p", "x"]),
    ]);
    expect(again).toContain("successfully updated");
    expect(row("alice")!.must_change_password).toBe(1); // the default is true
    expect(missing).toEqual({ code: 1, reason: "user 'nobody' does not exist" });
    expect(short.reason).toContain("at least 8 characters");
  });

  test("generate-access-token: --raw prints only the token; scopes are checked", async () => {
    const [raw, scoped, bad, mixed, noUser] = await Promise.all([
      ok(dir, ["admin", "user", "generate-access-token", "--username", "root", "--raw"]),
      ok(dir, ["admin", "user", "generate-access-token", "-u", "root", "-t", "reader", "--scopes", "read:user"]),
      fails(dir, ["admin", "user", "generate-access-token", "-u", "root", "-t", "bad", "--scopes", "read:everything"]),
      fails(dir, ["admin", "user", "generate-access-token", "-u", "alice", "-t", "mixed", "--scopes", "read:user,nope"]),
      fails(dir, ["admin", "user", "generate-access-token", "-u", "nobody"]),
    ]);
    expect(raw).toMatch(/^[0-9a-f]{40}\n$/);
    expect(scoped).toMatch(/^Access token was successfully created: [0-9a-f]{40}\n$/);
    const scopes = db
      .query<{ name: string; scope: string }, []>("SELECT name, scope FROM access_token WHERE uid = 1 ORDER BY name")
      .all();
    expect(scopes).toEqual([
      { name: "gitea-admin", scope: "all" },
      { name: "reader", scope: "read:user" },
    ]);
    expect(bad.reason).toContain("invalid access token scope");
    expect(mixed.reason).toContain("invalid access token scope");
    expect(noUser.reason).toBe("user 'nobody' does not exist");
    // The default token name is taken now.
    expect((await fails(dir, ["admin", "user", "generate-access-token", "-u", "root"])).reason).toBe(
      "access token name has been used already",
    );
  });

  test("enroll-2fa --raw prints a base32 secret; list shows it; disable-2fa removes it", async () => {
    const secret = await ok(dir, ["admin", "user", "enroll-2fa", "--username", "bob", "--raw"]);
    expect(secret).toMatch(/^[A-Z2-7]{32}\n$/);
    const list = await ok(dir, ["admin", "user", "list"]);
    expect(list).toMatch(/^\d+ +bob +bob@example\.com +true +false +true$/m);
    const full = await ok(dir, ["admin", "user", "enroll-2fa", "--username", "bob"]);
    expect(full).toMatch(/^uri: otpauth:\/\/totp\//m);
    expect(await ok(dir, ["admin", "user", "disable-2fa", "-u", "bob"])).toBe("two-factor authentication removed for bob\n");
  });

  test("delete by username, email or id; a missing user or no selector fails", async () => {
    expect(await ok(dir, ["admin", "user", "delete", "--username", "bob"])).toBe("");
    expect(row("bob")).toBeNull();
    const daveId = row("dave")!.id;
    const [byEmail, mismatch, again, none, badId] = await Promise.all([
      ok(dir, ["admin", "user", "delete", "--email", "alice@example.com"]),
      fails(dir, ["admin", "user", "delete", "--id", String(daveId + 100), "--username", "dave"]),
      fails(dir, ["admin", "user", "delete", "--username", "bob"]),
      fails(dir, ["admin", "user", "delete"]),
      fails(dir, ["admin", "user", "delete", "--id", "abc"]),
    ]);
    expect(byEmail).toBe("");
    expect(row("alice")).toBeNull();
    expect(mismatch.reason).toBe(`the user with id ${daveId + 100} is not dave`);
    expect(row("dave")).not.toBeNull();
    expect(again).toEqual({ code: 1, reason: "user 'bob' does not exist" });
    expect(none.code).toBe(2);
    expect(badId).toEqual({ code: 2, reason: 'invalid --id "abc"' });
    await ok(dir, ["admin", "user", "delete", "--id", String(daveId)]);
    expect(row("dave")).toBeNull();
  });
});

describe("actions generate-runner-token", () => {
  test("a registration token for the instance, an owner or a repository, kept until a runner uses it", async () => {
    const dir = workDir();
    await ok(dir, ["admin", "user", "create", "--admin", "--username", "root", "--email", "root@example.com", "--password", "password123"]);
    const site = await ok(dir, ["actions", "generate-runner-token"]);
    const [again, owner, missing, bad] = await Promise.all([
      ok(dir, ["actions", "generate-runner-token", "--scope", ""]),
      ok(dir, ["actions", "generate-runner-token", "-s", "root"]),
      fails(dir, ["actions", "generate-runner-token", "-s", "nobody/nothing"]),
      fails(dir, ["actions", "generate-runner-token", "-s", "a/b/c"]),
    ]);
    expect(site).toMatch(/^[0-9a-f]{40}\n$/);
    // The same unused token until a runner registers with it.
    expect(again).toBe(site);
    expect(owner).toMatch(/^[0-9a-f]{40}\n$/);
    expect(owner).not.toBe(site);
    expect(missing.code).toBe(1);
    expect(missing.reason).toContain("nobody");
    expect(bad.code).toBe(1);
    const db = new Database(join(dir, "data", "hearth.db"), { readonly: true });
    try {
      const rows = db.query<{ owner_id: number; repo_id: number }, []>("SELECT owner_id, repo_id FROM action_runner_token ORDER BY id").all();
      expect(rows).toEqual([
        { owner_id: 0, repo_id: 0 },
        { owner_id: 1, repo_id: 0 },
      ]);
    } finally {
      db.close();
    }
  });
});

describe("web", () => {
  test("serves the API on a real socket, works with users made by the CLI, and exits 0 on SIGTERM", async () => {
    const dir = workDir();
    const config = join(dir, "hearth.ini");
    writeFileSync(config, "; test config\nAPP_NAME = e2e\n[server]\nHTTP_ADDR = 127.0.0.1\n[log]\nLEVEL = info\n");
    const web = await startWeb(dir, config);
    const { proc } = web;
    try {
      const m = /listening url=http:\/\/localhost:(\d+)\/ address=127\.0\.0\.1:(\d+)/.exec(web.log());
      expect(m?.[1]).toBe(String(web.port));
      const port = web.port;
      expect(port).toBeGreaterThan(0);

      // web wrote the generated secrets into the --config file, keeping what was there.
      const ini = readFileSync(config, "utf8");
      expect(ini).toStartWith(`WORK_PATH = ${dir}\n; test config\nAPP_NAME = e2e\n[server]\nHTTP_ADDR = 127.0.0.1\n`);
      expect(ini).toMatch(/^SECRET_KEY = \S{64}$/m);

      await ok(dir, ["admin", "user", "create", "--admin", "-u", "Ada", "-e", "ada@example.com", "-p", "password123", "--config", config]);
      const token = (await ok(dir, ["admin", "user", "generate-access-token", "-u", "Ada", "--raw", "--scopes", "read:user", "-c", config])).trim();
      expect(token).toMatch(/^[0-9a-f]{40}$/);

      const base = `http://127.0.0.1:${port}`;
      const me = await fetch(`${base}/api/v1/user`, { headers: { Authorization: `token ${token}` } });
      expect(me.status).toBe(200);
      const body = (await me.json()) as { login: string; email: string; is_admin: boolean };
      expect(body.login).toBe("Ada");
      expect(body.email).toBe("ada@example.com");
      expect(body.is_admin).toBe(true);
      const bad = await fetch(`${base}/api/v1/user`, { headers: { Authorization: `token ${"0".repeat(40)}` } });
      expect(bad.status).toBe(401);

      proc.kill("SIGTERM");
      expect(await proc.exited).toBe(0);
      await web.drained;
      expect(web.log()).toContain("shutting down");
    } finally {
      proc.kill("SIGKILL");
    }
  });

  test("a bad configuration value stops web with a message naming the key", async () => {
    const dir = workDir();
    const config = join(dir, "bad.ini");
    writeFileSync(config, "[server]\nHTTP_PORT = abc\n");
    const [fromFile, fromEnv, missing, badPort] = await Promise.all([
      fails(dir, ["web", "--config", config]),
      fails(dir, ["web"], { HEARTH__SERVER__HTTP_PORT: "99999" }),
      fails(dir, ["web", "--config", join(dir, "nope.ini")]),
      fails(dir, ["web", "--port", "http"]),
    ]);
    expect(fromFile).toEqual({ code: 1, reason: 'invalid configuration: [server] HTTP_PORT = "abc": expected a whole number' });
    expect(fromEnv).toEqual({ code: 1, reason: 'invalid configuration: [server] HTTP_PORT = "99999": must be at most 65535' });
    expect(missing).toEqual({ code: 1, reason: `config file ${join(dir, "nope.ini")} does not exist` });
    expect(badPort.code).toBe(2);
    expect(badPort.reason).toContain("--port");
  });
});
