import type { TOTP } from "otpauth";
import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import type { UserRow } from "../../db/schema/index.ts";
import * as twofa from "../../models/twofactor.ts";
import { nowUnix } from "../../lib/time.ts";

/** The TOTP library, imported by the first enrolment or passcode: most sign-ins never need it. */
const otpauth = () => import("otpauth");

async function totpFor(env: Env, user: UserRow, secretBase32: string): Promise<TOTP> {
  const { Secret, TOTP } = await otpauth();
  return new TOTP({
    issuer: env.settings.appName,
    label: user.name,
    algorithm: "SHA1",
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(secretBase32),
  });
}

const context = (uid: number) => `two_factor:${uid}`;

/** Enrols (or re-enrols) TOTP for a user; returns the secret and an otpauth:// URI for an authenticator app. */
export async function enrollTotp(env: Env, user: UserRow): Promise<{ secret: string; uri: string }> {
  const secret = new (await otpauth()).Secret({ size: 20 }).base32;
  writeTx(env.db, (tx) => twofa.upsertTwoFactor(tx, user.id, env.twoFactorBox.seal(secret, context(user.id)), nowUnix()));
  return { secret, uri: (await totpFor(env, user, secret)).toString() };
}

export function disableTotp(env: Env, user: UserRow): boolean {
  return writeTx(env.db, (tx) => twofa.deleteTwoFactor(tx, user.id));
}

export function hasTotp(env: Env, user: UserRow): boolean {
  return twofa.getTwoFactor(env.db, user.id) !== undefined;
}

/**
 * Checks a passcode against the user's TOTP (one step of clock drift either way) and consumes it:
 * the same code is never accepted twice, so a sniffed code cannot be replayed.
 */
export async function verifyTotp(env: Env, user: UserRow, passcode: string): Promise<boolean> {
  const row = twofa.getTwoFactor(env.db, user.id);
  if (!row) return true;
  if (!/^\d{6}$/.test(passcode)) return false;
  let secret: string;
  try {
    secret = env.twoFactorBox.open(row.secret, context(user.id));
  } catch {
    env.log.error("two-factor secret does not open: was SECRET_KEY changed?", { uid: user.id });
    return false;
  }
  const delta = (await totpFor(env, user, secret)).validate({ token: passcode, window: 1 });
  if (delta === null || row.lastUsedPasscode === passcode) return false;
  writeTx(env.db, (tx) => twofa.setLastUsedPasscode(tx, user.id, passcode, nowUnix()));
  return true;
}
