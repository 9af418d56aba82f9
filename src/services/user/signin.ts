import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { UserType, type AccessTokenRow, type UserRow } from "../../db/schema/index.ts";
import * as users from "../../models/user.ts";
import * as tokens from "../../models/token.ts";
import { burnPasswordCheck, verifyPassword } from "../../crypto/password.ts";
import { hashToken } from "../../crypto/token.ts";
import { nowUnix } from "../../lib/time.ts";

/**
 * Password sign-in by user name or email. Returns undefined on any failure, so callers cannot tell
 * an unknown user from a wrong password (and the timing is the same: a decoy hash is checked).
 */
export async function signInWithPassword(env: Env, login: string, password: string): Promise<UserRow | undefined> {
  const user = login.includes("@")
    ? ((uid) => (uid === undefined ? undefined : users.getUserById(env.db, uid)))(users.emailOwner(env.db, login))
    : users.getUserByName(env.db, login);
  if (!user || user.type !== UserType.Individual || !user.passwd) {
    await burnPasswordCheck(password);
    return undefined;
  }
  if (!(await verifyPassword(password, user.passwd))) return undefined;
  if (user.prohibitLogin) return undefined;
  return user;
}

/** Token lookup: 40 lowercase hex, as Gitea requires, then by SHA-256. */
export function findToken(env: Env, token: string): { token: AccessTokenRow; user: UserRow } | undefined {
  if (!/^[0-9a-f]{40}$/.test(token)) return undefined;
  const row = tokens.getTokenByHash(env.db, hashToken(token));
  if (!row) return undefined;
  const user = users.getUserById(env.db, row.uid);
  return user ? { token: row, user } : undefined;
}

/** Records token use at most every 30 s per token, keeping a hot token off the write path. */
export function touchToken(env: Env, tokenId: number): void {
  const now = nowUnix();
  if ((env.tokenTouches.get(tokenId) ?? 0) > now - 30) return;
  env.tokenTouches.set(tokenId, now);
  writeTx(env.db, (tx) => tokens.touchToken(tx, tokenId, now));
}

export function findUserByName(env: Env, name: string): UserRow | undefined {
  const u = users.getUserByName(env.db, name);
  return u && u.type === UserType.Individual ? u : undefined;
}
