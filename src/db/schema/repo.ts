import { sqliteTable, integer, text, index, uniqueIndex, primaryKey } from "drizzle-orm/sqlite-core";
import { users } from "./user.ts";

/** Gitea's RepositoryStatus values hearth uses. */
export const RepoStatus = { Ready: 0, BeingMigrated: 1 } as const;

/** A hosted repository; the bare git repository lives at `[repository] ROOT/{owner}/{name}.git`. */
export const repositories = sqliteTable(
  "repository",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    ownerName: text("owner_name").notNull(),
    lowerName: text("lower_name").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    website: text("website").notNull().default(""),
    /** Gitea's avatar: the uploaded image's hash name under `APP_DATA_PATH/repo-avatars`, or "". */
    avatar: text("avatar").notNull().default(""),
    originalUrl: text("original_url").notNull().default(""),
    defaultBranch: text("default_branch").notNull(),
    objectFormat: text("object_format_name").notNull().default("sha1"),
    isPrivate: integer("is_private", { mode: "boolean" }).notNull().default(false),
    isEmpty: integer("is_empty", { mode: "boolean" }).notNull().default(true),
    isArchived: integer("is_archived", { mode: "boolean" }).notNull().default(false),
    isTemplate: integer("is_template", { mode: "boolean" }).notNull().default(false),
    isFork: integer("is_fork", { mode: "boolean" }).notNull().default(false),
    /** A pull mirror: its refs follow the `mirror` row's remote and it takes no pushes. */
    isMirror: integer("is_mirror", { mode: "boolean" }).notNull().default(false),
    /**
     * Gitea's RepositoryStatus: 0 ready, 1 being migrated (created by a migration or restore whose
     * import has not committed yet; one still so when the server starts was cut short and is removed).
     */
    status: integer("status").notNull().default(0),
    forkId: integer("fork_id").notNull().default(0),
    templateId: integer("template_id").notNull().default(0),
    hasIssues: integer("has_issues", { mode: "boolean" }).notNull().default(true),
    hasWiki: integer("has_wiki", { mode: "boolean" }).notNull().default(true),
    hasPullRequests: integer("has_pull_requests", { mode: "boolean" }).notNull().default(true),
    hasProjects: integer("has_projects", { mode: "boolean" }).notNull().default(true),
    hasReleases: integer("has_releases", { mode: "boolean" }).notNull().default(true),
    hasPackages: integer("has_packages", { mode: "boolean" }).notNull().default(true),
    hasActions: integer("has_actions", { mode: "boolean" }).notNull().default(true),
    hasCode: integer("has_code", { mode: "boolean" }).notNull().default(true),
    projectsMode: text("projects_mode").notNull().default("all"),
    trustModel: text("trust_model").notNull().default("default"),
    // Issue unit settings (Gitea's InternalTracker / ExternalTracker / ExternalWiki).
    enableTimeTracker: integer("enable_time_tracker", { mode: "boolean" }).notNull().default(true),
    allowOnlyContributorsToTrackTime: integer("allow_only_contributors_to_track_time", { mode: "boolean" })
      .notNull()
      .default(true),
    enableIssueDependencies: integer("enable_issue_dependencies", { mode: "boolean" }).notNull().default(true),
    externalTrackerUrl: text("external_tracker_url").notNull().default(""),
    externalTrackerFormat: text("external_tracker_format").notNull().default(""),
    externalTrackerStyle: text("external_tracker_style").notNull().default(""),
    externalTrackerRegexpPattern: text("external_tracker_regexp_pattern").notNull().default(""),
    externalWikiUrl: text("external_wiki_url").notNull().default(""),
    // Pull request unit settings.
    allowMergeCommits: integer("allow_merge_commits", { mode: "boolean" }).notNull().default(true),
    allowRebase: integer("allow_rebase", { mode: "boolean" }).notNull().default(true),
    allowRebaseExplicit: integer("allow_rebase_explicit", { mode: "boolean" }).notNull().default(true),
    allowSquashMerge: integer("allow_squash_merge", { mode: "boolean" }).notNull().default(true),
    allowFastForwardOnlyMerge: integer("allow_fast_forward_only_merge", { mode: "boolean" }).notNull().default(true),
    allowManualMerge: integer("allow_manual_merge", { mode: "boolean" }).notNull().default(false),
    autodetectManualMerge: integer("autodetect_manual_merge", { mode: "boolean" }).notNull().default(false),
    allowRebaseUpdate: integer("allow_rebase_update", { mode: "boolean" }).notNull().default(true),
    defaultDeleteBranchAfterMerge: integer("default_delete_branch_after_merge", { mode: "boolean" })
      .notNull()
      .default(false),
    defaultMergeStyle: text("default_merge_style").notNull().default("merge"),
    defaultAllowMaintainerEdit: integer("default_allow_maintainer_edit", { mode: "boolean" }).notNull().default(false),
    ignoreWhitespaceConflicts: integer("ignore_whitespace_conflicts", { mode: "boolean" }).notNull().default(false),
    numStars: integer("num_stars").notNull().default(0),
    numWatches: integer("num_watches").notNull().default(0),
    numForks: integer("num_forks").notNull().default(0),
    numIssues: integer("num_issues").notNull().default(0),
    numClosedIssues: integer("num_closed_issues").notNull().default(0),
    numPulls: integer("num_pulls").notNull().default(0),
    numClosedPulls: integer("num_closed_pulls").notNull().default(0),
    numMilestones: integer("num_milestones").notNull().default(0),
    numClosedMilestones: integer("num_closed_milestones").notNull().default(0),
    numReleases: integer("num_releases").notNull().default(0),
    /** Plain comments on all its issues and pull requests (the sum of their `num_comments`): the total of its comment list. */
    numComments: integer("num_comments").notNull().default(0),
    /** Bytes of the git repository's objects on disk (git count-objects), set at creation, after every push or mirror sync, and by an import. */
    size: integer("size").notNull().default(0),
    createdUnix: integer("created_unix").notNull(),
    updatedUnix: integer("updated_unix").notNull(),
    archivedUnix: integer("archived_unix").notNull().default(0),
  },
  (t) => [
    uniqueIndex("repository_owner_lower_name_uq").on(t.ownerId, t.lowerName),
    index("repository_lower_name_idx").on(t.lowerName),
    // An owner's repositories in id order (Gitea's order for /users/{u}/repos and /orgs/{o}/repos).
    index("repository_owner_idx").on(t.ownerId),
    index("repository_fork_id_idx").on(t.forkId),
    index("repository_is_private_idx").on(t.isPrivate),
    // Every start looks for imports a stop cut short (status 1): without the index, a read of every repository.
    index("repository_status_idx").on(t.status),
    // Site-wide totals of issues and pull requests (an administrator's search) summed from the index alone.
    index("repository_issue_counts_idx").on(t.hasIssues, t.numIssues, t.numClosedIssues),
    index("repository_pull_counts_idx").on(t.hasPullRequests, t.numPulls, t.numClosedPulls),
  ],
);

export const AccessMode = { None: 0, Read: 1, Write: 2, Admin: 3, Owner: 4 } as const;
export type AccessModeValue = (typeof AccessMode)[keyof typeof AccessMode];

export const collaborations = sqliteTable(
  "collaboration",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    repoId: integer("repo_id")
      .notNull()
      .references(() => repositories.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    mode: integer("mode").notNull().default(AccessMode.Write),
    createdUnix: integer("created_unix").notNull(),
    updatedUnix: integer("updated_unix").notNull(),
  },
  (t) => [uniqueIndex("collaboration_repo_user_uq").on(t.repoId, t.userId), index("collaboration_user_idx").on(t.userId)],
);

export const stars = sqliteTable(
  "star",
  {
    uid: integer("uid")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    repoId: integer("repo_id")
      .notNull()
      .references(() => repositories.id, { onDelete: "cascade" }),
    createdUnix: integer("created_unix").notNull(),
  },
  (t) => [primaryKey({ columns: [t.uid, t.repoId] }), index("star_repo_idx").on(t.repoId)],
);

export const watches = sqliteTable(
  "watch",
  {
    uid: integer("uid")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    repoId: integer("repo_id")
      .notNull()
      .references(() => repositories.id, { onDelete: "cascade" }),
    createdUnix: integer("created_unix").notNull(),
  },
  (t) => [primaryKey({ columns: [t.uid, t.repoId] }), index("watch_repo_idx").on(t.repoId)],
);

export const repoTopics = sqliteTable(
  "repo_topic",
  {
    repoId: integer("repo_id")
      .notNull()
      .references(() => repositories.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
  },
  (t) => [primaryKey({ columns: [t.repoId, t.name] }), index("repo_topic_name_idx").on(t.name)],
);

/** The database's view of a repository's branches, rebuilt from the refs whenever in doubt. */
export const branches = sqliteTable(
  "branch",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    repoId: integer("repo_id")
      .notNull()
      .references(() => repositories.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    commitId: text("commit_id").notNull(),
    commitMessage: text("commit_message").notNull().default(""),
    commitUnix: integer("commit_unix").notNull().default(0),
    pusherId: integer("pusher_id").notNull().default(0),
    createdUnix: integer("created_unix").notNull(),
    updatedUnix: integer("updated_unix").notNull(),
  },
  (t) => [uniqueIndex("branch_repo_name_uq").on(t.repoId, t.name)],
);

/** A repository renamed or transferred: the old owner/name keeps resolving to it. */
export const repoRedirects = sqliteTable(
  "repo_redirect",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: integer("owner_id").notNull(),
    lowerName: text("lower_name").notNull(),
    redirectRepoId: integer("redirect_repo_id")
      .notNull()
      .references(() => repositories.id, { onDelete: "cascade" }),
  },
  (t) => [uniqueIndex("repo_redirect_owner_name_uq").on(t.ownerId, t.lowerName)],
);

/** A transfer waiting for the recipient to accept or reject it. */
export const repoTransfers = sqliteTable(
  "repo_transfer",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    repoId: integer("repo_id")
      .notNull()
      .unique()
      .references(() => repositories.id, { onDelete: "cascade" }),
    doerId: integer("doer_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    recipientId: integer("recipient_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Comma-separated team ids to give access once accepted (organization recipients). */
    teamIds: text("team_ids").notNull().default(""),
    createdUnix: integer("created_unix").notNull(),
  },
);

export type RepoRow = typeof repositories.$inferSelect;
export type NewRepoRow = typeof repositories.$inferInsert;
export type BranchRow = typeof branches.$inferSelect;
export type CollaborationRow = typeof collaborations.$inferSelect;
