import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { repositories } from "./repo.ts";
import { issues } from "./issue.ts";

/**
 * Pull requests, reviews, branch protection, commit statuses and releases, in Gitea's tables. Lists of
 * ids and names (whitelists, status check contexts, conflicted files) are JSON arrays in text columns,
 * as Gitea stores them.
 */

/** Gitea's PullRequestStatus. */
export const PullStatus = { Conflict: 0, Checking: 1, Mergeable: 2, ManuallyMerged: 3, Error: 4, Empty: 5, AncestorFF: 6 } as const;

export const pullRequests = sqliteTable(
  "pull_request",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** 0: a pull request between branches (Gitea's PullRequestGitea); 1: an AGit flow request. */
    type: integer("type").notNull().default(0),
    status: integer("status").notNull().default(PullStatus.Checking),
    conflictedFiles: text("conflicted_files").notNull().default("[]"),
    commitsAhead: integer("commits_ahead").notNull().default(0),
    commitsBehind: integer("commits_behind").notNull().default(0),
    changedProtectedFiles: text("changed_protected_files").notNull().default("[]"),
    issueId: integer("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    index: integer("index").notNull(),
    headRepoId: integer("head_repo_id").notNull().default(0),
    baseRepoId: integer("base_repo_id")
      .notNull()
      .references(() => repositories.id, { onDelete: "cascade" }),
    headBranch: text("head_branch").notNull(),
    baseBranch: text("base_branch").notNull(),
    mergeBase: text("merge_base").notNull().default(""),
    allowMaintainerEdit: integer("allow_maintainer_edit", { mode: "boolean" }).notNull().default(false),
    hasMerged: integer("has_merged", { mode: "boolean" }).notNull().default(false),
    mergedCommitId: text("merged_commit_id").notNull().default(""),
    mergerId: integer("merger_id").notNull().default(0),
    mergedUnix: integer("merged_unix").notNull().default(0),
    /** 0 = GitHub-style flow (branches), 1 = AGit flow. */
    flow: integer("flow").notNull().default(0),
  },
  (t) => [
    uniqueIndex("pull_request_issue_uq").on(t.issueId),
    index("pull_request_base_idx").on(t.baseRepoId, t.baseBranch),
    index("pull_request_head_idx").on(t.headRepoId, t.headBranch),
  ],
);

/** Gitea's ReviewType. */
export const ReviewType = { Pending: 0, Approve: 1, Comment: 2, Reject: 3, Request: 4 } as const;

export const reviews = sqliteTable(
  "review",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    type: integer("type").notNull(),
    reviewerId: integer("reviewer_id").notNull().default(0),
    reviewerTeamId: integer("reviewer_team_id").notNull().default(0),
    originalAuthor: text("original_author").notNull().default(""),
    originalAuthorId: integer("original_author_id").notNull().default(0),
    issueId: integer("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    content: text("content").notNull().default(""),
    /** Whether the review counts for branch protection (by someone allowed to approve). */
    official: integer("official", { mode: "boolean" }).notNull().default(false),
    commitId: text("commit_id").notNull().default(""),
    stale: integer("stale", { mode: "boolean" }).notNull().default(false),
    dismissed: integer("dismissed", { mode: "boolean" }).notNull().default(false),
    createdUnix: integer("created_unix").notNull(),
    updatedUnix: integer("updated_unix").notNull(),
  },
  (t) => [index("review_issue_idx").on(t.issueId), index("review_reviewer_idx").on(t.reviewerId)],
);

/** A merge scheduled to happen when the required checks pass (Gitea's pull_auto_merge). */
export const pullAutoMerges = sqliteTable(
  "pull_auto_merge",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    pullId: integer("pull_id")
      .notNull()
      .references(() => pullRequests.id, { onDelete: "cascade" }),
    doerId: integer("doer_id").notNull(),
    mergeStyle: text("merge_style").notNull(),
    message: text("message").notNull().default(""),
    deleteBranchAfterMerge: integer("delete_branch_after_merge", { mode: "boolean" }).notNull().default(false),
    createdUnix: integer("created_unix").notNull(),
  },
  (t) => [uniqueIndex("pull_auto_merge_pull_uq").on(t.pullId)],
);

/** A branch protection rule; `branch_name` is the rule name, a branch name or a glob. */
export const protectedBranches = sqliteTable(
  "protected_branch",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    repoId: integer("repo_id")
      .notNull()
      .references(() => repositories.id, { onDelete: "cascade" }),
    ruleName: text("branch_name").notNull(),
    priority: integer("priority").notNull().default(0),
    canPush: integer("can_push", { mode: "boolean" }).notNull().default(false),
    enableWhitelist: integer("enable_whitelist", { mode: "boolean" }).notNull().default(false),
    whitelistUserIds: text("whitelist_user_ids").notNull().default("[]"),
    whitelistTeamIds: text("whitelist_team_ids").notNull().default("[]"),
    whitelistDeployKeys: integer("whitelist_deploy_keys", { mode: "boolean" }).notNull().default(false),
    canForcePush: integer("can_force_push", { mode: "boolean" }).notNull().default(false),
    enableForcePushAllowlist: integer("enable_force_push_allowlist", { mode: "boolean" }).notNull().default(false),
    forcePushAllowlistUserIds: text("force_push_allowlist_user_ids").notNull().default("[]"),
    forcePushAllowlistTeamIds: text("force_push_allowlist_team_ids").notNull().default("[]"),
    forcePushAllowlistDeployKeys: integer("force_push_allowlist_deploy_keys", { mode: "boolean" }).notNull().default(false),
    enableMergeWhitelist: integer("enable_merge_whitelist", { mode: "boolean" }).notNull().default(false),
    mergeWhitelistUserIds: text("merge_whitelist_user_ids").notNull().default("[]"),
    mergeWhitelistTeamIds: text("merge_whitelist_team_ids").notNull().default("[]"),
    enableStatusCheck: integer("enable_status_check", { mode: "boolean" }).notNull().default(false),
    statusCheckContexts: text("status_check_contexts").notNull().default("[]"),
    enableApprovalsWhitelist: integer("enable_approvals_whitelist", { mode: "boolean" }).notNull().default(false),
    approvalsWhitelistUserIds: text("approvals_whitelist_user_ids").notNull().default("[]"),
    approvalsWhitelistTeamIds: text("approvals_whitelist_team_ids").notNull().default("[]"),
    requiredApprovals: integer("required_approvals").notNull().default(0),
    blockOnRejectedReviews: integer("block_on_rejected_reviews", { mode: "boolean" }).notNull().default(false),
    blockOnOfficialReviewRequests: integer("block_on_official_review_requests", { mode: "boolean" }).notNull().default(false),
    blockOnOutdatedBranch: integer("block_on_outdated_branch", { mode: "boolean" }).notNull().default(false),
    dismissStaleApprovals: integer("dismiss_stale_approvals", { mode: "boolean" }).notNull().default(false),
    ignoreStaleApprovals: integer("ignore_stale_approvals", { mode: "boolean" }).notNull().default(false),
    requireSignedCommits: integer("require_signed_commits", { mode: "boolean" }).notNull().default(false),
    protectedFilePatterns: text("protected_file_patterns").notNull().default(""),
    unprotectedFilePatterns: text("unprotected_file_patterns").notNull().default(""),
    blockAdminMergeOverride: integer("block_admin_merge_override", { mode: "boolean" }).notNull().default(false),
    createdUnix: integer("created_unix").notNull(),
    updatedUnix: integer("updated_unix").notNull(),
  },
  (t) => [uniqueIndex("protected_branch_repo_rule_uq").on(t.repoId, t.ruleName)],
);

/** Gitea's CommitStatusState names, in its order of severity. */
export const COMMIT_STATUS_STATES = ["pending", "success", "error", "failure", "warning", "skipped"] as const;

export const commitStatuses = sqliteTable(
  "commit_status",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** Per repository and commit, counting up (Gitea's commit_status_index). */
    index: integer("index").notNull(),
    repoId: integer("repo_id")
      .notNull()
      .references(() => repositories.id, { onDelete: "cascade" }),
    state: text("state").notNull(),
    /** Always the full object id. */
    sha: text("sha").notNull(),
    targetUrl: text("target_url").notNull().default(""),
    description: text("description").notNull().default(""),
    contextHash: text("context_hash").notNull(),
    context: text("context").notNull().default(""),
    creatorId: integer("creator_id").notNull().default(0),
    createdUnix: integer("created_unix").notNull(),
    updatedUnix: integer("updated_unix").notNull(),
  },
  (t) => [uniqueIndex("commit_status_repo_sha_index_uq").on(t.repoId, t.sha, t.index), index("commit_status_repo_sha_idx").on(t.repoId, t.sha)],
);

export const releases = sqliteTable(
  "release",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    repoId: integer("repo_id")
      .notNull()
      .references(() => repositories.id, { onDelete: "cascade" }),
    publisherId: integer("publisher_id").notNull(),
    tagName: text("tag_name").notNull(),
    originalAuthor: text("original_author").notNull().default(""),
    originalAuthorId: integer("original_author_id").notNull().default(0),
    lowerTagName: text("lower_tag_name").notNull(),
    /** The branch or commit the tag was (to be) created from. */
    target: text("target").notNull().default(""),
    title: text("title").notNull().default(""),
    sha1: text("sha1").notNull().default(""),
    numCommits: integer("num_commits").notNull().default(0),
    note: text("note").notNull().default(""),
    isDraft: integer("is_draft", { mode: "boolean" }).notNull().default(false),
    isPrerelease: integer("is_prerelease", { mode: "boolean" }).notNull().default(false),
    /** A bare tag known to the database, not a release. */
    isTag: integer("is_tag", { mode: "boolean" }).notNull().default(false),
    createdUnix: integer("created_unix").notNull(),
  },
  (t) => [uniqueIndex("release_repo_tag_uq").on(t.repoId, t.lowerTagName), index("release_repo_created_idx").on(t.repoId, t.createdUnix)],
);

export type PullRequestRow = typeof pullRequests.$inferSelect;
export type NewPullRequestRow = typeof pullRequests.$inferInsert;
export type ReviewRow = typeof reviews.$inferSelect;
export type ProtectedBranchRow = typeof protectedBranches.$inferSelect;
export type NewProtectedBranchRow = typeof protectedBranches.$inferInsert;
export type CommitStatusRow = typeof commitStatuses.$inferSelect;
export type ReleaseRow = typeof releases.$inferSelect;
export type NewReleaseRow = typeof releases.$inferInsert;
