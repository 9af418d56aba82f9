import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import {
  NotificationSource,
  NotificationStatus,
  type CommentRow,
  type IssueRow,
  type NotificationRow,
  type UserRow,
} from "../../db/schema/index.ts";
import * as notifications from "../../models/notification.ts";
import { getRepoById, getReposByIds } from "../../models/repo.ts";
import { getIssuesByIds } from "../../models/issue.ts";
import { Forbidden, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import type { RepoContext } from "../repo/lookup.ts";
import { withContext } from "../repo/list.ts";

export type ThreadStatus = "unread" | "read" | "pinned";
export type SubjectType = "Issue" | "Pull" | "Commit" | "Repository";

const STATUS: Record<ThreadStatus, number> = {
  unread: NotificationStatus.Unread,
  read: NotificationStatus.Read,
  pinned: NotificationStatus.Pinned,
};
const SOURCE: Record<string, number> = {
  issue: NotificationSource.Issue,
  pull: NotificationSource.PullRequest,
  commit: NotificationSource.Commit,
  repository: NotificationSource.Repository,
};
const SUBJECT: Record<number, SubjectType> = {
  [NotificationSource.Issue]: "Issue",
  [NotificationSource.PullRequest]: "Pull",
  [NotificationSource.Commit]: "Commit",
  [NotificationSource.Repository]: "Repository",
};

/** Gitea's statusStringToNotificationStatus: 0 for an unknown name. */
export function statusByName(name: string): number {
  return STATUS[name.trim().toLowerCase() as ThreadStatus] ?? 0;
}

/** The status a change moves threads to: `to-status`, read when missing or unknown. */
export function targetStatus(name: string | null): number {
  return statusByName(name ?? "") || NotificationStatus.Read;
}

/** Gitea's subjectToSource: 0 for an unknown subject type. */
export function sourceByName(name: string): number {
  return SOURCE[name.toLowerCase()] ?? 0;
}

/** A thread with what its JSON shows: the repository as the viewer sees it, the issue and its last comment. */
export interface ThreadView {
  notification: NotificationRow;
  status: ThreadStatus;
  subjectType: SubjectType;
  rc: RepoContext;
  issue?: IssueRow;
  lastComment?: CommentRow;
}

/** Who is asking: the user (a public-only token's doer sees no thread of a repository out of its reach). */
export interface Viewer {
  user: UserRow;
}

/** Gitea's FindNotificationOptions as the routes fill them (an empty list filters nothing). */
export interface ThreadQuery {
  repoId?: number;
  statuses: number[];
  sources: number[];
  updatedAfter?: number;
  updatedBefore?: number;
}

/**
 * Per source, the repositories whose threads the viewer may still see, with their contexts. A thread
 * stays in the table when its user loses access to the repository (as in Gitea), but it is never
 * shown, counted or changed through the API again while the access is gone: its title and state
 * would leak. Hearth creates issue and pull request threads only; repository threads (transfers)
 * are shown to whoever can see the repository.
 */
function visibility(env: Env, viewer: Viewer, repoId?: number) {
  const pairs = notifications.threadRepos(env.db, viewer.user.id, repoId);
  const rows = getReposByIds(env.db, [...new Set(pairs.map((p) => p.repoId))]);
  const contexts = new Map(
    withContext(env, viewer.user, rows).map((rc) => [rc.repo.id, rc]),
  );
  const visible = new Map<number, number[]>();
  const allow = (source: number, id: number) => {
    const ids = visible.get(source);
    if (ids) ids.push(id);
    else visible.set(source, [id]);
  };
  for (const rc of contexts.values()) {
    if (rc.perm.canRead("issues")) allow(NotificationSource.Issue, rc.repo.id);
    if (rc.perm.canRead("pulls")) allow(NotificationSource.PullRequest, rc.repo.id);
    if (rc.perm.hasAccess()) allow(NotificationSource.Repository, rc.repo.id);
  }
  // Usually every thread is still visible: then the lists need no condition on repositories at all.
  const everything = pairs.every((p) => visible.get(p.source)?.includes(p.repoId));
  return { visible: everything ? "all" as const : visible, contexts };
}

function views(env: Env, rows: NotificationRow[], contexts: Map<number, RepoContext>): ThreadView[] {
  const issueIds = [...new Set(rows.map((n) => n.issueId).filter((id) => id > 0))];
  const issues = new Map(getIssuesByIds(env.db, issueIds).map((i) => [i.id, i]));
  const lastComments = notifications.lastCommentsOfIssues(env.db, issueIds);
  // A deleted issue's threads go in the deletion's transaction; one the event worker wrote just
  // before it processed the deletion is not shown meanwhile.
  const shown = rows.filter((n) => n.issueId === 0 || issues.has(n.issueId));
  return shown.map((notification) => ({
    notification,
    status: notification.status === NotificationStatus.Pinned ? "pinned" : notification.status === NotificationStatus.Read ? "read" : "unread",
    subjectType: SUBJECT[notification.source] ?? "Issue",
    rc: contexts.get(notification.repoId)!,
    issue: issues.get(notification.issueId),
    lastComment: lastComments.get(notification.issueId),
  }));
}

function filterOf(viewer: Viewer, q: ThreadQuery, visible: notifications.NotificationFilter["visible"]): notifications.NotificationFilter {
  return { userId: viewer.user.id, ...q, visible };
}

/** GET /notifications and /repos/{owner}/{repo}/notifications: a page of threads, newest first. */
export function listThreads(env: Env, viewer: Viewer, q: ThreadQuery, page: { limit: number; offset: number }) {
  const { visible, contexts } = visibility(env, viewer, q.repoId);
  const filter = filterOf(viewer, q, visible);
  const total = notifications.countNotifications(env.db, filter);
  const rows = notifications.findNotifications(env.db, filter, page);
  return { views: views(env, rows, contexts), total };
}

/** GET /notifications/new: how many unread threads the viewer has. */
export function countUnread(env: Env, viewer: Viewer): number {
  const { visible } = visibility(env, viewer);
  return notifications.countNotifications(env.db, filterOf(viewer, { statuses: [NotificationStatus.Unread], sources: [] }, visible));
}

/**
 * PUT /notifications and /repos/{owner}/{repo}/notifications: every matching thread (no paging)
 * moves to `to`; the changed threads come back.
 */
export function markThreads(env: Env, viewer: Viewer, q: ThreadQuery, to: number): ThreadView[] {
  const { visible, contexts } = visibility(env, viewer, q.repoId);
  const rows = notifications.findNotifications(env.db, filterOf(viewer, q, visible));
  const now = nowUnix();
  const changed = writeTx(env.db, (tx) => rows.map((n) => notifications.setNotificationStatus(tx, n.id, to, now) ?? n));
  return views(env, changed, contexts);
}

/**
 * Gitea's getThread: 404 for no such thread, 403 for someone else's unless the doer is a site admin.
 * A thread the doer can no longer see (repository access lost, issue gone) is reported as missing.
 */
export function getThread(env: Env, viewer: Viewer, id: number): ThreadView {
  const missing = () => new NotFound(id ? `notification does not exist [id: ${id}]` : "notification does not exist");
  const n = notifications.getNotification(env.db, id);
  if (!n) throw missing();
  if (n.userId !== viewer.user.id && !viewer.user.isAdmin) {
    throw new Forbidden(`only user itself and admin are allowed to read/change this thread ${n.id}`);
  }
  const repo = getRepoById(env.db, n.repoId);
  const rc = repo && withContext(env, viewer.user, [repo])[0];
  if (!rc) throw missing();
  const source = n.source;
  const unitReadable =
    source === NotificationSource.Issue
      ? rc.perm.canRead("issues")
      : source === NotificationSource.PullRequest
        ? rc.perm.canRead("pulls")
        : source === NotificationSource.Repository && rc.perm.hasAccess();
  if (!unitReadable) throw missing();
  const view = views(env, [n], new Map([[rc.repo.id, rc]]))[0]!;
  if ((source === NotificationSource.Issue || source === NotificationSource.PullRequest) && !view.issue) throw missing();
  return view;
}

/**
 * PATCH /notifications/threads/{id}. A site admin may read another user's thread but not change
 * it: Gitea answers that with a 500 ("Can't change notification of another user"), we with a 403.
 */
export function setThreadStatus(env: Env, viewer: Viewer, id: number, to: number): ThreadView {
  const view = getThread(env, viewer, id);
  const n = view.notification;
  if (n.userId !== viewer.user.id) {
    throw new Forbidden(`Can't change notification of another user: ${n.userId}, ${viewer.user.id}`);
  }
  const updated = writeTx(env.db, (tx) => notifications.setNotificationStatus(tx, n.id, to, nowUnix())) ?? n;
  return views(env, [updated], new Map([[view.rc.repo.id, view.rc]]))[0]!;
}
