import type { Env } from "../env.ts";
import type { Tx } from "../../db/client.ts";
import { CommentType, NotificationSource, type IssueRow, type RepoRow, type UserRow } from "../../db/schema/index.ts";
import * as notifications from "../../models/notification.ts";
import * as users from "../../models/user.ts";
import { assigneeIdsOfIssues } from "../../models/issue.ts";
import { repoPermission } from "../access/permission.ts";
import { nowUnix } from "../../lib/time.ts";
import type { IssueEvent } from "../issue/hooks.ts";
import { resolveMentions } from "./mentions.ts";

/**
 * One push of Gitea's notification queue: to everyone watching the issue (`"watchers"`: Gitea's
 * receiverID 0, which leaves out the doer and those who unsubscribed from the issue), or to
 * named receivers (an assignee, mentioned users), who are told even if they unsubscribed.
 */
interface Delivery {
  to: "watchers" | number[];
  commentId: number;
}

/**
 * Gitea's UI notifier for issue events: which events notify whom.
 * - created: each assignee (Gitea assigns with notification), then the watchers, then mentioned users;
 * - edited: a new assignee; everyone watching when it was closed or reopened (title, body, labels,
 *   milestone and deadline changes notify nobody);
 * - commented: the watchers and the users the comment mentions;
 * - deleted: the issue's threads go.
 * Nobody hears of their own doing, and nobody who cannot read the issue is told about it.
 * Runs in a transaction `tx` of the bus's worker, after the change committed (subscriber.ts).
 */
export function notifyIssueEvent(tx: Tx, env: Env, event: IssueEvent): void {
  if (event.kind === "deleted") {
    notifications.deleteIssueNotifications(tx, event.issue.id);
    return;
  }
  const { issue, repo, doer } = event;
  const owner = users.getUserById(tx, repo.ownerId);
  if (!owner) return;
  const deliveries: Delivery[] = [];
  const mentioned = (content: string) => resolveMentions(tx, env, issue, repo, owner, doer, content).map((u) => u.id);
  const assignment = (uid: number): Delivery => ({
    to: [uid],
    commentId: notifications.latestCommentOfTypes(tx, issue.id, [CommentType.Assignees], uid)?.id ?? 0,
  });
  switch (event.kind) {
    case "created":
      for (const uid of assigneeIdsOfIssues(tx, [issue.id]).get(issue.id) ?? []) deliveries.push(assignment(uid));
      deliveries.push({ to: "watchers", commentId: 0 });
      deliveries.push({ to: mentioned(issue.content), commentId: 0 });
      break;
    case "edited":
      for (const uid of event.assigned ?? []) deliveries.push(assignment(uid));
      if (event.before.isClosed !== issue.isClosed) {
        const type = issue.isClosed ? CommentType.Close : CommentType.Reopen;
        deliveries.push({ to: "watchers", commentId: notifications.latestCommentOfTypes(tx, issue.id, [type])?.id ?? 0 });
      }
      break;
    case "commented":
      deliveries.push({ to: "watchers", commentId: event.comment.id });
      deliveries.push({ to: mentioned(event.comment.content), commentId: event.comment.id });
      break;
  }
  deliver(tx, env, issue, repo, owner, doer, deliveries);
}

function deliver(tx: Tx, env: Env, issue: IssueRow, repo: RepoRow, owner: UserRow, doer: UserRow, deliveries: Delivery[]): void {
  const batches = deliveries.map((d) => ({
    commentId: d.commentId,
    to: (d.to === "watchers" ? notifications.issueAudience(tx, issue.id, repo.id) : d.to).filter((id) => id !== doer.id),
  }));
  const readers = canReadIssue(env, issue, repo, owner, batches.flatMap((b) => b.to));
  const now = nowUnix();
  for (const batch of batches) {
    for (const userId of batch.to) {
      if (!readers.has(userId)) continue;
      notifications.upsertIssueNotification(tx, {
        userId,
        repoId: repo.id,
        issueId: issue.id,
        source: issue.isPull ? NotificationSource.PullRequest : NotificationSource.Issue,
        commentId: batch.commentId,
        updatedBy: doer.id,
        unix: now,
      });
    }
  }
}

/** Gitea's CheckRepoUnitUser on each receiver: only those who can read the issue's unit. */
function canReadIssue(env: Env, issue: IssueRow, repo: RepoRow, owner: UserRow, ids: number[]): Set<number> {
  const unit = issue.isPull ? "pulls" : "issues";
  const unique = [...new Set(ids)];
  return new Set(
    users
      .getUsersByIds(env.db, unique)
      .filter((u) => repoPermission(env, u, repo, owner).canRead(unit))
      .map((u) => u.id),
  );
}
