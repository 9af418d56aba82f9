import type { TOTP } from "otpauth";
import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import type { UserRow } from "../../db/schema/index.ts";
import * as twofa from "../../models/twofactor.ts";
import { nowUnix } from "../../lib/time.ts";
import { constantTimeEqual, hashToken } from "../../crypto/token.ts";

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

/** A new TOTP secret and its otpauth:// URI, stored nowhere until a code from it is confirmed. */
export async function newTotpSecret(env: Env, user: UserRow): Promise<{ secret: string; uri: string }> {
  const secret = new (await otpauth()).Secret({ size: 20 }).base32;
  return { secret, uri: (await totpFor(env, user, secret)).toString() };
}

/** Gitea's scratch token: ten characters to type when the authenticator is lost. */
function newScratchCode(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  return [...crypto.getRandomValues(new Uint8Array(10))].map((b) => alphabet[b % alphabet.length]).join("");
}

const scratchHash = (uid: number, code: string) => hashToken(`${uid}:${code.trim().toLowerCase()}`);

/**
 * Enrols `secret` once a passcode from it checks out (the web's enrolment form): stores it sealed
 * with a fresh scratch code, returned to be shown once. Undefined for a wrong passcode.
 */
export async function confirmTotpEnrollment(env: Env, user: UserRow, secret: string, passcode: string): Promise<string | undefined> {
  if (!/^\d{6}$/.test(passcode.trim())) return undefined;
  if ((await totpFor(env, user, secret)).validate({ token: passcode.trim(), window: 1 }) === null) return undefined;
  const scratch = newScratchCode();
  writeTx(env.db, (tx) => {
    twofa.upsertTwoFactor(tx, user.id, env.twoFactorBox.seal(secret, context(user.id)), nowUnix());
    twofa.setScratchHash(tx, user.id, scratchHash(user.id, scratch));
    twofa.setLastUsedPasscode(tx, user.id, passcode.trim(), nowUnix());
  });
  return scratch;
}

/** A new scratch code for an enrolled account, replacing the old one; shown once. */
export function regenerateScratchCode(env: Env, user: UserRow): string | undefined {
  if (!hasTotp(env, user)) return undefined;
  const scratch = newScratchCode();
  writeTx(env.db, (tx) => twofa.setScratchHash(tx, user.id, scratchHash(user.id, scratch)));
  return scratch;
}

/**
 * Signs in with the scratch code instead of a passcode: it works once (Gitea then sends the user
 * to the security settings to enrol again or make a new code); the used code is replaced by one
 * nobody knows.
 */
export function useScratchCode(env: Env, user: UserRow, code: string): boolean {
  const row = twofa.getTwoFactor(env.db, user.id);
  if (!row?.scratchHash || !constantTimeEqual(row.scratchHash, scratchHash(user.id, code))) return false;
  writeTx(env.db, (tx) => twofa.setScratchHash(tx, user.id, scratchHash(user.id, newScratchCode())));
  return true;
}
