import { eq, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { comments, CommentType, issues, type CommentRow, type NewCommentRow } from "../db/schema/index.ts";

export function insertComment(tx: Tx, row: NewCommentRow): CommentRow {
  return tx.insert(comments).values(row).returning().get();
}

/** `num_comments` counts plain comments only, as in Gitea. */
export function recountIssueComments(tx: Tx, issueId: number): void {
  tx.update(issues)
    .set({
      numComments: sql`(SELECT count(*) FROM ${comments} WHERE ${comments.issueId} = ${issueId} AND ${comments.type} = ${CommentType.Comment})`,
    })
    .where(eq(issues.id, issueId))
    .run();
}
