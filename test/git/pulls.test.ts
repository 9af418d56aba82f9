import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gitOk } from "../support/git.ts";
import { divergingCommits, treeOf } from "../../src/git/merge-check.ts";
import { mergeTrees } from "../../src/git/merge.ts";

const testMerge = (gitDir: string, base: string, head: string) => mergeTrees(gitDir, base, head, { allowUnrelated: true });
import { changedPaths, diffOrPatch } from "../../src/git/pull-diff.ts";
import { fetchBranchInto, readRef, setRef } from "../../src/git/pull-refs.ts";

const root = mkdtempSync(join(tmpdir(), "hearth-pullgit-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const work = join(root, "work");
await gitOk(["init", "-q", "-b", "main", work]);
const sha = async (rev: string, cwd = work) => (await gitOk(["rev-parse", rev], { cwd })).trim();
async function commit(files: Record<string, string | null>, message: string) {
  for (const [name, content] of Object.entries(files)) {
    if (content === null) await gitOk(["rm", "-q", name], { cwd: work });
    else {
      await Bun.write(join(work, name), content);
      await gitOk(["add", name], { cwd: work });
    }
  }
  await gitOk(["commit", "-q", "-m", message], { cwd: work });
}

await commit({ "a.txt": "1\n2\n3\n4\n5\n6\n", "b.txt": "b\n" }, "root");
await gitOk(["checkout", "-q", "-b", "topic"], { cwd: work });
await commit({ "a.txt": "1\nTWO\n3\n4\n5\n6\n", "c.txt": "c\n" }, "topic 1");
await commit({ "b.txt": null }, "topic 2");
await gitOk(["checkout", "-q", "-b", "other", "main"], { cwd: work });
await commit({ "a.txt": "1\nzwei\n3\n4\n5\n6\n" }, "other");
await gitOk(["checkout", "-q", "main"], { cwd: work });
await commit({ "a.txt": "1\n2\n3\n4\n5\nSIX\n" }, "main 2");
const gitDir = join(work, ".git");

describe("merge-check", () => {
  test("a clean merge has no conflicts and a tree different from the base's", async () => {
    const r = await testMerge(gitDir, await sha("main"), await sha("topic"));
    expect(r.conflicted).toEqual([]);
    expect(r.tree).toMatch(/^[0-9a-f]{40}$/);
    expect(r.tree).not.toBe(await treeOf(gitDir, await sha("main")));
  });

  test("conflicting changes name the conflicted files", async () => {
    const r = await testMerge(gitDir, await sha("topic"), await sha("other"));
    expect(r.conflicted).toEqual(["a.txt"]);
  });

  test("merging an ancestor yields the base's own tree", async () => {
    const r = await testMerge(gitDir, await sha("main"), await sha("main~1"));
    expect(r.tree).toBe((await treeOf(gitDir, await sha("main")))!);
  });

  test("commits ahead and behind", async () => {
    expect(await divergingCommits(gitDir, await sha("main"), await sha("topic"))).toEqual({ ahead: 2, behind: 1 });
  });
});

describe("pull-diff", () => {
  test("changed paths with statuses and line counts", async () => {
    const files = await changedPaths(gitDir, await sha("main~1"), await sha("topic"));
    expect(files).toEqual([
      { status: "M", path: "a.txt", oldPath: undefined, additions: 1, deletions: 1 },
      { status: "D", path: "b.txt", oldPath: undefined, additions: 0, deletions: 1 },
      { status: "A", path: "c.txt", oldPath: undefined, additions: 1, deletions: 0 },
    ]);
  });

  test("diff and patch text", async () => {
    const diff = (await diffOrPatch(gitDir, await sha("main~1"), await sha("topic"), false, false)).toString();
    expect(diff).toContain("+TWO");
    const patch = (await diffOrPatch(gitDir, await sha("main~1"), await sha("topic"), true, false)).toString();
    expect(patch).toContain("Subject: [PATCH 1/2] topic 1");
  });
});

describe("pull-refs", () => {
  test("fetches a branch of another repository into refs/pull/N/head and moves it", async () => {
    const bare = join(root, "base.git");
    await gitOk(["init", "-q", "--bare", bare]);
    const head = await fetchBranchInto(bare, gitDir, "topic", "refs/pull/4/head");
    expect(head).toBe(await sha("topic"));
    expect(await readRef(bare, "refs/pull/4/head")).toBe(head);
    await fetchBranchInto(bare, gitDir, "other", "refs/pull/4/head");
    expect(await readRef(bare, "refs/pull/4/head")).toBe(await sha("other"));
    await setRef(gitDir, "refs/pull/1/head", await sha("topic~1"));
    expect(await readRef(gitDir, "refs/pull/1/head")).toBe(await sha("topic~1"));
    expect(await readRef(gitDir, "refs/pull/9/head")).toBeUndefined();
    await expect(setRef(gitDir, "refs/heads/main", await sha("topic"))).rejects.toThrow();
    await expect(fetchBranchInto(bare, gitDir, "-x", "refs/pull/4/head")).rejects.toThrow();
  });
});
