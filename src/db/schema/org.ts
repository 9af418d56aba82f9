import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./user.ts";
import { repositories } from "./repo.ts";

/**
 * Membership of a user in an organization (Gitea's `org_user`). A user is a member exactly while they
 * are in at least one of the organization's teams; `is_public` is their choice to show the membership.
 */
export const orgUsers = sqliteTable(
  "org_user",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    uid: integer("uid")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    orgId: integer("org_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    isPublic: integer("is_public", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [uniqueIndex("org_user_uid_org_uq").on(t.uid, t.orgId), index("org_user_org_idx").on(t.orgId)],
);

/** A team of an organization; `authorize` is its access mode (Gitea's AccessMode), owner for the Owners team. */
export const teams = sqliteTable(
  "team",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    orgId: integer("org_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    lowerName: text("lower_name").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    authorize: integer("authorize").notNull().default(0),
    numRepos: integer("num_repos").notNull().default(0),
    numMembers: integer("num_members").notNull().default(0),
    includesAllRepositories: integer("includes_all_repositories", { mode: "boolean" }).notNull().default(false),
    canCreateOrgRepo: integer("can_create_org_repo", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [uniqueIndex("team_org_lower_name_uq").on(t.orgId, t.lowerName)],
);

export const teamUsers = sqliteTable(
  "team_user",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    orgId: integer("org_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    uid: integer("uid")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (t) => [uniqueIndex("team_user_team_uid_uq").on(t.teamId, t.uid), index("team_user_uid_org_idx").on(t.uid, t.orgId)],
);

/** Repositories a team has access to; teams with `includes_all_repositories` get a row for every org repository. */
export const teamRepos = sqliteTable(
  "team_repo",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    orgId: integer("org_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    repoId: integer("repo_id")
      .notNull()
      .references(() => repositories.id, { onDelete: "cascade" }),
  },
  (t) => [uniqueIndex("team_repo_team_repo_uq").on(t.teamId, t.repoId), index("team_repo_repo_idx").on(t.repoId)],
);

/** The access mode a team has on one repository unit (Gitea's unit type numbers). */
export const teamUnits = sqliteTable(
  "team_unit",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    orgId: integer("org_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    type: integer("type").notNull(),
    accessMode: integer("access_mode").notNull().default(0),
  },
  (t) => [uniqueIndex("team_unit_team_type_uq").on(t.teamId, t.type)],
);

export type OrgUserRow = typeof orgUsers.$inferSelect;
export type TeamRow = typeof teams.$inferSelect;
export type NewTeamRow = typeof teams.$inferInsert;
export type TeamUnitRow = typeof teamUnits.$inferSelect;

/** Gitea's unit types, as stored in `team_unit.type`. */
export const UnitType = {
  Code: 1,
  Issues: 2,
  PullRequests: 3,
  Releases: 4,
  Wiki: 5,
  ExternalWiki: 6,
  ExternalTracker: 7,
  Projects: 8,
  Packages: 9,
  Actions: 10,
} as const;
export type UnitTypeValue = (typeof UnitType)[keyof typeof UnitType];
