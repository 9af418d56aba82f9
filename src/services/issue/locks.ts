import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { CommentType } from "../../db/schema/index.ts";
import * as issues from "../../models/issue.ts";
import { Forbidden } from "../../lib/errors.ts";
import { canWriteIssue, type IssueContext } from "./lookup.ts";
import { recordActivity } from "./touch.ts";
import type { Administers } from "../access/repo-access.ts";
import type { Doer } from "../access/permission.ts";

/**
 * Gitea's LockIssue / UnlockIssue: only writers of the issue's unit; the reason (free text, as the
 * API does not check it against the web's list) is the "lock" event's body. Locking a locked issue
 * (or unlocking an unlocked one) changes nothing. Gitea records the repository owner as the event's
 * poster (its ContextUser); we record the doer.
 */
export function setIssueLocked(env: Env, doer: Doer, ic: Administers<IssueContext>, locked: boolean, reason = ""): void {
  if (!canWriteIssue(ic)) throw new Forbidden(`no permission to ${locked ? "lock" : "unlock"} this issue`);
  writeTx(env.db, (tx) => {
    const current = issues.getIssueById(tx, ic.issue.id)!;
    if (current.isLocked === locked) return;
    issues.updateIssue(tx, current.id, { isLocked: locked });
    recordActivity(tx, current, doer, locked ? CommentType.Lock : CommentType.Unlock, { content: locked ? reason : "" });
  });
}
