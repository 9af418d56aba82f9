import { and, count, desc, eq, gte, inArray, lte, or, sql, type SQL } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { idsParam, inIdOrder, inIdsPlaceholder } from "./id-list.ts";
import {
  comments,
  CommentType,
  issues,
  issueWatches,
  notifications,
  NotificationSource,
  NotificationStatus,
  watches,
  type CommentRow,
  type NotificationRow,
} from "../db/schema/index.ts";

/**
 * Gitea's createOrUpdateIssueNotifications audience for "all watchers": explicit subscribers of the
 * issue, the repository's watchers, and the participants (the poster and everyone who commented or
 * reviewed), minus those who explicitly unsubscribed from the issue. Assignees and mentioned users
 * are not in it: Gitea notifies them once, when they are assigned or mentioned.
 */
export function issueAudience(tx: Tx, issueId: number, repoId: number): number[] {
  // Asked for every new issue and comment, by the bus's worker: prepared once (db/prepared.ts).
  const issue = sql.placeholder("issueId");
  // UNION ALL then one DISTINCT, and NOT EXISTS through issue_watch_issue_idx: a third of the cost
  // of UNION's temporary B-tree per arm and a NOT IN list built for each call.
  const rows = prepared(tx, "notification.issueAudience", (t) =>
    t
      .selectDistinct({ uid: sql<number>`uid` })
      .from(sql`(
        SELECT ${issueWatches.userId} AS uid FROM ${issueWatches} WHERE ${issueWatches.issueId} = ${issue} AND ${issueWatches.isWatching} = 1
        UNION ALL SELECT ${watches.uid} FROM ${watches} WHERE ${watches.repoId} = ${sql.placeholder("repoId")}
        UNION ALL SELECT ${issues.posterId} FROM ${issues} WHERE ${issues.id} = ${issue}
        UNION ALL SELECT ${comments.posterId} FROM ${comments}
          WHERE ${comments.issueId} = ${issue} AND ${comments.type} IN (${CommentType.Comment}, ${CommentType.Code}, ${CommentType.Review})
      )`)
      .where(
        sql`uid > 0 AND NOT EXISTS (
          SELECT 1 FROM ${issueWatches} WHERE ${issueWatches.issueId} = ${issue} AND ${issueWatches.isWatching} = 0 AND ${issueWatches.userId} = uid
        )`,
      )
      .prepare(),
  ).all({ issueId, repoId });
  return rows.map((r) => r.uid);
}

/**
 * One thread per user and issue (Gitea's createIssueNotification / updateIssueNotification). A new
 * event moves an existing thread up (updated_unix) and names the doer; only a thread that was read
 * becomes unread again and points at the new comment: an unread one keeps its older comment so
 * nothing in between is skipped, and a pinned one stays pinned.
 */
export function upsertIssueNotification(
  tx: Tx,
  n: { userId: number; repoId: number; issueId: number; source: number; commentId: number; updatedBy: number; unix: number },
): void {
  const wasRead = sql`${notifications.status} = ${NotificationStatus.Read}`;
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
        // SQLite evaluates every SET expression against the old row, so both see the old status.
        status: sql`CASE WHEN ${wasRead} THEN ${NotificationStatus.Unread} ELSE ${notifications.status} END`,
        commentId: sql`CASE WHEN ${wasRead} THEN ${n.commentId} ELSE ${notifications.commentId} END`,
        updatedBy: n.updatedBy,
        updatedUnix: n.unix,
      },
    })
    .run();
}

/** Threads of a deleted issue go with it, as in Gitea's deleteIssue. */
export function deleteIssueNotifications(tx: Tx, issueId: number): void {
  tx.delete(notifications)
    .where(and(eq(notifications.issueId, issueId), inArray(notifications.source, [NotificationSource.Issue, NotificationSource.PullRequest])))
    .run();
}

/**
 * The newest comment of the given types on an issue, optionally about one assignee: the timeline
 * event an edit just recorded (close, reopen, assignment), which the thread points at.
 */
export function latestCommentOfTypes(tx: Tx, issueId: number, types: number[], assigneeId?: number): CommentRow | undefined {
  return tx
    .select()
    .from(comments)
    .where(
      and(
        eq(comments.issueId, issueId),
        inArray(comments.type, types),
        assigneeId === undefined ? undefined : eq(comments.assigneeId, assigneeId),
      ),
    )
    .orderBy(desc(comments.createdUnix), desc(comments.id))
    .limit(1)
    .get();
}

/** Gitea's Issue.GetLastComment for many issues: the newest plain comment of each, one index seek per issue. */
export function lastCommentsOfIssues(tx: Tx, issueIds: number[]): Map<number, CommentRow> {
  const out = new Map<number, CommentRow>();
  if (issueIds.length === 0) return out;
  const rows = prepared(tx, "comment.lastOfIssues", (t) =>
    t
      .select()
      .from(comments)
      .where(
        inArray(
          comments.id,
          sql`(SELECT (SELECT c.id FROM ${comments} AS c WHERE c.issue_id = j.value AND c.type = ${CommentType.Comment} ORDER BY c.created_unix DESC, c.id DESC LIMIT 1) FROM json_each(${sql.placeholder("ids")}) AS j)`,
        ),
      )
      .prepare(),
  ).all(idsParam(issueIds));
  for (const row of rows) out.set(row.issueId, row);
  return out;
}

/**
 * Gitea's FindNotificationOptions, plus `visible`: per source, the repositories whose threads the
 * user may still see (the caller decides with the permission function), or "all" when every thread
 * is. Anything not listed there is left out.
 */
export interface NotificationFilter {
  userId: number;
  repoId?: number;
  statuses?: number[];
  sources?: number[];
  /** updated_unix >= this */
  updatedAfter?: number;
  /** updated_unix <= this */
  updatedBefore?: number;
  visible: Map<number, number[]> | "all";
}

function where(f: NotificationFilter): SQL {
  const conds: SQL[] = [eq(notifications.userId, f.userId)];
  if (f.repoId) conds.push(eq(notifications.repoId, f.repoId));
  if (f.statuses?.length) conds.push(inArray(notifications.status, f.statuses));
  if (f.sources?.length) conds.push(inArray(notifications.source, f.sources));
  if (f.updatedAfter) conds.push(gte(notifications.updatedUnix, f.updatedAfter));
  if (f.updatedBefore) conds.push(lte(notifications.updatedUnix, f.updatedBefore));
  if (f.visible !== "all") {
    const visible: SQL[] = [];
    for (const [source, repoIds] of f.visible) {
      if (repoIds.length) visible.push(and(eq(notifications.source, source), inArray(notifications.repoId, repoIds))!);
    }
    conds.push(visible.length ? or(...visible)! : sql`0`);
  }
  return and(...conds)!;
}

/** Which repositories (and sources) a user has threads in, for deciding what is still visible. */
export function threadRepos(tx: Tx, userId: number, repoId?: number): { repoId: number; source: number }[] {
  return tx
    .selectDistinct({ repoId: notifications.repoId, source: notifications.source })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), repoId ? eq(notifications.repoId, repoId) : undefined))
    .all();
}

/**
 * Newest first, as Gitea orders them (id breaks ties within a second). One ordered branch per
 * status, merged by SQLite: the (user, status, updated) index then yields the page in order, where a
 * single `status IN (...)` made the planner sort every thread of a busy account.
 */
export function findNotifications(tx: Tx, f: NotificationFilter, page?: { limit: number; offset: number }): NotificationRow[] {
  const statuses = f.statuses?.length ? f.statuses : Object.values(NotificationStatus);
  const branch = (status: number) =>
    sql`SELECT ${notifications.id} AS id, ${notifications.updatedUnix} AS updated FROM ${notifications} WHERE ${where({ ...f, statuses: [status] })}`;
  const paging = page ? sql` LIMIT ${page.limit} OFFSET ${page.offset}` : sql``;
  const ids = tx
    .all<{ id: number }>(sql`${sql.join(statuses.map(branch), sql` UNION ALL `)} ORDER BY updated DESC, id DESC${paging}`)
    .map((r) => r.id);
  if (ids.length === 0) return [];
  return inIdOrder(
    ids,
    prepared(tx, "notification.byIds", (t) => t.select().from(notifications).where(inIdsPlaceholder(notifications.id)).prepare()).all(idsParam(ids)),
  );
}

export function countNotifications(tx: Tx, f: NotificationFilter): number {
  return tx.select({ n: count() }).from(notifications).where(where(f)).get()?.n ?? 0;
}

export function getNotification(tx: Tx, id: number): NotificationRow | undefined {
  return tx.select().from(notifications).where(eq(notifications.id, id)).get();
}

/** Gitea's SetNotificationStatus: the status changes and, as xorm's `updated` column does, the time. */
export function setNotificationStatus(tx: Tx, id: number, status: number, unix: number): NotificationRow | undefined {
  return tx.update(notifications).set({ status, updatedUnix: unix }).where(eq(notifications.id, id)).returning().get();
}
