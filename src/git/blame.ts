import { runGit, GitError } from "./exec.ts";

/**
 * Gitea's LineBlame: the commit that last changed line `line` of `path` as of `rev`. Undefined
 * when the path does not exist at `rev` or has fewer lines (Gitea treats both as "no commit").
 */
export async function lineBlame(gitDir: string, rev: string, path: string, line: number): Promise<string | undefined> {
  const args = ["blame", "-L", `${line},${line}`, "-p", rev, "--", path];
  const r = await runGit(args, { gitDir });
  if (r.code !== 0) {
    if (/no such path|has only \d+ lines?/.test(r.stderr)) return undefined;
    throw new GitError(args, r.code, r.stderr);
  }
  return /^([0-9a-f]{40}|[0-9a-f]{64}) /.exec(r.stdout.toString("utf8"))?.[1];
}
