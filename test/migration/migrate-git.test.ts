import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { gitOk, localRepo } from "../support/git.ts";
import { startGitDaemon } from "../support/git-daemon.ts";
import { reposWithStatus } from "../../src/models/repo-status.ts";
import { RepoStatus } from "../../src/db/schema/index.ts";

const local = makeTestApp("[migrations]\nALLOW_LOCALNETWORKS = true\n", { listen: true });
const alice = await local.user("alice");
const aliceToken = local.token(alice);

describe("POST /repos/migrate from plain git", () => {
  test("a git daemon's repository comes in with its branches and tags", async () => {
    const daemon = await startGitDaemon();
    afterAll(() => daemon.stop());
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
