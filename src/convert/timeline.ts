import type { Settings } from "../config/settings.ts";
import type { UserRow } from "../db/schema/index.ts";
import type { TimelineView } from "../services/issue/timeline.ts";
import { secToTime } from "../lib/duration.ts";
import { toRFC3339 } from "../lib/time.ts";
import { toAPIComment } from "./comment.ts";
import { toAPIIssue } from "./issue.ts";
import { toAPILabel } from "./label.ts";
import { toAPIMilestone } from "./milestone.ts";
import { repoLinks } from "./repo.ts";
import { toAPITrackedTime } from "./tracked-time.ts";
import { toAPIUser } from "./user.ts";
import { toAPITeam } from "./team.ts";
import type { APITimelineComment } from "../shapes/issue-extras.ts";

/** Gitea's CommentType.String(), indexed by the type's number. */
const TYPE_NAMES = [
  "comment",
  "reopen",
  "close",
  "issue_ref",
  "commit_ref",
  "comment_ref",
  "pull_ref",
  "label",
  "milestone",
  "assignees",
  "change_title",
  "delete_branch",
  "start_tracking",
  "stop_tracking",
  "add_time_manual",
  "cancel_tracking",
  "added_deadline",
  "modified_deadline",
  "removed_deadline",
  "add_dependency",
  "remove_dependency",
  "code",
  "review",
  "lock",
  "unlock",
  "change_target_branch",
  "delete_time_manual",
  "review_request",
  "merge_pull",
  "pull_push",
  "project",
  "project_board",
  "dismiss_review",
  "change_issue_ref",
  "pull_scheduled_merge",
  "pull_cancel_scheduled_merge",
  "pin",
  "unpin",
  "change_time_estimate",
] as const;

/** Gitea's XRefAction.String(). */
const REF_ACTIONS = ["none", "closes", "reopens", "neutered"] as const;

/**
 * Gitea's convert.ToTimelineComment. Users are rendered as for an anonymous viewer, as Gitea passes
 * no doer for them; issues are rendered for the doer. Projects and resolved conversations do not
 * exist in hearth, so `resolve_doer` is null and the project ids 0.
 */
export function toAPITimelineComment(settings: Settings, v: TimelineView, doer: UserRow | undefined): APITimelineComment {
  const { comment, context } = v;
  const kind = context.issue.isPull ? "pulls" : "issues";
  const page = `${repoLinks(settings, context.owner.name, context.repo.name).html_url}/${kind}/${context.issue.index}`;
  // Gitea renders a time event stored as seconds in its older, readable form.
  const body = v.storedSeconds !== undefined ? secToTime(v.storedSeconds) : comment.content;
  return {
    id: comment.id,
    type: TYPE_NAMES[comment.type] ?? "",
    html_url: `${page}#issuecomment-${comment.id}`,
    pull_request_url: context.issue.isPull ? page : "",
    issue_url: context.issue.isPull ? "" : page,
    user: toAPIUser(settings, v.poster, undefined),
    body,
    created_at: toRFC3339(comment.createdUnix),
    updated_at: toRFC3339(comment.updatedUnix),
    old_project_id: 0,
    project_id: 0,
    old_milestone: v.oldMilestone ? toAPIMilestone(v.oldMilestone) : null,
    milestone: v.milestone ? toAPIMilestone(v.milestone) : null,
    tracked_time: v.trackedTime ? toAPITrackedTime(settings, v.trackedTime, doer) : null,
    old_title: comment.oldTitle,
    new_title: comment.newTitle,
    old_ref: comment.oldRef,
    new_ref: comment.newRef,
    ref_issue: v.refIssue ? toAPIIssue(settings, v.refIssue, doer) : null,
    ref_comment: v.refComment ? toAPIComment(settings, v.refComment) : null,
    ref_action: REF_ACTIONS[comment.refAction] ?? "",
    ref_commit_sha: comment.commitSha,
    review_id: comment.reviewId,
    label: v.label ? toAPILabel(settings, v.label.row, v.label.home) : null,
    assignee: v.assignee ? toAPIUser(settings, v.assignee, undefined) : null,
    assignee_team: v.assigneeTeam ? toAPITeam(settings, v.assigneeTeam.team, v.assigneeTeam.units, v.assigneeTeam.org) : null,
    removed_assignee: comment.removedAssignee,
    resolve_doer: null,
    dependent_issue: v.dependentIssue ? toAPIIssue(settings, v.dependentIssue, doer) : null,
  };
}
