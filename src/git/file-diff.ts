import { runGit, GitError } from "./exec.ts";
import { isObjectId } from "./objects.ts";

/** Gitea's GetRepoRawDiffForFile (RawDiffNormal): `git diff -M from to -- path`, as text. */
export async function rawFileDiff(gitDir: string, from: string, to: string, path: string): Promise<string> {
  const args = ["diff", "-M", from, to, "--", path];
  if (!isObjectId(from) || !isObjectId(to)) throw new GitError(args, 128, "revisions must be object ids");
  const r = await runGit(args, { gitDir });
  if (r.code !== 0) throw new GitError(args, r.code, r.stderr);
  return r.stdout.toString("utf8");
}

/**
 * Gitea's checkIfPRContentChanged: whether a push changed what the request proposes, asked as
 * Gitea asks it (`git diff --name-only -z <new> <old> <merge base>`, a combined diff that lists
 * the paths where the new head differs from both the old head and the merge base).
 */
export async function pullContentChanged(gitDir: string, newHead: string, oldHead: string, mergeBase: string): Promise<boolean> {
  const args = ["diff", "--name-only", "-z", newHead, oldHead, mergeBase];
  if (![newHead, oldHead, mergeBase].every(isObjectId)) throw new GitError(args, 128, "revisions must be object ids");
  const r = await runGit(args, { gitDir });
  if (r.code !== 0) throw new GitError(args, r.code, r.stderr);
  return r.stdout.length > 0;
}
