import { sqliteTable, integer, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { repositories } from "./repo.ts";

/**
 * Gitea's push_mirror: a remote the repository is pushed to (`git push --mirror`) on an interval
 * and, with sync_on_commit, after every push. The address is stored without credentials; the
 * credentials are sealed apart (hearth's remote_credentials) and never returned.
 */
export const pushMirrors = sqliteTable(
  "push_mirror",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    repoId: integer("repo_id")
      .notNull()
      .references(() => repositories.id, { onDelete: "cascade" }),
    remoteName: text("remote_name").notNull(),
    /** The remote URL with any user name and password removed. */
    remoteAddress: text("remote_address").notNull(),
    /** `{username, password}` as JSON, sealed with a key derived from SECRET_KEY; "" when none. */
    remoteCredentials: text("remote_credentials").notNull().default(""),
    syncOnCommit: integer("sync_on_commit", { mode: "boolean" }).notNull().default(true),
    /** Nanoseconds between syncs (Gitea's time.Duration); 0 disables the periodic sync. */
    intervalNs: integer("interval").notNull().default(0),
    createdUnix: integer("created_unix").notNull(),
    lastUpdateUnix: integer("last_update").notNull().default(0),
    lastError: text("last_error").notNull().default(""),
  },
  (t) => [uniqueIndex("push_mirror_repo_remote_uq").on(t.repoId, t.remoteName)],
);

export type PushMirrorRow = typeof pushMirrors.$inferSelect;
export type NewPushMirrorRow = typeof pushMirrors.$inferInsert;

/**
 * Gitea's mirror: a pull mirror's remote, fetched (`git fetch --prune`) every `interval` and on
 * request. As for push mirrors, the address is stored without credentials and the credentials are
 * sealed apart (bound to the repository id) and never returned.
 */
export const pullMirrors = sqliteTable(
  "mirror",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    repoId: integer("repo_id")
      .notNull()
      .references(() => repositories.id, { onDelete: "cascade" }),
    /** Nanoseconds between syncs (Gitea's time.Duration); 0 disables the periodic sync. */
    intervalNs: integer("interval").notNull(),
    /** Branches and tags deleted upstream are deleted here too. */
    enablePrune: integer("enable_prune", { mode: "boolean" }).notNull().default(true),
    /** The remote URL with any user name and password removed. */
    remoteAddress: text("remote_address").notNull(),
    /** `{username, password}` as JSON, sealed with a key derived from SECRET_KEY; "" when none. */
    remoteCredentials: text("remote_credentials").notNull().default(""),
    /** When the last sync finished (Gitea's updated_unix). */
    updatedUnix: integer("updated_unix").notNull().default(0),
    /** When the next periodic sync is due; 0 when none is (Gitea's next_update_unix). */
    nextUpdateUnix: integer("next_update_unix").notNull().default(0),
    /** The last sync's failure, without credentials; "" after a sync that worked. */
    lastError: text("last_error").notNull().default(""),
  },
  (t) => [uniqueIndex("mirror_repo_uq").on(t.repoId)],
);

export type PullMirrorRow = typeof pullMirrors.$inferSelect;
export type NewPullMirrorRow = typeof pullMirrors.$inferInsert;
