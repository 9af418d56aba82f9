import { runGit, GitError } from "./exec.ts";
import { isObjectId } from "./objects.ts";

/**
 * Whether a pull request's head merges cleanly into its base, without a work tree:
 * `git merge-tree --write-tree` (git >= 2.38) merges the two commits in memory and writes the
 * resulting tree (with conflict markers where files conflict). Exit 0 is a clean merge, 1 a merge
 * with conflicts; anything else is an error.
 */
export interface MergeTestResult {
  /** Paths with conflicts, each once, in git's order; empty for a clean merge. */
  conflicted: string[];
  /** The tree the merge produces (for a conflicted merge: with conflict markers). */
  treeId: string;
}

/**
 * Merges `headSha` into `baseSha` in memory. Histories without a common ancestor merge against
 * the empty tree (files present on both sides with different contents conflict), so a pull request
 * between unrelated branches is reported as conflicting rather than failing.
 */
export async function testMerge(gitDir: string, baseSha: string, headSha: string): Promise<MergeTestResult> {
  if (!isObjectId(baseSha) || !isObjectId(headSha)) throw new GitError(["merge-tree"], 128, "revisions must be object ids");
  const args = ["merge-tree", "--write-tree", "--name-only", "--no-messages", "-z", "--allow-unrelated-histories", baseSha, headSha];
  const r = await runGit(args, { gitDir });
  if (r.code !== 0 && r.code !== 1) throw new GitError(args, r.code, r.stderr);
  const [treeId = "", ...names] = r.stdout.toString("utf8").split("\0");
  if (!isObjectId(treeId)) throw new GitError(args, r.code, `unexpected merge-tree output: ${treeId.slice(0, 80)}`);
  const conflicted = r.code === 1 ? [...new Set(names.filter(Boolean))] : [];
  return { conflicted, treeId };
}

/** The tree id of a commit. */
export async function treeOf(gitDir: string, commit: string): Promise<string | undefined> {
  if (!isObjectId(commit)) return undefined;
  const r = await runGit(["rev-parse", "--verify", "--end-of-options", `${commit}^{tree}`], { gitDir });
  const id = r.stdout.toString("utf8").trim();
  return r.code === 0 && isObjectId(id) ? id : undefined;
}

/**
 * Gitea's GetDivergingCommits: how many commits `head` has that `base` lacks (ahead) and the
 * reverse (behind), with one `git rev-list --left-right --count base...head`.
 */
export async function divergingCommits(gitDir: string, base: string, head: string): Promise<{ ahead: number; behind: number }> {
  if (!isObjectId(base) || !isObjectId(head)) return { ahead: 0, behind: 0 };
  const args = ["rev-list", "--left-right", "--count", `${base}...${head}`];
  const r = await runGit(args, { gitDir });
  if (r.code !== 0) throw new GitError(args, r.code, r.stderr);
  const [left, right] = r.stdout.toString("utf8").trim().split(/\s+/);
  return { ahead: Number(right) || 0, behind: Number(left) || 0 };
}
