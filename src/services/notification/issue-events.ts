import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { NotificationSource, type IssueRow, type RepoRow, type UserRow } from "../../db/schema/index.ts";
import * as notifications from "../../models/notification.ts";
import * as users from "../../models/user.ts";
import { repoPermission } from "../../auth/permission.ts";
import { nowUnix } from "../../lib/time.ts";
import type { IssueEvent } from "../issue/hooks.ts";

/**
 * Gitea's notification rule for issue events: everyone who watches the repository or the issue
 * (explicitly, or by having posted, commented, been assigned or mentioned) gets an unread thread for
 * the issue, except the doer, those who unsubscribed from it, and those who cannot read it.
 */
export function notifyIssueEvent(env: Env, event: IssueEvent): void {
  if (event.kind === "deleted") return;
  const { issue, repo, doer } = event;
  const recipients = notifications.issueAudience(env.db, issue.id, repo.id).filter((id) => id !== doer.id);
  if (recipients.length === 0) return;
  const owner = users.getUserById(env.db, repo.ownerId);
  if (!owner) return;
  const readers = users.getUsersByIds(env.db, recipients).filter((u) => canRead(env, u, repo, owner, issue));
  const now = nowUnix();
  writeTx(env.db, (tx) => {
    for (const user of readers) {
      notifications.upsertIssueNotification(tx, {
        userId: user.id,
        repoId: repo.id,
        issueId: issue.id,
        source: issue.isPull ? NotificationSource.PullRequest : NotificationSource.Issue,
        commentId: event.kind === "commented" ? event.comment.id : 0,
        updatedBy: doer.id,
        unix: now,
      });
    }
  });
}

function canRead(env: Env, user: UserRow, repo: RepoRow, owner: UserRow, issue: IssueRow): boolean {
  return user.isActive && !user.prohibitLogin && repoPermission(env, user, repo, owner).canRead(issue.isPull ? "pulls" : "issues");
}
