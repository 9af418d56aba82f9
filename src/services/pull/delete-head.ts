import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { CommentType, type IssueRow, type PullRequestRow, type UserRow } from "../../db/schema/index.ts";
import * as pulls from "../../models/pull.ts";
import { recordEvent } from "../issue/events.ts";
import { protectionRuleFor } from "../protection/rules.ts";
import { deleteBranch } from "../repo/branches.ts";
import { sideOf } from "./lookup.ts";
import { permitsRepoAccess } from "../access/repo-access.ts";

/**
 * `delete_branch_after_merge`: the head branch goes when the merger may delete it (a writer of the
 * head repository's code; never its default or a protected branch) and no other open request
 * still uses it — otherwise it silently stays, as in Gitea. The request's timeline records it.
 */
export async function deleteHeadAfterMerge(env: Env, doer: UserRow, pull: PullRequestRow, issue: IssueRow): Promise<boolean> {
  const head = sideOf(env, doer, pull.headRepoId);
  // canWrite as Gitea asks it (no admin fallback), then the proof of a writable, unarchived repository.
  if (!head || !head.perm.canWrite("code") || !permitsRepoAccess(head, doer, { write: "code", notArchived: true })) return false;
  if (pull.headBranch === head.repo.defaultBranch || protectionRuleFor(env, head.repo.id, pull.headBranch)) return false;
  const others = pulls.openPullsOnBranch(env.db, head.repo.id, pull.headBranch).asHead.filter((p) => p.pull.id !== pull.id);
  if (others.length) return false;
  try {
    await deleteBranch(env, head, pull.headBranch, doer);
  } catch (err) {
    env.log.warn("could not delete the head branch after merge", { pull: pull.id, error: String(err) });
    return false;
  }
  writeTx(env.db, (tx) => recordEvent(tx, issue, doer, CommentType.DeleteBranch, { oldRef: pull.headBranch }));
  return true;
}
