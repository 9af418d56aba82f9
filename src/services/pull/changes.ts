import type { Env } from "../env.ts";
import { readCommits } from "../../git/objects.ts";
import { countCommits, listCommitIds, mergeBase } from "../../git/log.ts";
import { readBranchHead } from "../../git/refs.ts";
import { diffOrPatch, type ChangedPath, type WhitespaceMode } from "../../git/pull-diff.ts";
import { cachedChangedPaths } from "./changed-paths-cache.ts";
import { NotFound } from "../../lib/errors.ts";
import { describe, type CommitOptions, type CommitView } from "../repo/commits.ts";
import { gitDirOf } from "../repo/lookup.ts";
import { sideOf, type PullContext, type PullSide } from "./lookup.ts";
import { pullHeadCommit } from "./head-ref.ts";

/**
 * What a pull request changes, read from the base repository: from the merge base (for an open
 * request recomputed against the base branch's current head, as Gitea's GetCompareInfo; for a
 * merged one the stored merge base) to `refs/pull/{index}/head`.
 */
async function range(env: Env, pc: PullContext): Promise<{ gitDir: string; from: string; to: string }> {
  const gitDir = gitDirOf(env, pc.owner, pc.repo);
  const to = await pullHeadCommit(gitDir, pc.pull);
  if (!to) throw new NotFound("pull request head not found");
  let from = pc.pull.mergeBase;
  if (!pc.pull.hasMerged) {
    const base = await readBranchHead(gitDir, pc.pull.baseBranch);
    const mb = base ? await mergeBase(gitDir, base.commitId, to) : undefined;
    if (mb) from = mb;
  }
  if (!from) from = to;
  return { gitDir, from, to };
}

/**
 * The range the web's diff pages of a pull request show: the repository to read, the merge base
 * (recomputed against the base branch while the request is open) and the head commit.
 */
export function pullDiffRange(env: Env, pc: PullContext): Promise<{ gitDir: string; from: string; to: string }> {
  return range(env, pc);
}

export interface PullFiles {
  files: ChangedPath[];
  total: number;
  /** The head commit the files' links point at. */
  headSha: string;
  /** The repository the files' links point into (Gitea: the head repository). */
  headRepo: PullSide | undefined;
}

/**
 * Gitea's GetPullRequestFiles: every changed file (renames detected, `whitespace` as Gitea's
 * flags), starting at `skipTo` when given (files before it are left out), one page of them.
 */
export async function pullFiles(
  env: Env,
  pc: PullContext,
  q: { skipTo?: string; whitespace?: string; offset: number; limit: number },
): Promise<PullFiles> {
  const { gitDir, from, to } = await range(env, pc);
  let files = await cachedChangedPaths(gitDir, from, to, (q.whitespace ?? "") as WhitespaceMode);
  if (q.skipTo) {
    const at = files.findIndex((f) => f.path === q.skipTo);
    files = at < 0 ? [] : files.slice(at);
  }
  return {
    files: files.slice(q.offset, q.offset + q.limit),
    total: files.length,
    headSha: to,
    headRepo: sideOf(env, undefined, pc.pull.headRepoId),
  };
}

/** Gitea's GetPullRequestCommits: the request's commits newest first, a page of them, with stats. */
export async function pullCommits(
  env: Env,
  pc: PullContext,
  q: { offset: number; limit: number },
  opts: Omit<CommitOptions, "stat">,
): Promise<{ items: CommitView[]; total: number }> {
  const { gitDir, from, to } = await range(env, pc);
  const query = { from: [to], not: from === to ? [] : [from] };
  if (from === to) return { items: [], total: 0 };
  const total = await countCommits(gitDir, query);
  const ids = await listCommitIds(gitDir, query, q.offset, q.limit);
  const items = await describe(env, gitDir, await readCommits(gitDir, ids), { ...opts, stat: true });
  return { items, total };
}

/** Gitea's DownloadDiffOrPatch: from the stored merge base to the head, as a diff or a patch series. */
export async function pullDiffOrPatch(env: Env, pc: PullContext, patch: boolean, binary: boolean): Promise<Buffer> {
  const gitDir = gitDirOf(env, pc.owner, pc.repo);
  const to = await pullHeadCommit(gitDir, pc.pull);
  if (!to) throw new NotFound("pull request head not found");
  return diffOrPatch(gitDir, pc.pull.mergeBase || to, to, patch, binary);
}
