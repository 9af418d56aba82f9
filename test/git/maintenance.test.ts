import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { authUrl, gitOk, localRepo } from "../support/git.ts";
import { regenerateHooks, repackAll } from "../../src/services/repo/maintenance.ts";
import { repoPath } from "../../src/git/repo-init.ts";

const t = makeTestApp("", { listen: true });
const alice = await t.user("alice", { password: "alice-pass" });
const token = t.token(alice);

describe("repository maintenance", () => {
  test("regenerate hooks rewrites every repository's hooks to call this hearth", async () => {
    await t.json("POST", "/api/v1/user/repos", { token, body: { name: "one", auto_init: true } });
    const hook = join(repoPath(t.settings.repository.root, "alice", "one"), "hooks", "pre-receive");
    const original = readFileSync(hook, "utf8");
    expect(original).toContain("hook pre-receive");
    writeFileSync(hook, "#!/bin/sh\nexec /old/place/hearth hook pre-receive\n");
    expect(await regenerateHooks(t.env)).toBe(1);
    expect(readFileSync(hook, "utf8")).toBe(original);
  });

  test("the repack pass writes a reachability bitmap for pushed repositories", async () => {
    await t.json("POST", "/api/v1/user/repos", { token, body: { name: "pushed" } });
    const work = await localRepo("main");
    await gitOk(["push", "-q", authUrl(t.baseUrl, "alice/pushed.git", "alice", "alice-pass"), "main"], { cwd: work });
    const packDir = join(repoPath(t.settings.repository.root, "alice", "pushed"), "objects", "pack");
    await repackAll(t.env);
    expect(readdirSync(packDir).some((f) => f.endsWith(".bitmap"))).toBe(true);
    // The repository still serves clones afterwards.
    await gitOk(["ls-remote", new URL("alice/pushed.git", t.baseUrl).href]);
  });
});
