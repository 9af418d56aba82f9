/**
 * A pull request's changes for its "Files changed" page (Gitea's ViewPullFiles): from the merge
 * base to the head, a page at a time, the changed-file list shared with the API's cache so paging
 * through a large request runs `git diff --numstat` once; and the counts its tabs show.
 */
import type { Env } from "../env.ts";
import { countCommits } from "../../git/log.ts";
import { loadDiffPage, type DiffPage } from "../repo/diff-view.ts";
import { cachedChangedPaths } from "./changed-paths-cache.ts";
import { pullDiffRange } from "./changes.ts";
import type { PullContext } from "./lookup.ts";

export interface PullFilesPage {
  diff: DiffPage;
  /** The request's commits (for the Commits tab). */
  commits: number;
}

export async function pullDiffPage(env: Env, pc: PullContext, page: number): Promise<PullFilesPage> {
  const { gitDir, from, to } = await pullDiffRange(env, pc);
  if (from === to) return { diff: await loadDiffPage(gitDir, from, to, [], page), commits: 0 };
  const [changed, commits] = await Promise.all([cachedChangedPaths(gitDir, from, to), countCommits(gitDir, { from: [to], not: [from] })]);
  return { diff: await loadDiffPage(gitDir, from, to, changed, page), commits };
}

/** How many files the request changes (for the Files changed tab). */
export async function pullFileCount(env: Env, pc: PullContext): Promise<number> {
  const { gitDir, from, to } = await pullDiffRange(env, pc);
  return from === to ? 0 : (await cachedChangedPaths(gitDir, from, to)).length;
}
