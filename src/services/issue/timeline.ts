import type { Env } from "../env.ts";
import { CommentType, type CommentRow, type LabelRow, type MilestoneRow, type TeamRow, type TeamUnitRow, type UserRow } from "../../db/schema/index.ts";
import { getTeamsByIds, unitsOfTeams } from "../../models/team.ts";
import * as comments from "../../models/comment.ts";
import * as issues from "../../models/issue.ts";
import * as labels from "../../models/label.ts";
import * as times from "../../models/tracked-time.ts";
import * as users from "../../models/user.ts";
import { ghostUser } from "../user/profile.ts";
import { issueAccess } from "./access.ts";
import { commentViews, type CommentView } from "./comments.ts";
import type { IssueContext } from "./lookup.ts";
import { trackedTimeViews, type TrackedTimeView } from "./times.ts";
import type { IssueView } from "./view.ts";

/** One timeline entry (a comment row of any type) with everything its JSON shows. */
export interface TimelineView {
  comment: CommentRow;
  /** The issue and repository the entry belongs to (for its URLs). */
  context: IssueContext;
  poster: UserRow;
  oldMilestone: MilestoneRow | undefined;
  milestone: MilestoneRow | undefined;
  assignee: UserRow | undefined;
  /** A team asked (or no longer asked) for a review, with its units and organization. */
  assigneeTeam: { team: TeamRow; units: TeamUnitRow[]; org: UserRow } | undefined;
  label: { row: LabelRow; home: { org: string } | { owner: string; repo: string } } | undefined;
  trackedTime: TrackedTimeView | undefined;
  refIssue: IssueView | undefined;
  refComment: CommentView | undefined;
  dependentIssue: IssueView | undefined;
  /** For a time-tracking event whose body Gitea 1.21+ stores as `|<seconds>`: the seconds. */
  storedSeconds: number | undefined;
}

/** The time-tracking events whose body may be stored as `|<seconds>`. */
const TIME_TYPES = new Set<number>([CommentType.AddTimeManual, CommentType.StopTracking, CommentType.DeleteTimeManual]);

/** Gitea's CommentTypeIsRef: the cross-reference events, which may point into other repositories. */
const REF_TYPES = new Set<number>([CommentType.IssueRef, CommentType.CommitRef, CommentType.CommentRef, CommentType.PullRef]);

export interface TimelineQuery {
  sinceUnix?: number;
  beforeUnix?: number;
  /** Gitea pages only when `page` is given; without it every entry comes back. */
  page?: { offset: number; limit: number };
}

/**
 * Gitea's ListIssueCommentsAndTimeline: every comment row of the issue (plain comments and events),
 * oldest first, except code comments (reviews own those) and cross-references from repositories
 * or units the doer cannot read. Issues the entries point at (dependencies, references, the issue
 * of a tracked time) are shown only where the doer reads them; Gitea shows them regardless.
 */
export function issueTimeline(env: Env, doer: UserRow | undefined, ic: IssueContext, q: TimelineQuery): TimelineView[] {
  const bound = (unix: number | undefined) => (unix !== undefined && unix > 0 ? unix : undefined);
  const window = { issueId: ic.issue.id, sinceUnix: bound(q.sinceUnix), beforeUnix: bound(q.beforeUnix) };
  const { rows: all } = comments.findComments(env.db, window, q.page);
  const access = issueAccess(env, doer, [ic]);
  const rows = all.filter((c) => {
    if (c.type === CommentType.Code) return false;
    if (!REF_TYPES.has(c.type) || c.refRepoId === 0 || c.refRepoId === ic.repo.id) return true;
    return access.canRead({ repoId: c.refRepoId, isPull: c.refIsPull });
  });

  const people = new Map(
    users.getUsersByIds(env.db, [...new Set(rows.flatMap((c) => [c.posterId, c.assigneeId]).filter((id) => id > 0))]).map((u) => [u.id, u]),
  );
  const milestones = issues.milestonesByIds(env.db, rows.flatMap((c) => [c.oldMilestoneId, c.milestoneId]));
  const teamRows = new Map(getTeamsByIds(env.db, [...new Set(rows.map((c) => c.assigneeTeamId).filter((id) => id > 0))]).map((t) => [t.id, t]));
  const teamUnits = unitsOfTeams(env.db, [...teamRows.keys()]);
  const labelRows = new Map(labels.getLabelsByIds(env.db, [...new Set(rows.map((c) => c.labelId).filter((id) => id > 0))]).map((l) => [l.id, l]));
  const timeRows = times.getTrackedTimesByIds(env.db, rows.map((c) => c.timeId).filter((id) => id > 0));
  const timeViews = new Map(trackedTimeViews(env, access, timeRows).map((t) => [t.time.id, t]));
  const linked = issues
    .getIssuesByIds(env.db, [...new Set(rows.flatMap((c) => [c.dependentIssueId, c.refIssueId]).filter((id) => id > 0))])
    .filter((i) => access.canRead(i));
  const linkedViews = new Map(access.views(linked).map((v) => [v.issue.id, v]));
  const refComments = refCommentViews(env, rows, linkedViews);

  return rows.map((comment) => {
    const label = labelRows.get(comment.labelId);
    return {
      comment,
      context: ic,
      poster: people.get(comment.posterId) ?? ghostUser(),
      oldMilestone: milestones.get(comment.oldMilestoneId),
      milestone: milestones.get(comment.milestoneId),
      // Gitea shows a deleted assignee as the Ghost user.
      assignee: comment.assigneeId > 0 ? (people.get(comment.assigneeId) ?? ghostUser()) : undefined,
      // Review requests go only to teams of the repository's own organization.
      assigneeTeam: teamRows.has(comment.assigneeTeamId)
        ? { team: teamRows.get(comment.assigneeTeamId)!, units: teamUnits.get(comment.assigneeTeamId) ?? [], org: ic.owner }
        : undefined,
      label: label && { row: label, home: labelHome(env, ic, label) },
      trackedTime: timeViews.get(comment.timeId),
      refIssue: linkedViews.get(comment.refIssueId),
      refComment: refComments.get(comment.refCommentId),
      dependentIssue: linkedViews.get(comment.dependentIssueId),
      storedSeconds: TIME_TYPES.has(comment.type) && comment.content.startsWith("|") ? Number(comment.content.slice(1)) || 0 : undefined,
    };
  });
}

/** The comments that cross-references point at, where the doer reads the issue they are on. */
function refCommentViews(env: Env, rows: CommentRow[], readable: Map<number, IssueView>): Map<number, CommentView> {
  const out = new Map<number, CommentView>();
  for (const c of rows) {
    if (c.refCommentId <= 0 || out.has(c.refCommentId)) continue;
    const ref = comments.getCommentById(env.db, c.refCommentId);
    const issue = ref && readable.get(ref.issueId);
    if (ref && issue) out.set(ref.id, commentViews(env, issue, [ref], [issue.issue])[0]!);
  }
  return out;
}

/** Where a label lives, for its URL: the organization, or the repository (normally this one). */
function labelHome(env: Env, ic: IssueContext, label: LabelRow): { org: string } | { owner: string; repo: string } {
  if (label.orgId) return { org: label.orgId === ic.owner.id ? ic.owner.name : (users.getUserById(env.db, label.orgId)?.name ?? "") };
  return { owner: ic.owner.name, repo: ic.repo.name };
}
