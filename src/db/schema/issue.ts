import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./user.ts";
import { repositories } from "./repo.ts";

/**
 * The issue tracker, in Gitea's tables. Issues and pull requests share one table and one per-repository
 * index sequence (`issue_index`); `poster_id` and similar user references are not foreign keys, because
 * a deleted account's issues stay (shown as the Ghost user), as in Gitea.
 */

/** The last issue/pull number handed out per repository. */
export const issueIndexes = sqliteTable("issue_index", {
  repoId: integer("repo_id")
    .primaryKey()
    .references(() => repositories.id, { onDelete: "cascade" }),
  maxIndex: integer("max_index").notNull().default(0),
});

export const issues = sqliteTable(
  "issue",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    repoId: integer("repo_id")
      .notNull()
      .references(() => repositories.id, { onDelete: "cascade" }),
    index: integer("index").notNull(),
    posterId: integer("poster_id").notNull(),
    originalAuthor: text("original_author").notNull().default(""),
    originalAuthorId: integer("original_author_id").notNull().default(0),
    title: text("name").notNull(),
    content: text("content").notNull().default(""),
    contentVersion: integer("content_version").notNull().default(0),
    milestoneId: integer("milestone_id").notNull().default(0),
    priority: integer("priority").notNull().default(0),
    isClosed: integer("is_closed", { mode: "boolean" }).notNull().default(false),
    isPull: integer("is_pull", { mode: "boolean" }).notNull().default(false),
    numComments: integer("num_comments").notNull().default(0),
    ref: text("ref").notNull().default(""),
    pinOrder: integer("pin_order").notNull().default(0),
    deadlineUnix: integer("deadline_unix").notNull().default(0),
    isLocked: integer("is_locked", { mode: "boolean" }).notNull().default(false),
    timeEstimate: integer("time_estimate").notNull().default(0),
    createdUnix: integer("created_unix").notNull(),
    updatedUnix: integer("updated_unix").notNull(),
    closedUnix: integer("closed_unix").notNull().default(0),
  },
  (t) => [
    uniqueIndex("issue_repo_index_uq").on(t.repoId, t.index),
    // A poster's or a milestone's issues, by kind and state, newest first: filtered lists read and
    // count from the index alone.
    index("issue_poster_idx").on(t.posterId, t.repoId, t.isPull, t.isClosed, t.createdUnix),
    index("issue_milestone_idx").on(t.milestoneId, t.isPull, t.isClosed, t.createdUnix),
    index("issue_updated_idx").on(t.updatedUnix),
    // One index per list order Gitea offers, led by what every list fixes (repository, kind, state),
    // so a page is read in order from the index and the rows skipped by an offset are never loaded.
    index("issue_list_created_idx").on(t.repoId, t.isPull, t.isClosed, t.createdUnix),
    // Issues and pull requests together (Gitea's default list), by creation: open ones, and all.
    index("issue_list_any_created_idx").on(t.repoId, t.isClosed, t.createdUnix),
    index("issue_list_all_created_idx").on(t.repoId, t.createdUnix),
    index("issue_list_updated_idx").on(t.repoId, t.isPull, t.isClosed, t.updatedUnix),
    index("issue_list_comments_idx").on(t.repoId, t.isPull, t.isClosed, t.numComments, t.createdUnix),
    index("issue_list_priority_idx").on(t.repoId, t.isPull, t.isClosed, t.priority, t.createdUnix),
    index("issue_list_deadline_idx").on(t.repoId, t.isPull, t.isClosed, t.deadlineUnix),
    // Searches across many repositories walk all issues newest first.
    index("issue_search_created_idx").on(t.isPull, t.isClosed, t.createdUnix),
  ],
);

/** Labels belong to a repository (`repo_id`) or to an organization (`org_id`), the other being 0. */
export const labels = sqliteTable(
  "label",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    repoId: integer("repo_id").notNull().default(0),
    orgId: integer("org_id").notNull().default(0),
    name: text("name").notNull(),
    exclusive: integer("exclusive", { mode: "boolean" }).notNull().default(false),
    exclusiveOrder: integer("exclusive_order").notNull().default(0),
    description: text("description").notNull().default(""),
    color: text("color").notNull(),
    numIssues: integer("num_issues").notNull().default(0),
    numClosedIssues: integer("num_closed_issues").notNull().default(0),
    createdUnix: integer("created_unix").notNull(),
    updatedUnix: integer("updated_unix").notNull(),
    /** When the label was archived; 0 while it is not. */
    archivedUnix: integer("archived_unix").notNull().default(0),
  },
  (t) => [index("label_repo_idx").on(t.repoId), index("label_org_idx").on(t.orgId)],
);

export const issueLabels = sqliteTable(
  "issue_label",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    issueId: integer("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    labelId: integer("label_id")
      .notNull()
      .references(() => labels.id, { onDelete: "cascade" }),
  },
  (t) => [uniqueIndex("issue_label_uq").on(t.issueId, t.labelId), index("issue_label_label_idx").on(t.labelId, t.issueId)],
);

export const milestones = sqliteTable(
  "milestone",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    repoId: integer("repo_id")
      .notNull()
      .references(() => repositories.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    content: text("content").notNull().default(""),
    isClosed: integer("is_closed", { mode: "boolean" }).notNull().default(false),
    numIssues: integer("num_issues").notNull().default(0),
    numClosedIssues: integer("num_closed_issues").notNull().default(0),
    deadlineUnix: integer("deadline_unix").notNull().default(0),
    /** The last time the milestone was closed; 0 if never. */
    closedDateUnix: integer("closed_date_unix").notNull().default(0),
    createdUnix: integer("created_unix").notNull(),
    updatedUnix: integer("updated_unix").notNull(),
  },
  (t) => [index("milestone_repo_idx").on(t.repoId)],
);

/** Gitea's CommentType numbers (plain comments are 0; the rest make up the timeline). */
export const CommentType = {
  Comment: 0,
  Reopen: 1,
  Close: 2,
  IssueRef: 3,
  CommitRef: 4,
  CommentRef: 5,
  PullRef: 6,
  Label: 7,
  Milestone: 8,
  Assignees: 9,
  ChangeTitle: 10,
  DeleteBranch: 11,
  StartTracking: 12,
  StopTracking: 13,
  AddTimeManual: 14,
  CancelTracking: 15,
  AddedDeadline: 16,
  ModifiedDeadline: 17,
  RemovedDeadline: 18,
  AddDependency: 19,
  RemoveDependency: 20,
  Code: 21,
  Review: 22,
  Lock: 23,
  Unlock: 24,
  ChangeTargetBranch: 25,
  DeleteTimeManual: 26,
  ReviewRequest: 27,
  MergePull: 28,
  PullRequestPush: 29,
  Project: 30,
  ProjectColumn: 31,
  DismissReview: 32,
  ChangeIssueRef: 33,
  PRScheduledToAutoMerge: 34,
  PRUnScheduledToAutoMerge: 35,
  Pin: 36,
  Unpin: 37,
} as const;

export const comments = sqliteTable(
  "comment",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    type: integer("type").notNull().default(0),
    posterId: integer("poster_id").notNull(),
    originalAuthor: text("original_author").notNull().default(""),
    originalAuthorId: integer("original_author_id").notNull().default(0),
    issueId: integer("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    /**
     * The issue's repository, copied when the comment is written (an issue never changes repository):
     * a repository's comments are then listed and counted from one index, with no join to the issues.
     */
    repoId: integer("repo_id").notNull().default(0),
    labelId: integer("label_id").notNull().default(0),
    oldMilestoneId: integer("old_milestone_id").notNull().default(0),
    milestoneId: integer("milestone_id").notNull().default(0),
    assigneeId: integer("assignee_id").notNull().default(0),
    /** A review request to (or withdrawn from) a team rather than a user. */
    assigneeTeamId: integer("assignee_team_id").notNull().default(0),
    removedAssignee: integer("removed_assignee", { mode: "boolean" }).notNull().default(false),
    oldTitle: text("old_title").notNull().default(""),
    newTitle: text("new_title").notNull().default(""),
    oldRef: text("old_ref").notNull().default(""),
    newRef: text("new_ref").notNull().default(""),
    dependentIssueId: integer("dependent_issue_id").notNull().default(0),
    timeId: integer("time_id").notNull().default(0),
    refRepoId: integer("ref_repo_id").notNull().default(0),
    refIssueId: integer("ref_issue_id").notNull().default(0),
    refCommentId: integer("ref_comment_id").notNull().default(0),
    refAction: integer("ref_action").notNull().default(0),
    refIsPull: integer("ref_is_pull", { mode: "boolean" }).notNull().default(false),
    commitSha: text("commit_sha").notNull().default(""),
    // Code review comments (type Code): the file, the line (negative: the old side), the diff hunk, the review.
    treePath: text("tree_path").notNull().default(""),
    line: integer("line").notNull().default(0),
    patch: text("patch").notNull().default(""),
    reviewId: integer("review_id").notNull().default(0),
    invalidated: integer("invalidated", { mode: "boolean" }).notNull().default(false),
    content: text("content").notNull().default(""),
    contentVersion: integer("content_version").notNull().default(0),
    createdUnix: integer("created_unix").notNull(),
    updatedUnix: integer("updated_unix").notNull(),
  },
  (t) => [
    index("comment_issue_idx").on(t.issueId, t.createdUnix),
    index("comment_updated_idx").on(t.updatedUnix),
    index("comment_repo_list_idx").on(t.repoId, t.type, t.createdUnix),
    // Who took part in an issue (its notification audience, asked for every new issue and
    // comment): read from the index alone, not from every comment row of the issue.
    index("comment_issue_poster_idx").on(t.issueId, t.type, t.posterId),
  ],
);

export const reactions = sqliteTable(
  "reaction",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    type: text("type").notNull(),
    issueId: integer("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    /** 0 for a reaction on the issue itself. */
    commentId: integer("comment_id").notNull().default(0),
    userId: integer("user_id").notNull(),
    originalAuthor: text("original_author").notNull().default(""),
    originalAuthorId: integer("original_author_id").notNull().default(0),
    createdUnix: integer("created_unix").notNull(),
  },
  (t) => [
    uniqueIndex("reaction_uq").on(t.type, t.issueId, t.commentId, t.userId, t.originalAuthorId),
    index("reaction_comment_idx").on(t.commentId),
  ],
);

/** A file attached to an issue, a comment or a release; the bytes live under `APP_DATA_PATH/attachments`. */
export const attachments = sqliteTable(
  "attachment",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    uuid: text("uuid").notNull(),
    repoId: integer("repo_id")
      .notNull()
      .references(() => repositories.id, { onDelete: "cascade" }),
    issueId: integer("issue_id").notNull().default(0),
    releaseId: integer("release_id").notNull().default(0),
    commentId: integer("comment_id").notNull().default(0),
    uploaderId: integer("uploader_id").notNull().default(0),
    name: text("name").notNull(),
    downloadCount: integer("download_count").notNull().default(0),
    size: integer("size").notNull().default(0),
    createdUnix: integer("created_unix").notNull(),
  },
  (t) => [
    uniqueIndex("attachment_uuid_uq").on(t.uuid),
    index("attachment_issue_idx").on(t.issueId),
    index("attachment_comment_idx").on(t.commentId),
    index("attachment_release_idx").on(t.releaseId),
  ],
);

export const issueAssignees = sqliteTable(
  "issue_assignees",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    assigneeId: integer("assignee_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    issueId: integer("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
  },
  (t) => [uniqueIndex("issue_assignees_uq").on(t.issueId, t.assigneeId), index("issue_assignees_user_idx").on(t.assigneeId)],
);

/** Per user and issue: whether they were mentioned (Gitea's issue_user). */
export const issueUsers = sqliteTable(
  "issue_user",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    uid: integer("uid")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    issueId: integer("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    isRead: integer("is_read", { mode: "boolean" }).notNull().default(false),
    isMentioned: integer("is_mentioned", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [uniqueIndex("issue_user_uq").on(t.issueId, t.uid), index("issue_user_uid_idx").on(t.uid)],
);

/** An explicit subscription (or unsubscription) of a user to an issue. */
export const issueWatches = sqliteTable(
  "issue_watch",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    issueId: integer("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    isWatching: integer("is_watching", { mode: "boolean" }).notNull(),
    createdUnix: integer("created_unix").notNull(),
    updatedUnix: integer("updated_unix").notNull(),
  },
  (t) => [
    uniqueIndex("issue_watch_uq").on(t.userId, t.issueId),
    // An issue's subscribers and unsubscribers (its notification audience): without it every
    // subscription of the site is read for each new issue and comment.
    index("issue_watch_issue_idx").on(t.issueId, t.isWatching, t.userId),
  ],
);

/** `issue_id` is blocked by (depends on) `dependency_id`. */
export const issueDependencies = sqliteTable(
  "issue_dependency",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id").notNull(),
    issueId: integer("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    dependencyId: integer("dependency_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    createdUnix: integer("created_unix").notNull(),
    updatedUnix: integer("updated_unix").notNull(),
  },
  (t) => [uniqueIndex("issue_dependency_uq").on(t.issueId, t.dependencyId), index("issue_dependency_dep_idx").on(t.dependencyId)],
);

export const stopwatches = sqliteTable(
  "stopwatch",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    issueId: integer("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdUnix: integer("created_unix").notNull(),
  },
  (t) => [uniqueIndex("stopwatch_uq").on(t.userId, t.issueId)],
);

export const trackedTimes = sqliteTable(
  "tracked_time",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    issueId: integer("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull(),
    createdUnix: integer("created_unix").notNull(),
    /** Seconds. */
    time: integer("time").notNull(),
    deleted: integer("deleted", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [index("tracked_time_issue_idx").on(t.issueId), index("tracked_time_user_idx").on(t.userId)],
);

/** Gitea's notification status and source numbers. */
export const NotificationStatus = { Unread: 1, Read: 2, Pinned: 3 } as const;
export const NotificationSource = { Issue: 1, PullRequest: 2, Commit: 3, Repository: 4 } as const;

export const notifications = sqliteTable(
  "notification",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    repoId: integer("repo_id")
      .notNull()
      .references(() => repositories.id, { onDelete: "cascade" }),
    status: integer("status").notNull(),
    source: integer("source").notNull(),
    issueId: integer("issue_id").notNull().default(0),
    commitId: text("commit_id").notNull().default(""),
    commentId: integer("comment_id").notNull().default(0),
    updatedBy: integer("updated_by").notNull().default(0),
    createdUnix: integer("created_unix").notNull(),
    updatedUnix: integer("updated_unix").notNull(),
  },
  (t) => [
    index("notification_user_status_idx").on(t.userId, t.status, t.updatedUnix),
    // A deleted issue's threads are deleted with it.
    index("notification_issue_idx").on(t.issueId),
    uniqueIndex("notification_user_issue_uq").on(t.userId, t.repoId, t.source, t.issueId, t.commitId),
  ],
);

export type IssueRow = typeof issues.$inferSelect;
export type NewIssueRow = typeof issues.$inferInsert;
export type LabelRow = typeof labels.$inferSelect;
export type MilestoneRow = typeof milestones.$inferSelect;
export type CommentRow = typeof comments.$inferSelect;
export type NewCommentRow = typeof comments.$inferInsert;
export type ReactionRow = typeof reactions.$inferSelect;
export type AttachmentRow = typeof attachments.$inferSelect;
export type NotificationRow = typeof notifications.$inferSelect;
export type TrackedTimeRow = typeof trackedTimes.$inferSelect;
