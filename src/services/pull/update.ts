/**
 * POST /pulls/{index}/update (Gitea's UpdatePullRequest): brings the head branch up to date with
 * the base, by a merge commit ("Merge branch 'base' into head") or by rebasing the head onto the
 * base (a force update, so never onto a protected head branch). The head branch moves by
 * compare-and-swap, like a merge's base.
 */
import type { Env } from "../env.ts";
import type { UserRow } from "../../db/schema/index.ts";
import { Conflict, Forbidden, HearthError } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { readBranchHead } from "../../git/refs.ts";
import { isAncestor } from "../../git/reflist.ts";
import { fetchBranchInto } from "../../git/pull-refs.ts";
import { updateRefs, deleteRefsUnder, RefUpdateError } from "../../git/refs-write.ts";
import { cleanMergeTree, commitTree, rebaseCommits, MergeConflictError, UnrelatedHistoriesError } from "../../git/merge.ts";
import { repoPermission } from "../access/permission.ts";
import { gitIdentityOf } from "../user/git-identity.ts";
import { processPush } from "../repo/push.ts";
import { protectionRuleFor } from "../protection/rules.ts";
import { canUserPush } from "../protection/permissions.ts";
import { sideOf, type PullContext } from "./lookup.ts";
import { isUserAllowedToMerge } from "./merge-checks.ts";
import { withBranchLock } from "./branch-lock.ts";
import type { Checked } from "../access/repo-access.ts";
import type { Doer } from "../access/permission.ts";

/**
 * Gitea's IsUserAllowedToUpdate: the update is a merge into the head branch, so the doer must be
 * allowed to merge there (as a writer of the head repository, or as a maintainer of the base when
 * the poster allows maintainer edits) and to push to it; rebasing also needs an unprotected head
 * branch and the base repository's allow_rebase_update.
 */
function allowedUpdates(env: Env, doer: UserRow, pc: PullContext): { merge: boolean; rebase: boolean } {
  const { pull } = pc;
  const head = sideOf(env, doer, pull.headRepoId);
  if (!head || pull.flow !== 0) return { merge: false, rebase: false };
  const rule = protectionRuleFor(env, head.repo.id, pull.headBranch);
  if (rule && !canUserPush(env, rule, doer, head.perm)) return { merge: false, rebase: false };
  // The update merges base into head: head is the target, as in Gitea's swapped request.
  const reversed = { ...pull, baseRepoId: pull.headRepoId, baseBranch: pull.headBranch };
  let merge = isUserAllowedToMerge(env, reversed, doer, head.perm);
  if (pull.allowMaintainerEdit) merge ||= isUserAllowedToMerge(env, reversed, doer, repoPermission(env, doer, pc.repo, pc.owner));
  return { merge, rebase: merge && !rule && pc.repo.allowRebaseUpdate };
}

export async function updatePullBranch(env: Env, doer: Doer, pc: PullContext & Checked<{ notArchived: true }>, style: "merge" | "rebase"): Promise<void> {
  const { pull, issue } = pc;
  if (pull.hasMerged || issue.isClosed) throw new HearthError(422, "");
  const allowed = allowedUpdates(env, doer, pc);
  if (!(style === "rebase" ? allowed.rebase : allowed.merge)) throw new Forbidden("");
  const head = sideOf(env, doer, pull.headRepoId)!;
  const base = pull.headRepoId === pull.baseRepoId ? head : sideOf(env, undefined, pull.baseRepoId)!;
  await withBranchLock(`${head.repo.id}:${pull.headBranch}`, async () => {
    const headBranch = await readBranchHead(head.gitDir, pull.headBranch);
    const baseBranch = await readBranchHead(base.gitDir, pull.baseBranch);
    if (!headBranch || !baseBranch) throw new Conflict("the head or base branch of the pull request no longer exists");
    // A fork needs the base's commits in its own object store first.
    const scratch = `refs/hearth/update/${pull.id}/base`;
    if (base !== head) await fetchBranchInto(head.gitDir, base.gitDir, pull.baseBranch, scratch);
    try {
      if (await isAncestor(head.gitDir, baseBranch.commitId, headBranch.commitId)) return; // already up to date
      const now = nowUnix();
      const me = { ...gitIdentityOf(env, doer), unix: now };
      let tip: string;
      try {
        if (style === "rebase") tip = await rebaseCommits(head.gitDir, baseBranch.commitId, headBranch.commitId, me);
        else {
          const tree = await cleanMergeTree(head.gitDir, headBranch.commitId, baseBranch.commitId);
          const message = `Merge branch '${pull.baseBranch}' into ${pull.headBranch}`;
          tip = await commitTree(head.gitDir, { tree, parents: [headBranch.commitId, baseBranch.commitId], message, author: me, committer: me });
        }
      } catch (err) {
        if (err instanceof MergeConflictError || err instanceof UnrelatedHistoriesError) throw new Conflict(`merge conflict: ${err.message}`);
        throw err;
      }
      const ref = `refs/heads/${pull.headBranch}`;
      try {
        await updateRefs(head.gitDir, [{ op: "update", ref, sha: tip, old: headBranch.commitId }]);
      } catch (err) {
        if (err instanceof RefUpdateError && err.kind === "moved") throw new Conflict("the head branch was updated meanwhile");
        throw err;
      }
      await processPush(env, head.repo.id, doer.id, [{ old: headBranch.commitId, new: tip, ref }]);
    } finally {
      if (base !== head) await deleteRefsUnder(head.gitDir, `refs/hearth/update/${pull.id}/`);
    }
  });
}
