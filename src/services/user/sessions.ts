import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import * as sessions from "../../models/web-session.ts";
import { constantTimeEqual, hashToken } from "../../crypto/token.ts";
import { nowUnix } from "../../lib/time.ts";

/** A message shown once on the next page (Gitea's flash): the result of a form, a new token. */
export interface Flash {
  kind: "success" | "error" | "info" | "warning";
  text: string;
  /** A value to show once in a copyable box (a new access token, a scratch code). */
  secret?: string;
}

/** What a session remembers besides its account. */
export interface SessionData {
  /** A password accepted for an account with two-factor authentication, waiting for its code. */
  twoFactor?: { uid: number; remember: boolean; since: number };
  /** Where to go once the two-factor code is in (a path below the site's root). */
  redirectTo?: string;
  flash?: Flash[];
  /** A TOTP secret being enrolled, sealed until confirmed by a code. */
  enrolling?: string;
}

export interface WebSession {
  /** The stored key: the SHA-256 of the cookie's value. */
  readonly key: string;
  uid: number | null;
  data: SessionData;
  expiresUnix: number;
}

/** 128 random bits, hex: a session id or a remember-me part. */
function randomId(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("hex");
}

const lastSweep = new WeakMap<Env, number>();

/** Drops expired sessions and remember-me tokens, at most once an hour per process. */
function sweep(env: Env, now: number): void {
  if ((lastSweep.get(env) ?? 0) > now - 3600) return;
  lastSweep.set(env, now);
  writeTx(env.db, (tx) => sessions.deleteExpiredWebSessions(tx, now));
}

/** The live session a cookie names, its life extended when half of it has passed. */
export function openSession(env: Env, cookieValue: string): WebSession | undefined {
  if (!/^[0-9a-f]{32}$/.test(cookieValue)) return undefined;
  const key = hashToken(cookieValue);
  const row = sessions.getWebSession(env.db, key);
  if (!row) return undefined;
  const now = nowUnix();
  if (row.expiresUnix <= now) {
    writeTx(env.db, (tx) => sessions.deleteWebSession(tx, key));
    return undefined;
  }
  const life = env.settings.session.lifeTimeSeconds;
  let expiresUnix = row.expiresUnix;
  if (expiresUnix - now < life / 2) {
    expiresUnix = now + life;
    writeTx(env.db, (tx) => sessions.updateWebSession(tx, key, { expiresUnix }));
  }
  let data: SessionData = {};
  try {
    data = JSON.parse(row.data) as SessionData;
  } catch {
    // An unreadable row is an empty session, never a failed page.
  }
  return { key, uid: row.uid, data, expiresUnix };
}

/**
 * A new session (at sign-in, and whenever an anonymous visitor first needs one): a fresh id, so
 * an id known before signing in is worth nothing after it. Returns the cookie's value.
 */
export function startSession(env: Env, uid: number | null, data: SessionData): { cookie: string; session: WebSession } {
  const now = nowUnix();
  sweep(env, now);
  const cookie = randomId();
  const session: WebSession = { key: hashToken(cookie), uid, data, expiresUnix: now + env.settings.session.lifeTimeSeconds };
  writeTx(env.db, (tx) =>
    sessions.insertWebSession(tx, { id: session.key, uid, data: JSON.stringify(data), createdUnix: now, expiresUnix: session.expiresUnix }),
  );
  return { cookie, session };
}

export function saveSession(env: Env, session: WebSession): void {
  writeTx(env.db, (tx) => sessions.updateWebSession(tx, session.key, { uid: session.uid, data: JSON.stringify(session.data) }));
}

export function endSession(env: Env, session: WebSession): void {
  writeTx(env.db, (tx) => sessions.deleteWebSession(tx, session.key));
}

/** Signs an account out everywhere but the session in hand (after a password change). */
export function endOtherSessions(env: Env, uid: number, keep?: WebSession): void {
  writeTx(env.db, (tx) => {
    sessions.deleteUserWebSessions(tx, uid, keep?.key);
    sessions.deleteUserRememberTokens(tx, uid);
  });
}

/** A remember-me token for `uid`: the cookie's value `{lookup}:{validator}`. */
export function issueRememberToken(env: Env, uid: number): { cookie: string; maxAgeSeconds: number } {
  const id = randomId();
  const validator = randomId() + randomId();
  const maxAgeSeconds = env.settings.security.loginRememberDays * 86400;
  writeTx(env.db, (tx) => sessions.insertRememberToken(tx, { id, uid, tokenHash: hashToken(validator), expiresUnix: nowUnix() + maxAgeSeconds }));
  return { cookie: `${id}:${validator}`, maxAgeSeconds };
}

/**
 * The account a remember-me cookie stands for. The token is used up either way: a valid one is
 * replaced by the caller issuing a new one, an invalid validator for a known lookup (a stolen
 * cookie already used) removes it.
 */
export function redeemRememberToken(env: Env, cookie: string): number | undefined {
  const [id, validator] = cookie.split(":");
  if (!id || !validator || !/^[0-9a-f]{32}$/.test(id)) return undefined;
  const row = sessions.getRememberToken(env.db, id);
  if (!row) return undefined;
  writeTx(env.db, (tx) => sessions.deleteRememberToken(tx, id));
  if (row.expiresUnix <= nowUnix() || !constantTimeEqual(row.tokenHash, hashToken(validator))) return undefined;
  return row.uid;
}

export function forgetRememberToken(env: Env, cookie: string): void {
  const id = cookie.split(":")[0];
  if (id && /^[0-9a-f]{32}$/.test(id)) writeTx(env.db, (tx) => sessions.deleteRememberToken(tx, id));
}
