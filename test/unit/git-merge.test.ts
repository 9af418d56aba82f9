import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gitOk } from "../support/git.ts";
import { cleanMessage, commitTree, mergeTrees, MergeConflictError, rebaseCommits, UnrelatedHistoriesError } from "../../src/git/merge.ts";
import { readCommit } from "../../src/git/objects.ts";
import { isAncestor } from "../../src/git/reflist.ts";

const doer = { name: "Merger", email: "merger@example.com", unix: 1_700_000_000 };

/** A work repository (non-bare: the engine only needs its object store) with helpers to commit files on branches. */
async function workRepo() {
  const dir = mkdtempSync(join(tmpdir(), "hearth-merge-"));
  await gitOk(["init", "-q", "-b", "main", dir]);
  const run = (args: string[]) => gitOk(args, { cwd: dir });
  const commit = async (files: Record<string, string>, message: string) => {
    for (const [name, content] of Object.entries(files)) await Bun.write(join(dir, name), content);
    await run(["add", "-A"]);
    await run(["commit", "-q", "-m", message]);
    return (await run(["rev-parse", "HEAD"])).trim();
  };
  return { gitDir: join(dir, ".git"), run, commit };
}

describe("git merge engine", () => {
  test("merges two branches into a tree; conflicts name their files", async () => {
    const r = await workRepo();
    await r.commit({ "a.txt": "a\n", "b.txt": "b\n" }, "base");
    await r.run(["checkout", "-q", "-b", "feature"]);
    const feature = await r.commit({ "a.txt": "a feature\n" }, "feature edits a");
    await r.run(["checkout", "-q", "main"]);
    const main = await r.commit({ "b.txt": "b main\n" }, "main edits b");
    const clean = await mergeTrees(r.gitDir, main, feature);
    expect(clean.conflicted).toEqual([]);
    const merged = await commitTree(r.gitDir, { tree: clean.tree, parents: [main, feature], message: "Merge  \n\n\nbody\n\n", author: doer, committer: doer });
    expect(await r.run(["show", `${merged}:a.txt`])).toBe("a feature\n");
    expect(await r.run(["show", `${merged}:b.txt`])).toBe("b main\n");
    const c = await readCommit(r.gitDir, merged);
    expect(c?.parents).toEqual([main, feature]);
    expect(c?.message).toBe("Merge\n\nbody\n");
    expect(c?.committer.email).toBe("merger@example.com");

    const clash = await r.commit({ "a.txt": "a main\n" }, "main edits a too");
    const conflict = await mergeTrees(r.gitDir, clash, feature);
    expect(conflict.conflicted).toEqual(["a.txt"]);
  });

  test("unrelated histories are refused", async () => {
    const r = await workRepo();
    const one = await r.commit({ "x.txt": "x\n" }, "one");
    await r.run(["checkout", "-q", "--orphan", "other"]);
    await r.run(["rm", "-q", "-rf", "."]);
    const two = await r.commit({ "y.txt": "y\n" }, "two");
    await expect(mergeTrees(r.gitDir, one, two)).rejects.toBeInstanceOf(UnrelatedHistoriesError);
    await expect(rebaseCommits(r.gitDir, one, two, doer)).rejects.toBeInstanceOf(UnrelatedHistoriesError);
  });

  test("rebase replays commits with their authors, skips applied patches, keeps a descendant as is", async () => {
    const r = await workRepo();
    await r.commit({ "a.txt": "1\n2\n3\n" }, "base");
    await r.run(["checkout", "-q", "-b", "feature"]);
    const f1 = await r.commit({ "a.txt": "1 feature\n2\n3\n" }, "feature one");
    const f2 = await r.commit({ "c.txt": "c\n" }, "feature two");
    expect(await rebaseCommits(r.gitDir, f1, f2, doer)).toBe(f2);
    expect(await isAncestor(r.gitDir, f1, f2)).toBe(true);

    await r.run(["checkout", "-q", "main"]);
    await r.run(["cherry-pick", f2]);
    const main = await r.commit({ "a.txt": "1\n2\n3 main\n" }, "main edits line 3");
    const tip = await rebaseCommits(r.gitDir, main, f2, doer);
    expect(await isAncestor(r.gitDir, main, tip)).toBe(true);
    expect(await r.run(["show", `${tip}:a.txt`])).toBe("1 feature\n2\n3 main\n");
    // "feature two" was already cherry-picked into main: only "feature one" is replayed.
    const log = (await r.run(["log", "--format=%s|%an|%cn", `${main}..${tip}`])).trim().split("\n");
    expect(log).toEqual(["feature one|Test|Merger"]);
  });

  test("a rebase conflict names the commit that does not apply", async () => {
    const r = await workRepo();
    await r.commit({ "a.txt": "a\n" }, "base");
    await r.run(["checkout", "-q", "-b", "feature"]);
    const f1 = await r.commit({ "a.txt": "feature\n" }, "feature");
    await r.run(["checkout", "-q", "main"]);
    const main = await r.commit({ "a.txt": "main\n" }, "main");
    const err = await rebaseCommits(r.gitDir, main, f1, doer).catch((e) => e);
    expect(err).toBeInstanceOf(MergeConflictError);
    expect((err as MergeConflictError).commit).toBe(f1);
    expect((err as MergeConflictError).files).toEqual(["a.txt"]);
  });

  test("messages are cleaned like git commit does", () => {
    expect(cleanMessage("\n\ntitle  \n\n\n\nbody\t\n\n")).toBe("title\n\nbody\n");
    expect(cleanMessage("   \n")).toBe("");
  });
});
