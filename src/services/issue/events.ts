import type { Tx } from "../../db/client.ts";
import type { CommentRow, IssueRow, NewCommentRow, UserRow } from "../../db/schema/index.ts";
import { insertComment } from "../../models/comment.ts";
import { nowUnix } from "../../lib/time.ts";

/**
 * Records a timeline event of an issue (close, reopen, title change, label, milestone, assignee,
 * deadline, ...) as Gitea does: a comment row of the event's type.
 */
export function recordEvent(
  tx: Tx,
  issue: Pick<IssueRow, "id">,
  doer: Pick<UserRow, "id">,
  type: number,
  fields: Omit<Partial<NewCommentRow>, "id" | "issueId" | "posterId" | "type"> = {},
): CommentRow {
  const now = nowUnix();
  return insertComment(tx, { createdUnix: now, updatedUnix: now, ...fields, issueId: issue.id, posterId: doer.id, type });
}
