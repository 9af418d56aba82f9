import { git } from "./exec.ts";

/**
 * Questions the pre-receive check asks about a ref update. During pre-receive the pushed objects
 * are still in git's quarantine directory: git tells its hooks where through these variables, and
 * every git call here must run with them to see the new commits.
 */
export interface QuarantineEnv {
  GIT_OBJECT_DIRECTORY?: string;
  GIT_ALTERNATE_OBJECT_DIRECTORIES?: string;
  GIT_QUARANTINE_PATH?: string;
}

const isHexId = (s: string) => /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(s);

function envOf(q: QuarantineEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(q)) if (typeof v === "string" && v) out[k] = v;
  return out;
}

/** Whether moving a ref from `oldId` to `newId` drops commits: `oldId` is not an ancestor of `newId` (Gitea's rev-list test). */
export async function isForcePush(gitDir: string, oldId: string, newId: string, q: QuarantineEnv = {}): Promise<boolean> {
  if (!isHexId(oldId) || !isHexId(newId)) throw new Error("object ids expected");
  const out = await git(["rev-list", "--max-count=1", oldId, `^${newId}`], { gitDir, env: envOf(q) });
  return out.trim() !== "";
}

/**
 * The newest commit an update brings that would need checking (Gitea's verifyCommits walks
 * `old...new`, or all of `new` for a new ref); undefined when there is none.
 */
export async function newestPushedCommit(gitDir: string, oldId: string | undefined, newId: string, q: QuarantineEnv = {}): Promise<string | undefined> {
  if (!isHexId(newId) || (oldId !== undefined && !isHexId(oldId))) throw new Error("object ids expected");
  const range = oldId ? [`${oldId}...${newId}`] : [newId];
  const out = await git(["rev-list", "--max-count=1", ...range], { gitDir, env: envOf(q) });
  return out.trim() || undefined;
}

/**
 * The paths an update changes: `git diff --name-only old new`; for a new ref, the paths touched
 * by its commits that no existing ref reaches (Gitea starts from where the branch forked).
 */
export async function changedPaths(gitDir: string, oldId: string | undefined, newId: string, q: QuarantineEnv = {}): Promise<string[]> {
  if (!isHexId(newId) || (oldId !== undefined && !isHexId(oldId))) throw new Error("object ids expected");
  const args = oldId
    ? ["diff", "--no-renames", "--name-only", "-z", oldId, newId]
    : ["log", "--no-renames", "--name-only", "-z", "--format=", newId, "--not", "--all"];
  const out = await git(args, { gitDir, env: envOf(q) });
  return [...new Set(out.split("\0").map((p) => p.replace(/^\n+/, "")).filter(Boolean))];
}
