import { sqliteTable, integer, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Gitea's secret table: Actions secrets of a user, an organization (owner_id) or a repository
 * (repo_id). `data` is sealed with a key derived from SECRET_KEY and never returned by the API.
 */
export const secrets = sqliteTable(
  "secret",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: integer("owner_id").notNull().default(0),
    repoId: integer("repo_id").notNull().default(0),
    /** Upper-cased, as Gitea stores it. */
    name: text("name").notNull(),
    data: text("data").notNull(),
    description: text("description").notNull().default(""),
    createdUnix: integer("created_unix").notNull(),
  },
  (t) => [uniqueIndex("secret_owner_repo_name_uq").on(t.ownerId, t.repoId, t.name)],
);

export type SecretRow = typeof secrets.$inferSelect;
export type NewSecretRow = typeof secrets.$inferInsert;
