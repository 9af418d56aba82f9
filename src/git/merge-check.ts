import { runGit, GitError } from "./exec.ts";
import { isObjectId } from "./objects.ts";

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
