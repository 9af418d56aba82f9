import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import type { UserRow } from "../../db/schema/index.ts";
import * as users from "../../models/user.ts";
import { hashPassword, PASSWORD_ALGO, verifyPassword } from "../../crypto/password.ts";
import { nowUnix } from "../../lib/time.ts";

/** Why a password change was refused, in Gitea's order of checks. */
export type PasswordChangeRefusal = "incorrect" | "mismatch" | "too_short";

export interface PasswordChange {
  /** The current password; not asked of an account that has none (Gitea's IsPasswordSet). */
  oldPassword: string;
  password: string;
  retype: string;
}

/**
 * Gitea's AccountPost: a user changes their own password. The current one must be right, the new
 * one typed twice the same and at least [security] MIN_PASSWORD_LENGTH long; the change clears
 * "must change password". Signing out the account's other sessions is the caller's part (it knows
 * which session to keep). Returns the refusal, or undefined when the password was changed.
 */
export async function changeOwnPassword(env: Env, user: UserRow, change: PasswordChange): Promise<PasswordChangeRefusal | undefined> {
  if (user.passwd && !(await verifyPassword(change.oldPassword, user.passwd))) return "incorrect";
  if (change.password !== change.retype) return "mismatch";
  if (change.password.length < env.settings.security.minPasswordLength) return "too_short";
  const passwd = await hashPassword(change.password);
  writeTx(env.db, (tx) =>
    users.updateUser(tx, user.id, { passwd, passwdHashAlgo: PASSWORD_ALGO, mustChangePassword: false, updatedUnix: nowUnix() }),
  );
  return undefined;
}
