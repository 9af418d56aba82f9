import { runGit, GitError } from "./exec.ts";
import { isObjectId } from "./objects.ts";

/**
 * Walking history with `git rev-list`: pages of commit ids and their count, for the commit list
 * and compare. Starting points and exclusions must be resolved object ids (so nothing a user typed
 * can reach git as an option); `since`/`until` travel inside `--since=`/`--until=` and paths after `--`.
 */
export interface RevListQuery {
  /** Commits to start from (object ids). */
  from: string[];
  /** Commits whose history is excluded (`--not`), object ids. */
  not?: string[];
  since?: string;
  until?: string;
  /** Only commits touching these paths. */
  paths?: string[];
}

function revArgs(q: RevListQuery): string[] {
  const ids = [...q.from, ...(q.not ?? [])];
  if (!ids.every(isObjectId)) throw new GitError(["rev-list"], 128, "revisions must be object ids");
  const args: string[] = [];
  if (q.since) args.push(`--since=${q.since}`);
  if (q.until) args.push(`--until=${q.until}`);
  args.push(...q.from);
  if (q.not?.length) args.push("--not", ...q.not);
  if (q.paths?.length) args.push("--", ...q.paths);
  return args;
}

/** How many commits the query selects (`git rev-list --count`). */
export async function countCommits(gitDir: string, q: RevListQuery): Promise<number> {
  const args = ["rev-list", "--count", ...revArgs(q)];
  const r = await runGit(args, { gitDir });
  if (r.code !== 0) throw new GitError(args, r.code, r.stderr);
  return Number(r.stdout.toString("utf8").trim()) || 0;
}

/** One page of the query's commit ids, newest first (git's default order, as `git log`). */
export async function listCommitIds(gitDir: string, q: RevListQuery, skip: number, max: number): Promise<string[]> {
  if (max <= 0) return [];
  const args = ["rev-list", `--max-count=${max}`, `--skip=${Math.max(0, skip)}`, ...revArgs(q)];
  const r = await runGit(args, { gitDir });
  if (r.code !== 0) throw new GitError(args, r.code, r.stderr);
  return r.stdout.toString("utf8").split("\n").filter(isObjectId);
}

/** The best common ancestor of two commits, or undefined when their histories are unrelated. */
export async function mergeBase(gitDir: string, a: string, b: string): Promise<string | undefined> {
  if (!isObjectId(a) || !isObjectId(b)) return undefined;
  const r = await runGit(["merge-base", a, b], { gitDir });
  const sha = r.stdout.toString("utf8").trim();
  return r.code === 0 && isObjectId(sha) ? sha : undefined;
}
