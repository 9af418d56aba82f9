import { runGit, GitError } from "./exec.ts";
import { readRef } from "./pull-refs.ts";
import { deleteRefsUnder } from "./refs-write.ts";

/**
 * The objects of a fork's base branch, brought into the fork's own object store so a fast-forward
 * or a merge commit there is complete. They land under a scratch ref that `withUpstreamBranch`
 * removes again, so the fork never shows a ref the user did not make.
 */
const SCRATCH_PREFIX = "refs/hearth/upstream/";

let counter = 0;

/**
 * Fetches `branch` of the repository at `fromGitDir` into `gitDir` and runs `use` with the fetched
 * commit; the scratch ref is deleted afterwards whatever `use` does. The branch name comes from the
 * base's branch table or is checked by the caller; `:` and a leading `-` are refused here anyway.
 */
export async function withUpstreamBranch<T>(gitDir: string, fromGitDir: string, branch: string, use: (commit: string) => Promise<T>): Promise<T> {
  if (branch.startsWith("-") || branch.includes(":") || branch.includes("\0")) {
    throw new GitError(["fetch"], 128, `refusing to fetch ${branch}`);
  }
  // A per-process counter and the pid keep two concurrent fetches into one fork apart.
  const prefix = `${SCRATCH_PREFIX}${process.pid}-${++counter}/`;
  const ref = `${prefix}base`;
  const args = ["fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--end-of-options", fromGitDir, `+refs/heads/${branch}:${ref}`];
  try {
    const r = await runGit(args, { gitDir, timeoutMs: 10 * 60_000 });
    if (r.code !== 0) throw new GitError(args, r.code, r.stderr);
    const sha = await readRef(gitDir, ref);
    if (!sha) throw new GitError(args, 128, `${ref} missing after fetch`);
    return await use(sha);
  } finally {
    await deleteRefsUnder(gitDir, prefix);
  }
}
