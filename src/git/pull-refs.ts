import { runGit, GitError } from "./exec.ts";
import { isObjectId } from "./objects.ts";

/**
 * A pull request's head as the base repository keeps it: `refs/pull/{index}/head`, as Gitea does,
 * so the request's commits stay reachable in the base repository even when they come from a fork
 * or the head branch is deleted.
 */
export const pullHeadRef = (index: number) => `refs/pull/${index}/head`;

/** The commit a ref points at, or undefined when it does not exist. */
export async function readRef(gitDir: string, ref: string): Promise<string | undefined> {
  if (!ref.startsWith("refs/")) return undefined;
  const r = await runGit(["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`], { gitDir });
  const sha = r.stdout.toString("utf8").trim();
  return r.code === 0 && isObjectId(sha) ? sha : undefined;
}

/** Points `ref` at `sha` whatever it held before (the head of a pull request follows its branch, force pushes included). */
export async function setRef(gitDir: string, ref: string, sha: string): Promise<void> {
  if (!/^refs\/(?:pull\/\d+\/head|hearth\/update\/\d+\/base)$/.test(ref) || !isObjectId(sha)) throw new GitError(["update-ref"], 128, `refusing to set ${ref}`);
  const r = await runGit(["update-ref", "--stdin"], { gitDir, input: `update ${ref} ${sha}\n` });
  if (r.code !== 0) throw new GitError(["update-ref"], r.code, r.stderr);
}

/**
 * Copies branch `branch` of another repository on this disk (a fork's) into `ref` of `gitDir` (a
 * pull request's head, or the scratch ref a branch update merges from),
 * objects included: `git fetch` from the other repository's path, forced, without tags. Returns
 * the commit fetched. The branch name comes from the branch table, so it is a valid ref name (no
 * `:` or leading `-`).
 */
export async function fetchBranchInto(gitDir: string, fromGitDir: string, branch: string, ref: string): Promise<string> {
  if (!/^refs\/(?:pull\/\d+\/head|hearth\/update\/\d+\/base)$/.test(ref) || branch.startsWith("-") || branch.includes(":")) {
    throw new GitError(["fetch"], 128, `refusing to fetch ${branch} into ${ref}`);
  }
  const args = ["fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--end-of-options", fromGitDir, `+refs/heads/${branch}:${ref}`];
  const r = await runGit(args, { gitDir, timeoutMs: 10 * 60_000 });
  if (r.code !== 0) throw new GitError(args, r.code, r.stderr);
  const sha = await readRef(gitDir, ref);
  if (!sha) throw new GitError(args, 128, `${ref} missing after fetch`);
  return sha;
}

/** The heads the base repository keeps for several pull requests, by number, in one git call. */
export async function readPullHeads(gitDir: string, indexes: number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  if (indexes.length === 0) return out;
  const r = await runGit(["for-each-ref", "--format=%(refname) %(objectname)", "--", ...indexes.map(pullHeadRef)], { gitDir });
  for (const line of r.stdout.toString("utf8").split("\n")) {
    const m = /^refs\/pull\/(\d+)\/head ([0-9a-f]{40,64})$/.exec(line);
    if (m) out.set(Number(m[1]), m[2]!);
  }
  return out;
}
