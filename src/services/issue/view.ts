import type { Env } from "../env.ts";
import type { AttachmentRow, IssueRow, LabelRow, MilestoneRow, PullRequestRow, RepoRow, UserRow } from "../../db/schema/index.ts";
import * as issues from "../../models/issue.ts";
import * as users from "../../models/user.ts";
import { attachmentsOfIssues } from "../../models/attachment.ts";
import { ghostUser } from "../user/profile.ts";
import { pullsByIssueIds } from "../../models/pull.ts";
import { isWorkInProgress } from "../pull/draft.ts";

/** An issue with everything its JSON shows, loaded by the service. */
export interface IssueView {
  issue: IssueRow;
  repo: RepoRow;
  owner: UserRow;
  poster: UserRow;
  labels: LabelRow[];
  milestone: MilestoneRow | undefined;
  assignees: UserRow[];
  attachments: AttachmentRow[];
  /** For pull requests: Gitea's PullRequestMeta. */
  pull?: { merged: boolean; mergedUnix: number; draft: boolean };
}

/** What the caller already holds, so it is not loaded again. */
export interface KnownToView {
  /** Users at hand (the doer who just posted the issue). */
  users?: UserRow[];
  /** The issues were just created: no files are attached to them yet. */
  created?: boolean;
}

/** Loads what the Issue JSON shows for many issues at once (labels, milestones, assignees, posters, assets). */
export function issueViews(
  env: Env,
  repoOf: (issue: IssueRow) => { repo: RepoRow; owner: UserRow },
  rows: IssueRow[],
  known: KnownToView = {},
): IssueView[] {
  const ids = rows.map((i) => i.id);
  const labels = issues.labelsOfIssues(env.db, ids);
  const assignees = issues.assigneeIdsOfIssues(env.db, ids);
  const milestones = issues.milestonesByIds(env.db, rows.map((i) => i.milestoneId));
  const attachments = known.created ? new Map<number, AttachmentRow[]>() : attachmentsOfIssues(env.db, ids);
  const pulls = pullsByIssueIds(env.db, rows.filter((i) => i.isPull).map((i) => i.id));
  const people = new Map((known.users ?? []).map((u) => [u.id, u]));
  const userIds = new Set<number>(rows.map((i) => i.posterId));
  for (const list of assignees.values()) for (const id of list) userIds.add(id);
  for (const u of users.getUsersByIds(env.db, [...userIds].filter((id) => !people.has(id)))) people.set(u.id, u);
  return rows.map((issue) => ({
    ...repoOf(issue),
    issue,
    poster: people.get(issue.posterId) ?? ghostUser(),
    labels: labels.get(issue.id) ?? [],
    milestone: milestones.get(issue.milestoneId),
    assignees: (assignees.get(issue.id) ?? []).map((id) => people.get(id)).filter((u): u is UserRow => u !== undefined),
    attachments: attachments.get(issue.id) ?? [],
    pull: pullMeta(issue, pulls.get(issue.id)),
  }));
}

/** Gitea's PullRequestMeta of an issue that is a pull request. */
function pullMeta(issue: IssueRow, pull: PullRequestRow | undefined): IssueView["pull"] {
  if (!issue.isPull || !pull) return undefined;
  return { merged: pull.hasMerged, mergedUnix: pull.mergedUnix, draft: isWorkInProgress(issue.title) };
}

export function issueView(env: Env, repo: RepoRow, owner: UserRow, issue: IssueRow, known: KnownToView = {}): IssueView {
  return issueViews(env, () => ({ repo, owner }), [issue], known)[0]!;
}
