import { git, runGit } from "./exec.ts";
import { isHexId, isSafeRevision } from "./reflist.ts";
import { pullHeadRef } from "./pull-refs.ts";

/**
 * The pull request half of a restore's git work: which heads a dump's git data holds, and copying
 * them into the restored repository as `refs/pull/{n}/head`, as Gitea's uploader sets them.
 */

/**
 * The commit each revision names, in one `git cat-file --batch-check`; undefined for a revision
 * that names none (missing, not a commit, or unsafe to pass on).
 */
export async function resolveCommits(gitDir: string, revs: string[]): Promise<(string | undefined)[]> {
  const out: (string | undefined)[] = new Array(revs.length).fill(undefined);
  const asked = revs.map((r, i) => ({ r, i })).filter(({ r }) => r !== "" && isSafeRevision(r));
  if (asked.length === 0) return out;
  const r = await runGit(["cat-file", "--batch-check"], { gitDir, input: asked.map(({ r }) => `${r}^{commit}\n`).join("") });
  if (r.code !== 0) return out;
  const lines = r.stdout.toString("utf8").split("\n");
  asked.forEach(({ i }, n) => {
    const m = /^([0-9a-f]{40}|[0-9a-f]{64}) commit \d+$/.exec(lines[n] ?? "");
    if (m) out[i] = m[1];
  });
  return out;
}

/**
 * Fetches each pull request's head from `source` (a dump's bare mirror) into `refs/pull/{n}/head`
 * of `target`, objects included: `from` is the commit, or the `refs/pull/{m}/head`, of the dump that holds the head. The
 * refspecs go on stdin (`git fetch --stdin`), so any number of pull requests is one fetch.
 */
export async function fetchPullHeads(target: string, source: string, heads: { index: number; from: string }[]): Promise<void> {
  if (heads.length === 0) return;
  const refspecs = heads.map(({ index, from }) => {
    const known = isHexId(from) || /^refs\/pull\/\d+\/head$/.test(from);
    if (!Number.isSafeInteger(index) || index < 1 || !known) throw new Error(`refusing to fetch ${from} for pull request ${index}`);
    return `+${from}:${pullHeadRef(index)}\n`;
  });
  await git(["fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--stdin", "--end-of-options", source], {
    gitDir: target,
    input: refspecs.join(""),
    timeoutMs: 60 * 60_000,
  });
}
