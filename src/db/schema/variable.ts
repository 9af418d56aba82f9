import { sqliteTable, integer, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Gitea's action_variable: Actions variables of a user, an organization (owner_id) or a repository (repo_id). */
export const actionVariables = sqliteTable(
  "action_variable",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: integer("owner_id").notNull().default(0),
    repoId: integer("repo_id").notNull().default(0),
    /** Upper-cased, as Gitea stores it. */
    name: text("name").notNull(),
    data: text("data").notNull(),
    description: text("description").notNull().default(""),
    createdUnix: integer("created_unix").notNull(),
    updatedUnix: integer("updated_unix").notNull(),
  },
  (t) => [uniqueIndex("action_variable_owner_repo_name_uq").on(t.ownerId, t.repoId, t.name)],
);

export type ActionVariableRow = typeof actionVariables.$inferSelect;
export type NewActionVariableRow = typeof actionVariables.$inferInsert;
