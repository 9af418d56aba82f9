import { existsSync, renameSync, rmSync } from "node:fs";
import { git } from "./exec.ts";
import { initBareRepo, type InitOptions } from "./repo-init.ts";

/** Whether anything (a repository or a leftover) occupies a repository path. */
export function repoDirExists(path: string): boolean {
  return existsSync(path);
}

/**
 * Makes `target` a bare copy of `source` for a fork: a repository with hearth's config and hooks
 * (initBareRepo), then every branch and tag of the source fetched into it. Built under a staging
 * name and renamed into place, so a failure leaves nothing at `target`. Fetching runs no hooks: the
 * caller records the new branches itself.
 */
export async function forkBareRepo(source: string, target: string, opts: InitOptions): Promise<void> {
  if (existsSync(target)) throw new Error(`repository path ${target} already exists`);
  const staging = `${target}.fork-${process.pid}-${Date.now()}`;
  await initBareRepo(staging, opts);
  try {
    await git(
      [
        "fetch",
        "--quiet",
        "--no-tags",
        "--no-write-fetch-head",
        "--end-of-options",
        source,
        "+refs/heads/*:refs/heads/*",
        "+refs/tags/*:refs/tags/*",
      ],
      { gitDir: staging, timeoutMs: 10 * 60_000 },
    );
    renameSync(staging, target);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}
