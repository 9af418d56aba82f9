import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { CommentType, type IssueRow, type PullRequestRow } from "../../db/schema/index.ts";
import * as reviewModel from "../../models/review.ts";
import { mergeBase } from "../../git/log.ts";
import { readBranchHead } from "../../git/refs.ts";
import { lineBlame } from "../../git/blame.ts";
import { pullContentChanged } from "../../git/file-diff.ts";
import { nowUnix } from "../../lib/time.ts";
import { recordActivity } from "../issue/touch.ts";
import { protectionRuleFor } from "../protection/rules.ts";
import { sideOf } from "./lookup.ts";

/** Gitea's text of the dismissal a push causes. */
export const STALE_DISMISS_MESSAGE = "New commits pushed, approval review dismissed automatically according to repository settings";

/**
 * What a push to a request's head does to its reviews (Gitea's AddTestPullRequestTask on a sync):
 * code comments whose line another commit changed are invalidated; when the push changed what the
 * request proposes, every review goes stale and, under a rule that dismisses stale approvals, the
 * approvals are dismissed (each with a timeline entry by the pusher); reviews made on the new head
 * are current again.
 */
export async function reviewsAfterPush(env: Env, pull: PullRequestRow, issue: IssueRow, pusherId: number, before: string, after: string): Promise<void> {
  // The push's other work (the merge check) goes on whatever happens here.
  await updateReviews(env, pull, issue, pusherId, before, after).catch((err: unknown) => {
    env.log.error("review update after push failed", { pull: pull.id, error: String(err) });
  });
}

async function updateReviews(env: Env, pull: PullRequestRow, issue: IssueRow, pusherId: number, before: string, after: string): Promise<void> {
  const base = sideOf(env, undefined, pull.baseRepoId);
  if (!base) return;
  await invalidateCodeComments(env, base.gitDir, issue, after);
  const baseHead = (await readBranchHead(base.gitDir, pull.baseBranch))?.commitId;
  const mb = (baseHead && (await mergeBase(base.gitDir, baseHead, after))) || pull.mergeBase;
  const changed = mb ? await pullContentChanged(base.gitDir, after, before, mb) : true;
  const rule = changed ? protectionRuleFor(env, pull.baseRepoId, pull.baseBranch) : undefined;
  writeTx(env.db, (tx) => {
    if (changed) {
      reviewModel.markReviewsStale(tx, issue.id);
      if (rule?.dismissStaleApprovals) {
        for (const approval of reviewModel.undismissedApprovals(tx, issue.id)) {
          reviewModel.updateReview(tx, approval.id, { dismissed: true, updatedUnix: nowUnix() });
          recordActivity(tx, issue, { id: pusherId }, CommentType.DismissReview, { content: STALE_DISMISS_MESSAGE, reviewId: approval.id });
        }
      }
    }
    reviewModel.markReviewsNotStale(tx, issue.id, after);
  });
}

/**
 * Gitea's InvalidateCodeComments: a comment is outdated when its line (by number, on either side,
 * as Gitea blames it) is gone from the new head or was last changed by another commit.
 */
async function invalidateCodeComments(env: Env, gitDir: string, issue: IssueRow, head: string): Promise<void> {
  const outdated: number[] = [];
  for (const c of reviewModel.standingCodeComments(env.db, issue.id)) {
    const line = Math.abs(c.line);
    if (line === 0) continue;
    const commit = await lineBlame(gitDir, head, c.treePath, line).catch(() => "error");
    if (commit === "error") continue;
    if (commit === undefined || (c.commitSha !== "" && c.commitSha !== commit)) outdated.push(c.id);
  }
  if (outdated.length) writeTx(env.db, (tx) => outdated.forEach((id) => reviewModel.invalidateComment(tx, id)));
}
