import type { Settings } from "../config/settings.ts";
import type { UserRow } from "../db/schema/index.ts";
import type { IssueView } from "../services/issue/view.ts";
import { toRFC3339 } from "../lib/time.ts";
import { toAPIAttachment } from "./attachment.ts";
import { toAPILabel } from "./label.ts";
import { toAPIMilestone } from "./milestone.ts";
import { repoLinks } from "./repo.ts";
import { toAPIUser } from "./user.ts";
import type { APIIssue } from "../shapes/issue.ts";

/** Gitea's convert.ToAPIIssue. */
export function toAPIIssue(settings: Settings, v: IssueView, doer: UserRow | undefined): APIIssue {
  const { issue, repo, owner } = v;
  const links = repoLinks(settings, owner.name, repo.name);
  const kind = issue.isPull ? "pulls" : "issues";
  const assignees = v.assignees.map((u) => toAPIUser(settings, u, doer));
  return {
    id: issue.id,
    url: `${links.url}/issues/${issue.index}`,
    html_url: `${links.html_url}/${kind}/${issue.index}`,
    number: issue.index,
    user: toAPIUser(settings, v.poster, doer),
    original_author: issue.originalAuthor,
    original_author_id: issue.originalAuthorId,
    title: issue.title,
    body: issue.content,
    ref: issue.ref,
    assets: v.attachments.map((a) => toAPIAttachment(settings, a)),
    labels: v.labels.map((l) => toAPILabel(settings, l, l.orgId ? { org: owner.name } : { owner: owner.name, repo: repo.name })),
    milestone: v.milestone ? toAPIMilestone(v.milestone) : null,
    assignee: assignees[0] ?? null,
    assignees: assignees.length ? assignees : null,
    state: issue.isClosed ? "closed" : "open",
    is_locked: issue.isLocked,
    comments: issue.numComments,
    created_at: toRFC3339(issue.createdUnix),
    updated_at: toRFC3339(issue.updatedUnix),
    closed_at: issue.isClosed && issue.closedUnix ? toRFC3339(issue.closedUnix) : null,
    due_date: issue.deadlineUnix ? toRFC3339(issue.deadlineUnix) : null,
    time_estimate: issue.timeEstimate,
    pull_request: v.pull
      ? {
          merged: v.pull.merged,
          merged_at: v.pull.merged ? toRFC3339(v.pull.mergedUnix) : null,
          draft: v.pull.draft,
          html_url: `${links.html_url}/pulls/${issue.index}`,
        }
      : null,
    repository: { id: repo.id, name: repo.name, owner: owner.name, full_name: `${owner.name}/${repo.name}` },
    pin_order: issue.pinOrder,
  };
}
