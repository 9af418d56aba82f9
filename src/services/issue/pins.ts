import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { CommentType, type IssueRow } from "../../db/schema/index.ts";
import * as issues from "../../models/issue.ts";
import * as pins from "../../models/issue-pin.ts";
import { BadRequest, Invalid } from "../../lib/errors.ts";
import type { RepoContext } from "../repo/lookup.ts";
import type { IssueContext } from "./lookup.ts";
import { recordActivity } from "./touch.ts";
import type { Administers } from "../access/repo-access.ts";
import type { Doer } from "../access/permission.ts";

/** Gitea's `[repository.issue] MAX_PINNED` default: pinned issues (and, separately, pull requests) per repository. */
export const MAX_PINNED = 3;

/**
 * Gitea's Pin: appended to the end of the issue's pin list (issues and pull requests have one
 * each), with a "pin" timeline event. Pinning a pinned issue does nothing. A full list is refused:
 * Gitea answers that with a 500, we with its message as a 400 (the caller can unpin another first).
 */
export function pinIssue(env: Env, doer: Doer, ic: Administers<IssueContext>): void {
  const { issue } = ic;
  writeTx(env.db, (tx) => {
    const current = issues.getIssueById(tx, issue.id)!;
    if (current.pinOrder > 0) return;
    const max = pins.maxPinOrder(tx, issue.repoId, issue.isPull);
    if (max >= MAX_PINNED) throw new BadRequest("the max number of pinned issues has been readched");
    pins.setPinOrder(tx, issue.id, max + 1);
    recordActivity(tx, issue, doer, CommentType.Pin);
  });
}

/** Gitea's Unpin: the pins after it move up one; an "unpin" event. Unpinning an unpinned issue does nothing. */
export function unpinIssue(env: Env, doer: Doer, ic: Administers<IssueContext>): void {
  const { issue } = ic;
  writeTx(env.db, (tx) => {
    const current = issues.getIssueById(tx, issue.id)!;
    if (current.pinOrder === 0) return;
    pins.shiftPins(tx, issue.repoId, issue.isPull, current.pinOrder + 1, -1);
    pins.setPinOrder(tx, issue.id, 0);
    recordActivity(tx, issue, doer, CommentType.Unpin);
  });
}

/**
 * Gitea's MovePin: the pinned issue takes `position` (1-based) and the others close up around it;
 * an unpinned issue is left alone. Gitea lets a position past the end leave a hole in the list
 * (which then counts against MAX_PINNED); we place it last instead. A position below 1 is a 500 in
 * Gitea, here a 422 with its message.
 */
export function moveIssuePin(env: Env, ic: Administers<IssueContext>, position: number): void {
  const { issue } = ic;
  writeTx(env.db, (tx) => {
    const current = issues.getIssueById(tx, issue.id)!;
    if (current.pinOrder === 0) return;
    if (!Number.isInteger(position) || position < 1) throw new Invalid("The Position can't be lower than 1");
    const last = pins.maxPinOrder(tx, issue.repoId, issue.isPull);
    const target = Math.min(position, last);
    pins.shiftPins(tx, issue.repoId, issue.isPull, current.pinOrder + 1, -1);
    pins.shiftPins(tx, issue.repoId, issue.isPull, target, 1);
    pins.setPinOrder(tx, issue.id, target);
  });
}

/** Gitea's GetPinnedIssues for issues (not pull requests), in pin order; none when the doer does not read issues. */
export function pinnedIssues(env: Env, rc: RepoContext): IssueRow[] {
  if (!rc.perm.canRead("issues")) return [];
  return pins.listPinned(env.db, rc.repo.id, false);
}

/** Gitea's IsNewPinAllowed for both lists. */
export function newPinsAllowed(env: Env, rc: RepoContext): { issues: boolean; pullRequests: boolean } {
  return {
    issues: pins.countPinned(env.db, rc.repo.id, false) < MAX_PINNED,
    pullRequests: pins.countPinned(env.db, rc.repo.id, true) < MAX_PINNED,
  };
}
