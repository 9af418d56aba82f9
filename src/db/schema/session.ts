import { sqliteTable, integer, text, index } from "drizzle-orm/sqlite-core";
import { users } from "./user.ts";

/**
 * Web sessions, kept server-side (the cookie carries only a random id; its SHA-256 is the key, so a
 * copy of the database signs no one in). `uid` is set once signed in; `data` holds the rest (a
 * sign-in waiting for its two-factor code, flash messages) as JSON.
 */
export const webSessions = sqliteTable(
  "web_session",
  {
    id: text("id").primaryKey(),
    uid: integer("uid").references(() => users.id, { onDelete: "cascade" }),
    data: text("data").notNull().default("{}"),
    createdUnix: integer("created_unix").notNull(),
    expiresUnix: integer("expires_unix").notNull(),
  },
  (t) => [index("web_session_uid_idx").on(t.uid), index("web_session_expires_idx").on(t.expiresUnix)],
);

/**
 * Remember-me tokens (Gitea's auth_token): the cookie holds `{id}:{validator}`, the row the
 * validator's SHA-256; each use replaces the token, so a stolen cookie works once at most.
 */
export const rememberTokens = sqliteTable(
  "auth_token",
  {
    id: text("id").primaryKey(),
    uid: integer("uid")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresUnix: integer("expires_unix").notNull(),
  },
  (t) => [index("auth_token_uid_idx").on(t.uid)],
);

export type WebSessionRow = typeof webSessions.$inferSelect;
export type RememberTokenRow = typeof rememberTokens.$inferSelect;
