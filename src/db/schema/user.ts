import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Gitea's UserType: individuals and organizations share one table. */
export const UserType = { Individual: 0, Organization: 1 } as const;

/** Gitea's VisibleType. */
export const Visibility = { Public: 0, Limited: 1, Private: 2 } as const;

export const users = sqliteTable(
  "user",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    lowerName: text("lower_name").notNull(),
    name: text("name").notNull(),
    fullName: text("full_name").notNull().default(""),
    email: text("email").notNull().default(""),
    keepEmailPrivate: integer("keep_email_private", { mode: "boolean" }).notNull().default(false),
    passwd: text("passwd").notNull().default(""),
    passwdHashAlgo: text("passwd_hash_algo").notNull().default(""),
    mustChangePassword: integer("must_change_password", { mode: "boolean" }).notNull().default(false),
    loginType: integer("login_type").notNull().default(0),
    loginSource: integer("login_source").notNull().default(0),
    loginName: text("login_name").notNull().default(""),
    type: integer("type").notNull().default(UserType.Individual),
    location: text("location").notNull().default(""),
    website: text("website").notNull().default(""),
    description: text("description").notNull().default(""),
    language: text("language").notNull().default(""),
    theme: text("theme").notNull().default(""),
    diffViewStyle: text("diff_view_style").notNull().default(""),
    createdUnix: integer("created_unix").notNull(),
    updatedUnix: integer("updated_unix").notNull(),
    lastLoginUnix: integer("last_login_unix").notNull().default(0),
    maxRepoCreation: integer("max_repo_creation").notNull().default(-1),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    isAdmin: integer("is_admin", { mode: "boolean" }).notNull().default(false),
    isRestricted: integer("is_restricted", { mode: "boolean" }).notNull().default(false),
    allowGitHook: integer("allow_git_hook", { mode: "boolean" }).notNull().default(false),
    allowImportLocal: integer("allow_import_local", { mode: "boolean" }).notNull().default(false),
    allowCreateOrganization: integer("allow_create_organization", { mode: "boolean" }).notNull().default(true),
    prohibitLogin: integer("prohibit_login", { mode: "boolean" }).notNull().default(false),
    visibility: integer("visibility").notNull().default(Visibility.Public),
    hideActivity: integer("hide_activity", { mode: "boolean" }).notNull().default(false),
    avatar: text("avatar").notNull().default(""),
    /** Organizations only: whether repository admins may grant or revoke team access to their repository. */
    repoAdminChangeTeamAccess: integer("repo_admin_change_team_access", { mode: "boolean" }).notNull().default(false),
    numFollowers: integer("num_followers").notNull().default(0),
    numFollowing: integer("num_following").notNull().default(0),
    numStars: integer("num_stars").notNull().default(0),
    numRepos: integer("num_repos").notNull().default(0),
  },
  (t) => [
    uniqueIndex("user_lower_name_uq").on(t.lowerName),
    index("user_email_idx").on(t.email),
    index("user_type_idx").on(t.type),
  ],
);

export const emailAddresses = sqliteTable(
  "email_address",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    uid: integer("uid")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    lowerEmail: text("lower_email").notNull(),
    isActivated: integer("is_activated", { mode: "boolean" }).notNull().default(true),
    isPrimary: integer("is_primary", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [uniqueIndex("email_address_lower_email_uq").on(t.lowerEmail), index("email_address_uid_idx").on(t.uid)],
);

/** A renamed user or organization: the old name keeps resolving to it (Gitea's user_redirect). */
export const userRedirects = sqliteTable(
  "user_redirect",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    lowerName: text("lower_name").notNull(),
    redirectUserId: integer("redirect_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (t) => [uniqueIndex("user_redirect_lower_name_uq").on(t.lowerName)],
);

/** Gitea's follow: `userId` follows `followId` (a user or an organization). */
export const follows = sqliteTable(
  "follow",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    followId: integer("follow_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdUnix: integer("created_unix").notNull(),
  },
  (t) => [uniqueIndex("follow_user_follow_uq").on(t.userId, t.followId), index("follow_follow_idx").on(t.followId)],
);

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
export type EmailRow = typeof emailAddresses.$inferSelect;
