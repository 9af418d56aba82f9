import { sqliteTable, integer, text, index } from "drizzle-orm/sqlite-core";
import { repositories } from "./repo.ts";

/**
 * Gitea's protected_tag: tags matching `name_pattern` (a tag name, a glob, or a /regexp/) may only
 * be created, moved or deleted by the users and teams on the allow-list (JSON arrays of ids).
 */
export const protectedTags = sqliteTable(
  "protected_tag",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    repoId: integer("repo_id")
      .notNull()
      .references(() => repositories.id, { onDelete: "cascade" }),
    namePattern: text("name_pattern").notNull(),
    allowlistUserIds: text("allowlist_user_ids").notNull().default("[]"),
    allowlistTeamIds: text("allowlist_team_ids").notNull().default("[]"),
    createdUnix: integer("created_unix").notNull(),
    updatedUnix: integer("updated_unix").notNull(),
  },
  (t) => [index("protected_tag_repo_idx").on(t.repoId)],
);

export type ProtectedTagRow = typeof protectedTags.$inferSelect;
export type NewProtectedTagRow = typeof protectedTags.$inferInsert;
