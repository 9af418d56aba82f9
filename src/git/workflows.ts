import { runGit, GitError } from "./exec.ts";
import { isObjectId, readBlob, readEntry } from "./tree.ts";

/** Where Gitea looks for workflows, in order: the first directory that exists wins. */
export const WORKFLOW_DIRS = [".gitea/workflows", ".github/workflows"] as const;

export interface WorkflowFile {
  /** The directory it was found in (`.gitea/workflows`). */
  dir: string;
  /** The file's path below the directory (`ci.yml`, `deploy/prod.yml`), Gitea's workflow id. */
  name: string;
  content: string;
}

/** A workflow file is big enough at this size; a larger one is not read (Gitea reads any, runners choke). */
const MAX_WORKFLOW_BYTES = 1024 * 1024;

/**
 * Gitea's ListWorkflows + GetContentFromEntry: the `.yml`/`.yaml` files in the first of the
 * workflow directories that exists at `commit`, at any depth (Gitea lists the directory
 * recursively), with their contents; a file's name is its path below the directory.
 */
export async function readWorkflowFiles(gitDir: string, commit: string): Promise<WorkflowFile[]> {
  for (const dir of WORKFLOW_DIRS) {
    const entry = await readEntry(gitDir, commit, dir);
    if (!entry || entry.type !== "tree") continue;
    const files: WorkflowFile[] = [];
    for (const e of await blobsBelow(gitDir, entry.oid)) {
      if (!/\.ya?ml$/i.test(e.path) || e.size > MAX_WORKFLOW_BYTES) continue;
      files.push({ dir, name: e.path, content: (await readBlob(gitDir, e.oid)).toString("utf8") });
    }
    return files;
  }
  return [];
}

/** Every blob below a tree, with its path relative to it and its size. */
async function blobsBelow(gitDir: string, tree: string): Promise<{ path: string; oid: string; size: number }[]> {
  const r = await runGit(["ls-tree", "-r", "-l", "-z", "--end-of-options", tree], { gitDir });
  if (r.code !== 0) throw new GitError(["ls-tree"], r.code, r.stderr);
  const out: { path: string; oid: string; size: number }[] = [];
  for (const rec of r.stdout.toString("utf8").split("\0")) {
    const m = /^\d{6} blob ([0-9a-f]{40,64}) +(\d+)\t([\s\S]*)$/.exec(rec);
    if (m) out.push({ oid: m[1]!, size: Number(m[2]), path: m[3]! });
  }
  return out;
}

/** One workflow file by name, from whichever workflow directory holds it. */
export async function readWorkflowFile(gitDir: string, commit: string, name: string): Promise<WorkflowFile | undefined> {
  if (name.split("/").some((part) => part === "" || part === "." || part === "..")) return undefined;
  return (await readWorkflowFiles(gitDir, commit)).find((f) => f.name === name);
}

/**
 * The paths that differ between two commits (Gitea's GetFilesChangedSinceCommit), for `paths`
 * filters; undefined when `before` is not a commit of the repository (a new branch, a force push
 * from a history that is gone), where Gitea's filters then see no files.
 */
export async function changedPaths(gitDir: string, before: string, after: string): Promise<string[] | undefined> {
  if (!isObjectId(before) || !isObjectId(after) || /^0+$/.test(before)) return undefined;
  const r = await runGit(["diff", "--name-only", "-z", "--no-renames", before, after, "--"], { gitDir });
  if (r.code === 128) return undefined;
  if (r.code !== 0) throw new GitError(["diff"], r.code, r.stderr);
  return r.stdout.toString("utf8").split("\0").filter(Boolean);
}
