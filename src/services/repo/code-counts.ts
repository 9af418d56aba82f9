/** The counts and ref names of a repository's code header: commits, branches, tags. */
import type { Env } from "../env.ts";
import * as branchModel from "../../models/branch.ts";
import { naturalCompare } from "../../lib/natural-sort.ts";
import { Lru } from "../../lib/lru.ts";
import { countCommits } from "../../git/log.ts";
import { readCommit } from "../../git/objects.ts";
import { listBranchNames, listTagNames } from "../../git/code-view.ts";
import { requireCodeReader } from "../access/permission.ts";
import { gitDirOf, type RepoContext } from "./lookup.ts";
import { branchNamesNewestFirst } from "./code-ref.ts";

const commitCounts = new Lru<Promise<number>>(1024);

/**
 * How many commits lead to `commitId` (`rev-list --count`), remembered by commit. A commit whose
 * only parent was counted is that count plus one; a merge whose first parent was counted adds
 * what the merge brings (`rev-list --count commit ^parent`), which is cheap.
 */
export function commitCount(env: Env, rc: RepoContext, commitId: string): Promise<number> {
  requireCodeReader(rc);
  const hit = commitCounts.get(commitId);
  if (hit) return hit;
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const counted = (async () => {
    const parents = (await readCommit(gitDir, commitId))?.parents ?? [];
    const before = parents[0] === undefined ? undefined : commitCounts.get(parents[0]);
    if (before && parents.length === 1) return (await before) + 1;
    if (before) return (await before) + (await countCommits(gitDir, { from: [commitId], not: [parents[0]!] }));
    return countCommits(gitDir, { from: [commitId] });
  })();
  commitCounts.set(commitId, counted);
  counted.catch(() => commitCounts.delete(commitId));
  return counted;
}

export interface RefNames {
  /** Newest commit first, at most the limit asked for; the default branch is always among them. */
  branches: string[];
  branchCount: number;
  /** Newest versions first (natural order of names, descending), at most the limit. */
  tags: string[];
  tagCount: number;
}

/**
 * The branches and tags a ref switcher offers, at most `limit` of each, narrowed to names
 * containing `filter` (any case) when one is given, with the repository's totals.
 */
export async function refNames(env: Env, rc: RepoContext, limit: number, filter = ""): Promise<RefNames> {
  requireCodeReader(rc);
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const needle = filter.toLowerCase();
  const match = (n: string) => !needle || n.toLowerCase().includes(needle);
  let branchCount = branchModel.countBranches(env.db, rc.repo.id);
  let branches: string[];
  if (branchCount === 0 && !rc.repo.isEmpty) {
    const all = await listBranchNames(gitDir);
    branchCount = all.length;
    branches = all.filter(match).sort(naturalCompare).slice(0, limit);
  } else if (!needle) {
    branches = (await branchNamesNewestFirst(env, rc, limit)).slice(0, limit);
  } else {
    branches = branchModel
      .listBranchesNewestFirst(env.db, rc.repo.id, 0, Math.max(branchCount, 1))
      .rows.map((r) => r.name)
      .filter(match)
      .slice(0, limit);
  }
  const def = rc.repo.defaultBranch;
  if (match(def) && !branches.includes(def) && branchCount > 0) branches = [def, ...branches.slice(0, Math.max(0, limit - 1))];
  else if (branches.includes(def)) branches = [def, ...branches.filter((b) => b !== def)];
  const allTags = rc.repo.isEmpty ? [] : await listTagNames(gitDir);
  const tags = allTags.filter(match).sort((a, b) => naturalCompare(b, a)).slice(0, limit);
  return { branches, branchCount, tags, tagCount: allTags.length };
}
