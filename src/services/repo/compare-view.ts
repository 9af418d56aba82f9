/**
 * Gitea's web CompareDiff, read-only: `{base}...{head}` compares head with the merge base (what a
 * pull request would change), `{base}..{head}` compares the two trees directly; both list the
 * commits of head that base does not have. A lone `{head}` is compared with the default branch.
 * Each side is a branch, a tag or a commit id of this repository (`owner:branch` and
 * `owner/repo:branch` naming this repository too); another repository is 404.
 */
import type { Env } from "../env.ts";
import { NotFound } from "../../lib/errors.ts";
import { countCommits, listCommitIds, mergeBase } from "../../git/log.ts";
import { readCommits } from "../../git/objects.ts";
import { isSafeRefName, resolveRevisions } from "../../git/tree.ts";
import { cachedChangedPaths } from "../pull/changed-paths-cache.ts";
import { describe, type CommitView } from "./commits.ts";
import { loadDiffPage, type DiffPage } from "./diff-view.ts";
import { isLikelyCommitId } from "./history.ts";
import { gitDirOf, type RepoContext } from "./lookup.ts";

/** The most commits a comparison lists (newest first); the count says how many there are. */
export const COMPARE_MAX_COMMITS = 100;

export interface CompareSide {
  /** As written in the URL (after `owner:`). */
  name: string;
  kind: "branch" | "tag" | "commit";
  sha: string;
}

export interface CompareView {
  base: CompareSide;
  head: CompareSide;
  /** `..`: the trees compared directly. */
  direct: boolean;
  /** undefined when the two histories share nothing (then nothing is compared). */
  mergeBase: string | undefined;
  commits: CommitView[];
  totalCommits: number;
  diff: DiffPage | undefined;
}

export interface CompareSpec {
  base: string;
  head: string;
  direct: boolean;
}

/** `base...head`, `base..head` or `head` (against the default branch), as Gitea's ParseCompareInfo splits it. */
export function parseCompareSpec(rc: RepoContext, spec: string): CompareSpec {
  const three = spec.indexOf("...");
  if (three >= 0) return { base: spec.slice(0, three), head: spec.slice(three + 3), direct: false };
  const two = spec.indexOf("..");
  if (two >= 0) return { base: spec.slice(0, two), head: spec.slice(two + 2), direct: true };
  return { base: rc.repo.defaultBranch, head: spec, direct: false };
}

/** `owner:branch` or `owner/repo:branch` naming this repository: the branch; another one is 404. */
function localName(rc: RepoContext, name: string): string {
  const colon = name.indexOf(":");
  if (colon < 0) return name;
  const where = name.slice(0, colon);
  const [owner, repo = rc.repo.name] = where.split("/");
  if (owner!.toLowerCase() !== rc.owner.name.toLowerCase() || repo.toLowerCase() !== rc.repo.name.toLowerCase()) throw new NotFound();
  return name.slice(colon + 1);
}

async function resolveSide(gitDir: string, name: string): Promise<CompareSide> {
  const asked: { kind: CompareSide["kind"]; rev: string }[] = [];
  if (isSafeRefName(name)) asked.push({ kind: "branch", rev: `refs/heads/${name}^{commit}` }, { kind: "tag", rev: `refs/tags/${name}^{commit}` });
  if (isLikelyCommitId(name)) asked.push({ kind: "commit", rev: `${name}^{commit}` });
  const found = await resolveRevisions(gitDir, asked.map((a) => a.rev));
  for (let i = 0; i < asked.length; i++) {
    const oid = found[i]?.oid;
    if (oid && (asked[i]!.kind !== "commit" || oid.startsWith(name))) return { name, kind: asked[i]!.kind, sha: oid };
  }
  throw new NotFound();
}

export async function compareView(env: Env, rc: RepoContext, spec: CompareSpec, page: number): Promise<CompareView> {
  if (rc.repo.isEmpty) throw new NotFound();
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const [base, head] = await Promise.all([resolveSide(gitDir, localName(rc, spec.base)), resolveSide(gitDir, localName(rc, spec.head))]);
  const mb = await mergeBase(gitDir, base.sha, head.sha);
  if (!mb) return { base, head, direct: spec.direct, mergeBase: undefined, commits: [], totalCommits: 0, diff: undefined };
  const range = { from: [head.sha], not: [base.sha] };
  const from = spec.direct ? base.sha : mb;
  const [totalCommits, ids, changed] = await Promise.all([
    countCommits(gitDir, range),
    listCommitIds(gitDir, range, 0, COMPARE_MAX_COMMITS),
    cachedChangedPaths(gitDir, from, head.sha),
  ]);
  const [commits, diff] = await Promise.all([
    describe(env, gitDir, await readCommits(gitDir, ids), { stat: false, files: false, verification: false }),
    loadDiffPage(gitDir, from, head.sha, changed, page),
  ]);
  return { base, head, direct: spec.direct, mergeBase: mb, commits, totalCommits, diff };
}
