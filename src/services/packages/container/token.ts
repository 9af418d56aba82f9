import { timingSafeEqual } from "node:crypto";
import type { Env } from "../../env.ts";

/**
 * The container registry's bearer tokens (Gitea's CreateAuthorizationToken/ParseAuthorizationToken):
 * a JWT (HS256, signed with a key derived from SECRET_KEY) naming the user (-1: the anonymous
 * ghost) and the scope of the credentials it was issued for, valid for a day.
 */
export interface RegistryTokenClaims {
  userId: number;
  /** The stored scope of the access token the registry token was issued for; "" for a password. */
  scope: string;
}

const LIFETIME_SECONDS = 24 * 60 * 60;
export const GHOST_USER_ID = -1;

const b64url = (data: string | Uint8Array) => Buffer.from(data).toString("base64url");

function signingKey(env: Env): string {
  return `hearth container registry:${env.settings.security.secretKey}`;
}

function sign(env: Env, input: string): string {
  return new Bun.CryptoHasher("sha256", signingKey(env)).update(input).digest("base64url");
}

export function createRegistryToken(env: Env, claims: RegistryTokenClaims, now = Math.floor(Date.now() / 1000)): string {
  const header = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = b64url(JSON.stringify({ exp: now + LIFETIME_SECONDS, nbf: now, iat: now, UserID: claims.userId, Scope: claims.scope }));
  return `${header}.${payload}.${sign(env, `${header}.${payload}`)}`;
}

/** The claims of a token this site signed and that has not expired; undefined for anything else. */
export function verifyRegistryToken(env: Env, token: string, now = Math.floor(Date.now() / 1000)): RegistryTokenClaims | undefined {
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  const [header, payload, signature] = parts as [string, string, string];
  const expected = Buffer.from(sign(env, `${header}.${payload}`));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  try {
    const h = JSON.parse(Buffer.from(header, "base64url").toString("utf8"));
    if (h?.alg !== "HS256") return undefined;
    const c = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    if (typeof c?.exp !== "number" || c.exp < now || (typeof c.nbf === "number" && c.nbf > now + 60)) return undefined;
    if (typeof c.UserID !== "number" || !Number.isSafeInteger(c.UserID)) return undefined;
    return { userId: c.UserID, scope: typeof c.Scope === "string" ? c.Scope : "" };
  } catch {
    return undefined;
  }
}
