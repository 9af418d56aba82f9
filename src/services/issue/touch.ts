import type { Tx } from "../../db/client.ts";
import type { CommentRow, IssueRow, NewCommentRow, UserRow } from "../../db/schema/index.ts";
import * as issues from "../../models/issue.ts";
import { recordEvent } from "./events.ts";

/**
 * Records a timeline event and moves the issue's update time to it, as Gitea's CreateComment does
 * for every comment row (a lock, a pin, a dependency or tracked time counts as activity).
 */
export function recordActivity(
  tx: Tx,
  issue: Pick<IssueRow, "id">,
  doer: Pick<UserRow, "id">,
  type: number,
  fields: Omit<Partial<NewCommentRow>, "id" | "issueId" | "posterId" | "type"> = {},
): CommentRow {
  const comment = recordEvent(tx, issue, doer, type, fields);
  issues.updateIssue(tx, issue.id, { updatedUnix: comment.createdUnix });
  return comment;
}
