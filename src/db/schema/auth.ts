import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./user.ts";

export const accessTokens = sqliteTable(
  "access_token",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    uid: integer("uid")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** SHA-256 of the token, hex: the token itself is never stored. */
    tokenHash: text("token_hash").notNull(),
    tokenLastEight: text("token_last_eight").notNull(),
    /** Normalized scope string; empty means the token predates scopes and reads as `all`. */
    scope: text("scope").notNull().default(""),
    createdUnix: integer("created_unix").notNull(),
    updatedUnix: integer("updated_unix").notNull(),
  },
  (t) => [
    uniqueIndex("access_token_hash_uq").on(t.tokenHash),
    uniqueIndex("access_token_uid_name_uq").on(t.uid, t.name),
    index("access_token_uid_idx").on(t.uid),
  ],
);

export const twoFactors = sqliteTable("two_factor", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  uid: integer("uid")
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: "cascade" }),
  /** TOTP secret, AES-256-GCM sealed with a key derived from SECRET_KEY. */
  secret: text("secret").notNull(),
  scratchHash: text("scratch_hash").notNull().default(""),
  /** The last accepted passcode, so a code is never accepted twice. */
  lastUsedPasscode: text("last_used_passcode").notNull().default(""),
  createdUnix: integer("created_unix").notNull(),
  updatedUnix: integer("updated_unix").notNull(),
});

export type AccessTokenRow = typeof accessTokens.$inferSelect;
export type TwoFactorRow = typeof twoFactors.$inferSelect;
