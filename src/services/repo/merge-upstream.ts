/**
 * POST /repos/{owner}/{repo}/merge-upstream (Gitea's repo_service.MergeUpstream): brings a fork's
 * branch up to the branch of the same name in the repository it was forked from. A fast-forward
 * when the fork has nothing of its own, otherwise (unless `ffOnly`) a merge commit by the doer
 * with Gitea's message "merge upstream". The branch moves by compare-and-swap and the move is then
 * processed as a push (branch table, webhooks, pull requests, mirrors), after the same branch
 * protection a push meets.
 */
import type { Env } from "../env.ts";
import { BadRequest, Conflict, Forbidden, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { readBranchHead } from "../../git/refs.ts";
import { isAncestor } from "../../git/reflist.ts";
import { updateRefs, RefUpdateError } from "../../git/refs-write.ts";
import { cleanMergeTree, commitTree, MergeConflictError, UnrelatedHistoriesError } from "../../git/merge.ts";
import { withUpstreamBranch } from "../../git/upstream-fetch.ts";
import { gitIdentityOf } from "../user/git-identity.ts";
import { checkProtectedRefs } from "../protection/push-check.ts";
import { withBranchLock } from "../pull/branch-lock.ts";
import { processPush } from "./push.ts";
import { gitDirOf, resolveRepoById } from "./lookup.ts";
import type { Writes } from "../access/repo-access.ts";
import type { Doer } from "../access/permission.ts";

/** What happened: Gitea's merge_type values. */
export type UpstreamMergeType = "fast-forward" | "merge" | "up-to-date";

/** Gitea's commit message for the merge (pull.Update called with "merge upstream"). */
export const MERGE_UPSTREAM_MESSAGE = "merge upstream";

export async function mergeUpstream(env: Env, rc: Writes<"code">, doer: Doer, branch: string, ffOnly: boolean): Promise<UpstreamMergeType> {
  const fork = rc.repo;
  // Gitea's GetUpstreamDivergingInfo: util.ErrInvalidArgument, answered 400.
  if (!fork.isFork || !fork.forkId) throw new BadRequest("repo is not a fork");
  if (fork.isArchived) throw new BadRequest("repo is archived");
  // The base is read with the doer's eyes: one they may not read is not there for them.
  const base = resolveRepoById(env, doer, fork.forkId);
  if (!base.perm.canRead("code")) throw new NotFound("base repository does not exist");

  const forkDir = gitDirOf(env, rc.owner, fork);
  const baseDir = gitDirOf(env, base.owner, base.repo);
  return withBranchLock(`${fork.id}:${branch}`, async () => {
    // Both branches must exist (Gitea's GetBranch on each side: ErrBranchNotExist, answered 404).
    const forkHead = branch ? await readBranchHead(forkDir, branch) : undefined;
    if (!forkHead) throw new NotFound(`branch does not exist [repo_id: ${fork.id} name: ${branch}]`);
    const baseHead = await readBranchHead(baseDir, branch);
    if (!baseHead) throw new NotFound(`branch does not exist [repo_id: ${base.repo.id} name: ${branch}]`);
    if (baseHead.commitId === forkHead.commitId) return "up-to-date";

    return withUpstreamBranch(forkDir, baseDir, branch, async (upstream) => {
      // The fork already contains the upstream branch: nothing new to bring in.
      if (await isAncestor(forkDir, upstream, forkHead.commitId)) return "up-to-date";
      let tip: string;
      let type: UpstreamMergeType;
      if (await isAncestor(forkDir, forkHead.commitId, upstream)) {
        tip = upstream;
        type = "fast-forward";
      } else {
        if (ffOnly) throw new BadRequest(`cannot fast-forward branch ${branch}: it has diverged from the base repository`);
        tip = await mergeCommit(env, doer, forkDir, forkHead.commitId, upstream);
        type = "merge";
      }
      const ref = `refs/heads/${branch}`;
      const update = { old: forkHead.commitId, new: tip, ref };
      const refusal = await checkProtectedRefs(env, { repo: fork, owner: rc.owner, pusher: doer }, [update]);
      if (refusal) throw new Forbidden(refusal);
      try {
        await updateRefs(forkDir, [{ op: "update", ref, sha: tip, old: forkHead.commitId }]);
      } catch (err) {
        if (err instanceof RefUpdateError && err.kind === "moved") throw new Conflict("the branch was updated meanwhile");
        throw err;
      }
      await processPush(env, fork.id, doer.id, [update]);
      return type;
    });
  });
}

/** The fork's tip merged with upstream's (first parent the fork's, as Gitea's reversed pull request merge). */
async function mergeCommit(env: Env, doer: Doer, gitDir: string, ours: string, theirs: string): Promise<string> {
  const me = { ...gitIdentityOf(env, doer), unix: nowUnix() };
  try {
    const tree = await cleanMergeTree(gitDir, ours, theirs);
    return await commitTree(gitDir, { tree, parents: [ours, theirs], message: MERGE_UPSTREAM_MESSAGE, author: me, committer: me });
  } catch (err) {
    if (err instanceof UnrelatedHistoriesError) throw new Conflict("Merge UnrelatedHistories Error: merge: refusing to merge unrelated histories");
    if (err instanceof MergeConflictError) throw new Conflict(`Merge Conflict Error: merge: CONFLICT (content): Merge conflict in ${err.files.join(", ")}`);
    throw err;
  }
}
