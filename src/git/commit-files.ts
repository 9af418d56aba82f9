import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { git, runGit } from "./exec.ts";

export interface FileWrite {
  path: string;
  content: Uint8Array | string;
  executable?: boolean;
}

export interface Signature {
  name: string;
  email: string;
  /** Unix seconds. */
  unix: number;
}

export interface CommitFilesInput {
  /** Branch to move; created when `parent` is undefined and it does not exist. */
  branch: string;
  /** The commit the change applies to; undefined for the first commit of an empty repository. */
  parent: string | undefined;
  writes: FileWrite[];
  deletes: string[];
  message: string;
  author: Signature;
  committer: Signature;
}

export class RefMovedError extends Error {
  constructor(readonly ref: string) {
    super(`${ref} moved while the commit was being made`);
  }
}

const ZERO = "0000000000000000000000000000000000000000";

function sigEnv(prefix: "AUTHOR" | "COMMITTER", s: Signature): Record<string, string> {
  return {
    [`GIT_${prefix}_NAME`]: s.name,
    [`GIT_${prefix}_EMAIL`]: s.email,
    [`GIT_${prefix}_DATE`]: `@${s.unix} +0000`,
  };
}

/**
 * Makes one commit from file writes and deletions without a working tree: a private index is
 * filled from the parent's tree, edited, written as a tree, committed, and the branch is moved
 * with compare-and-swap, so a concurrent push is never overwritten. Returns the new commit id.
 */
export async function commitFiles(repoPath: string, input: CommitFilesInput): Promise<string> {
  const scratch = mkdtempSync(join(tmpdir(), "hearth-index-"));
  const env = { GIT_INDEX_FILE: join(scratch, "index") };
  const opts = { gitDir: repoPath, env };
  try {
    if (input.parent) await git(["read-tree", `${input.parent}^{tree}`], opts);
    else await git(["read-tree", "--empty"], opts);
    for (const path of input.deletes) {
      await git(["update-index", "--force-remove", "--", path], opts);
    }
    for (const w of input.writes) {
      const blob = (await git(["hash-object", "-w", "--stdin"], { ...opts, input: w.content })).trim();
      await git(["update-index", "--add", "--cacheinfo", `${w.executable ? "100755" : "100644"},${blob},${w.path}`], opts);
    }
    const tree = (await git(["write-tree"], opts)).trim();
    const parentArgs = input.parent ? ["-p", input.parent] : [];
    const commit = (
      await git(["commit-tree", tree, ...parentArgs], {
        gitDir: repoPath,
        input: input.message,
        env: { ...sigEnv("AUTHOR", input.author), ...sigEnv("COMMITTER", input.committer) },
      })
    ).trim();
    const ref = `refs/heads/${input.branch}`;
    const moved = await runGit(["update-ref", ref, commit, input.parent ?? ZERO], { gitDir: repoPath });
    if (moved.code !== 0) throw new RefMovedError(ref);
    return commit;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** `git check-ref-format --branch`: whether a name may be a branch. */
export async function isValidBranchName(name: string): Promise<boolean> {
  if (!name || name.startsWith("-") || name.length > 255) return false;
  const r = await runGit(["check-ref-format", `refs/heads/${name}`]);
  return r.code === 0;
}
