import type { Settings } from "../config/settings.ts";
import type { ThreadView } from "../services/notification/threads.ts";
import { toRFC3339 } from "../lib/time.ts";
import { repoLinks } from "./repo.ts";
import type { APINotificationSubject, APINotificationThread } from "../shapes/notification.ts";

/**
 * Gitea's convert.ToNotificationThread. `repository` is the Repository JSON, which Gitea renders
 * without `permissions` (its parent too): the caller passes it already shaped.
 */
export function toAPINotificationThread(settings: Settings, view: ThreadView, repository: APINotificationThread["repository"]): APINotificationThread {
  const { notification: n, rc, issue, lastComment, subjectType } = view;
  const links = repoLinks(settings, rc.owner.name, rc.repo.name);
  const subject: APINotificationSubject = {
    title: "",
    url: "",
    latest_comment_url: "",
    html_url: "",
    latest_comment_html_url: "",
    type: subjectType,
    state: "",
  };
  if (subjectType === "Issue" || subjectType === "Pull") {
    if (issue) {
      const htmlUrl = `${links.html_url}/${issue.isPull ? "pulls" : "issues"}/${issue.index}`;
      subject.title = issue.title;
      subject.url = `${links.url}/issues/${issue.index}`;
      subject.html_url = htmlUrl;
      subject.state = issue.isClosed ? "closed" : "open";
      if (lastComment) {
        subject.latest_comment_url = `${links.url}/issues/comments/${lastComment.id}`;
        subject.latest_comment_html_url = `${htmlUrl}#issuecomment-${lastComment.id}`;
      }
    }
  } else if (subjectType === "Repository") {
    subject.title = `${rc.owner.name}/${rc.repo.name}`;
    // Gitea's own FIXME: a path relative to the site, kept for compatibility.
    subject.url = new URL(links.html_url).pathname;
    subject.html_url = links.html_url;
  }
  return {
    id: n.id,
    repository,
    subject,
    unread: view.status === "unread",
    pinned: view.status === "pinned",
    updated_at: toRFC3339(n.updatedUnix),
    url: `${settings.server.rootUrl}api/v1/notifications/threads/${n.id}`,
  };
}
