import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { authUrl, gitOk, localRepo } from "../support/git.ts";
import { repoPath } from "../../src/git/repo-init.ts";
import { bitmapSettled } from "../../src/services/repo/housekeeping.ts";

// Any pack counts as large here; the default (32 MiB) would take a large repository to show it.
const t = makeTestApp("[repository]\nBITMAP_AFTER_PUSH_MIN_SIZE = 0\n", { listen: true });
const alice = await t.user("alice", { password: "alice-pass" });
const token = t.token(alice);

/** A working repository whose push sends a pack: git unpacks pushes of under 100 objects into loose ones. */
async function repoOfManyFiles(): Promise<string> {
  const work = await localRepo("main");
  for (let i = 0; i < 120; i++) await Bun.write(join(work, "files", `f${i}.txt`), `file ${i}\n`);
  await gitOk(["add", "files"], { cwd: work });
  await gitOk(["commit", "-q", "-m", "many files"], { cwd: work });
  return work;
}

async function pushNew(name: string, work: string): Promise<string> {
  await t.ok("POST", "/api/v1/user/repos", token, { name }, 201);
  await gitOk(["push", "-q", authUrl(t.baseUrl, `alice/${name}.git`, "alice", "alice-pass"), "main"], { cwd: work });
  return repoPath(t.settings.repository.root, "alice", name);
}

const packFiles = (gitDir: string) => readdirSync(join(gitDir, "objects", "pack")).sort();

describe("a reachability bitmap right after a push", () => {
  test("a push that brings a pack without a bitmap gets one at once, before the repack", async () => {
    const gitDir = await pushNew("big", await repoOfManyFiles());
    await bitmapSettled(t.env, gitDir);
    const files = packFiles(gitDir);
    expect(files.filter((f) => f.endsWith(".pack"))).toHaveLength(1);
    expect(files).toContain("multi-pack-index");
    expect(files.some((f) => /^multi-pack-index-[0-9a-f]+\.bitmap$/.test(f))).toBe(true);
    // It serves clones; git verifies the bitmap against the objects.
    const clone = join(mkdtempSync(join(tmpdir(), "hearth-clone-")), "c.git");
    await gitOk(["clone", "-q", "--bare", new URL("alice/big.git", t.baseUrl).href, clone]);
    expect((await gitOk(["--git-dir", clone, "rev-list", "--count", "main"])).trim()).toBe("2");
    await gitOk(["--git-dir", gitDir, "multi-pack-index", "verify"]);
  });

  test("the repack that follows leaves a single pack with a bitmap alone, and repacks once there are two", async () => {
    const work = await repoOfManyFiles();
    const gitDir = await pushNew("twice", work);
    await bitmapSettled(t.env, gitDir);
    const before = packFiles(gitDir);
    await t.env.housekeeper.runNow(gitDir);
    expect(packFiles(gitDir)).toEqual(before);

    for (let i = 0; i < 120; i++) await Bun.write(join(work, "more", `g${i}.txt`), `more ${i}\n`);
    await gitOk(["add", "more"], { cwd: work });
    await gitOk(["commit", "-q", "-m", "more files"], { cwd: work });
    await gitOk(["push", "-q", authUrl(t.baseUrl, "alice/twice.git", "alice", "alice-pass"), "main"], { cwd: work });
    await bitmapSettled(t.env, gitDir);
    await t.env.housekeeper.runNow(gitDir);
    const after = packFiles(gitDir);
    expect(after.filter((f) => f.endsWith(".pack"))).toHaveLength(1);
    expect(after.some((f) => /^pack-[0-9a-f]+\.bitmap$/.test(f))).toBe(true);
    expect(after).not.toContain("multi-pack-index");
    expect((await gitOk(["--git-dir", gitDir, "rev-list", "--count", "main"])).trim()).toBe("3");
  });

  test("a push of loose objects alone writes no bitmap", async () => {
    const gitDir = await pushNew("small", await localRepo("main"));
    await bitmapSettled(t.env, gitDir);
    expect(packFiles(gitDir).filter((f) => f.endsWith(".bitmap"))).toEqual([]);
  });
});

describe("with the default threshold", () => {
  const d = makeTestApp("", { listen: true });
  test("a small push waits for the repack", async () => {
    const bob = await d.user("bob", { password: "bob-pass" });
    await d.ok("POST", "/api/v1/user/repos", d.token(bob), { name: "r" }, 201);
    const work = await repoOfManyFiles();
    await gitOk(["push", "-q", authUrl(d.baseUrl, "bob/r.git", "bob", "bob-pass"), "main"], { cwd: work });
    const gitDir = repoPath(d.settings.repository.root, "bob", "r");
    await bitmapSettled(d.env, gitDir);
    expect(packFiles(gitDir).filter((f) => f.endsWith(".bitmap"))).toEqual([]);
  });
});
