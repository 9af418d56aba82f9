import { runGit, GitError } from "./exec.ts";
import { isObjectId, listTree, readBlob, readEntry } from "./tree.ts";

/** Where Gitea looks for workflows, in order: the first directory that exists wins. */
export const WORKFLOW_DIRS = [".gitea/workflows", ".github/workflows"] as const;

export interface WorkflowFile {
  /** The directory it was found in (`.gitea/workflows`). */
  dir: string;
  /** The file's name (`ci.yml`), Gitea's workflow id. */
  name: string;
  content: string;
}

/** A workflow file is big enough at this size; a larger one is not read (Gitea reads any, runners choke). */
const MAX_WORKFLOW_BYTES = 1024 * 1024;

/**
 * Gitea's ListWorkflows + GetContentFromEntry: the `.yml`/`.yaml` files directly in the first of
 * the workflow directories that exists at `commit`, with their contents.
 */
export async function readWorkflowFiles(gitDir: string, commit: string): Promise<WorkflowFile[]> {
  for (const dir of WORKFLOW_DIRS) {
    const entry = await readEntry(gitDir, commit, dir);
    if (!entry || entry.type !== "tree") continue;
    const files: WorkflowFile[] = [];
    for (const e of await listTree(gitDir, entry.oid, dir)) {
      if (e.type !== "blob" || !/\.ya?ml$/i.test(e.name) || e.size > MAX_WORKFLOW_BYTES) continue;
      files.push({ dir, name: e.name, content: (await readBlob(gitDir, e.oid)).toString("utf8") });
    }
    return files;
  }
  return [];
}

/** One workflow file by name, from whichever workflow directory holds it. */
export async function readWorkflowFile(gitDir: string, commit: string, name: string): Promise<WorkflowFile | undefined> {
  if (name.includes("/") || name.startsWith(".")) return undefined;
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
