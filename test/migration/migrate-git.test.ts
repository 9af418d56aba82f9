import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { gitOk, localRepo } from "../support/git.ts";
import { reposWithStatus } from "../../src/models/repo.ts";
import { RepoStatus } from "../../src/db/schema/index.ts";

/** A plain git source: `git daemon` serving a directory on loopback. */
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
  // Ready once it answers an ls-remote (of a repository that does not exist yet: any answer will do).
  for (let i = 0; i < 100; i++) {
    const probe = Bun.spawnSync(["git", "ls-remote", `git://127.0.0.1:${port}/none`], { stderr: "pipe" });
    if (!probe.stderr.toString().includes("Connection refused")) break;
    await Bun.sleep(100);
  }
  return { base, url: `git://127.0.0.1:${port}/` };
}

const local = makeTestApp("[migrations]\nALLOW_LOCALNETWORKS = true\n", { listen: true });
const alice = await local.user("alice");
const aliceToken = local.token(alice);

describe("POST /repos/migrate from plain git", () => {
  test("a git daemon's repository comes in with its branches and tags", async () => {
    const daemon = await gitDaemon();
    const work = await localRepo("main");
    await gitOk(["checkout", "-q", "-b", "dev"], { cwd: work });
    await Bun.write(join(work, "dev.txt"), "dev\n");
    await gitOk(["add", "."], { cwd: work });
    await gitOk(["commit", "-qm", "dev"], { cwd: work });
    await gitOk(["tag", "v1"], { cwd: work });
    await gitOk(["clone", "-q", "--bare", work, join(daemon.base, "proj.git")]);

    const r = await local.json("POST", "/api/v1/repos/migrate", {
      token: aliceToken,
      body: { clone_addr: `${daemon.url}proj.git`, repo_name: "proj", service: "git" },
    });
    expect(r.status).toBe(201);
    expect(r.body.full_name).toBe("alice/proj");
    expect(r.body.mirror).toBe(false);
    expect(r.body.original_url).toBe(`${daemon.url}proj.git`);
    const branches = await local.ok("GET", "/api/v1/repos/alice/proj/branches", aliceToken);
    expect(branches.map((b: { name: string }) => b.name).sort()).toEqual(["dev", "main"]);
    const tags = await local.ok("GET", "/api/v1/repos/alice/proj/tags", aliceToken);
    expect(tags.map((b: { name: string }) => b.name)).toEqual(["v1"]);
    // Marked ready with its rows: the next start must not take it for a migration cut short.
    expect(reposWithStatus(local.env.db, RepoStatus.BeingMigrated)).toEqual([]);
  });
});
