/**
 * One commit as its web page shows it (Gitea's repo.Diff): the commit with the accounts behind
 * its signatures, and a page of its changes against its first parent (a root commit against the
 * empty tree), renames detected.
 */
import type { Env } from "../env.ts";
import { NotFound } from "../../lib/errors.ts";
import { readCommit } from "../../git/objects.ts";
import { emptyTreeFor } from "../../git/diff-text.ts";
import { cachedChangedPaths } from "../pull/changed-paths-cache.ts";
import { describe, type CommitView } from "./commits.ts";
import { loadDiffPage, type DiffPage } from "./diff-view.ts";
import { isLikelyCommitId } from "./history.ts";
import { gitDirOf, type RepoContext } from "./lookup.ts";

export interface CommitWithDiff {
  view: CommitView;
  diff: DiffPage;
}

/** `sha` (7 to 64 hex digits, as Gitea's route) naming a commit of this repository, else 404. */
export async function commitWithDiff(env: Env, rc: RepoContext, sha: string, page: number): Promise<CommitWithDiff> {
  if (rc.repo.isEmpty || !isLikelyCommitId(sha)) throw new NotFound();
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const commit = await readCommit(gitDir, sha);
  if (!commit || !commit.oid.startsWith(sha)) throw new NotFound();
  const from = commit.parents[0] ?? emptyTreeFor(commit.oid);
  const [views, changed] = await Promise.all([
    describe(env, gitDir, [commit], { stat: false, files: false, verification: false }),
    cachedChangedPaths(gitDir, from, commit.oid),
  ]);
  const diff = await loadDiffPage(gitDir, from, commit.oid, changed, page);
  return { view: views[0]!, diff };
}
