import { sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import {
  comments,
  issueAssignees,
  issues,
  issueUsers,
  issueWatches,
  notifications,
  NotificationStatus,
  watches,
} from "../db/schema/index.ts";

/**
 * Who hears about an issue: the repository's watchers, the issue's poster, commenters, assignees,
 * mentioned users and explicit subscribers, minus those who explicitly unsubscribed.
 */
export function issueAudience(tx: Tx, issueId: number, repoId: number): number[] {
  const rows = tx.all<{ uid: number }>(sql`
    SELECT uid FROM (
      SELECT ${watches.uid} AS uid FROM ${watches} WHERE ${watches.repoId} = ${repoId}
      UNION SELECT ${issues.posterId} FROM ${issues} WHERE ${issues.id} = ${issueId}
      UNION SELECT ${comments.posterId} FROM ${comments} WHERE ${comments.issueId} = ${issueId} AND ${comments.type} = 0
      UNION SELECT ${issueAssignees.assigneeId} FROM ${issueAssignees} WHERE ${issueAssignees.issueId} = ${issueId}
      UNION SELECT ${issueUsers.uid} FROM ${issueUsers} WHERE ${issueUsers.issueId} = ${issueId} AND ${issueUsers.isMentioned} = 1
      UNION SELECT ${issueWatches.userId} FROM ${issueWatches} WHERE ${issueWatches.issueId} = ${issueId} AND ${issueWatches.isWatching} = 1
    )
    WHERE uid > 0 AND uid NOT IN (
      SELECT ${issueWatches.userId} FROM ${issueWatches} WHERE ${issueWatches.issueId} = ${issueId} AND ${issueWatches.isWatching} = 0
    )`);
  return rows.map((r) => r.uid);
}

/** One thread per user and issue: a new event marks it unread again and moves it up. */
export function upsertIssueNotification(
  tx: Tx,
  n: { userId: number; repoId: number; issueId: number; source: number; commentId: number; updatedBy: number; unix: number },
): void {
  tx.insert(notifications)
    .values({
      userId: n.userId,
      repoId: n.repoId,
      issueId: n.issueId,
      source: n.source,
      status: NotificationStatus.Unread,
      commentId: n.commentId,
      updatedBy: n.updatedBy,
      createdUnix: n.unix,
      updatedUnix: n.unix,
    })
    .onConflictDoUpdate({
      target: [notifications.userId, notifications.repoId, notifications.source, notifications.issueId, notifications.commitId],
      set: {
        status: sql`CASE WHEN ${notifications.status} = ${NotificationStatus.Pinned} THEN ${NotificationStatus.Pinned} ELSE ${NotificationStatus.Unread} END`,
        commentId: n.commentId,
        updatedBy: n.updatedBy,
        updatedUnix: n.unix,
      },
    })
    .run();
}
