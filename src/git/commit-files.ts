import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { git, refuseNulMessage, runGit } from "./exec.ts";
import { isValidRefPattern } from "./objects.ts";

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
  /** Runs once the commit exists and before the branch moves; throwing leaves the branch where it was. */
  beforeMove?: (commit: string) => Promise<void>;
}

export class RefMovedError extends Error {
  constructor(readonly ref: string) {
    super(`${ref} moved while the commit was being made`);
  }
}

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
  refuseNulMessage(input.message);
  const scratch = mkdtempSync(join(tmpdir(), "hearth-index-"));
  const env = { GIT_INDEX_FILE: join(scratch, "index") };
  const opts = { gitDir: repoPath, env };
  try {
    if (input.parent) await git(["read-tree", `${input.parent}^{tree}`], opts);
    else await git(["read-tree", "--empty"], opts);
    if (input.deletes.length > 0) {
      // `--force-remove` wants a work tree; an `--index-info` line with mode 0 removes the entry
      // from the index of a bare repository.
      const zero = "0".repeat(input.parent?.length ?? 40);
      const info = input.deletes.map((path) => `0 ${zero}\t${path}\0`).join("");
      await git(["update-index", "-z", "--index-info"], { ...opts, input: info });
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
    await input.beforeMove?.(commit);
    const ref = `refs/heads/${input.branch}`;
    // A first commit must create the ref: `create` asserts it does not exist in any object format
    // (a SHA-1 zero id is refused as the old value in a SHA-256 repository).
    const moved = input.parent
      ? await runGit(["update-ref", ref, commit, input.parent], { gitDir: repoPath })
      : await runGit(["update-ref", "--stdin"], { gitDir: repoPath, input: `create ${ref} ${commit}\n` });
    if (moved.code !== 0) throw new RefMovedError(ref);
    return commit;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** `git check-ref-format --branch`: whether a name may be a branch. */
export async function isValidBranchName(name: string): Promise<boolean> {
  // The pattern check first: a NUL could not even be passed to check-ref-format as an argument.
  if (!name || name.startsWith("-") || name.length > 255 || !isValidRefPattern(name)) return false;
  const r = await runGit(["check-ref-format", `refs/heads/${name}`]);
  return r.code === 0;
}
