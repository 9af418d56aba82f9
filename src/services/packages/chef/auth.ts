import { constants, createPublicKey, publicDecrypt, verify, type KeyObject } from "node:crypto";
import type { Env } from "../../env.ts";
import type { UserRow } from "../../../db/schema/index.ts";
import * as userModel from "../../../models/user.ts";
import { Unauthorized } from "../../../lib/errors.ts";
import { ChefAuthError, chefAuthorization, chefSignedText, chefSignVersion, parseRfc3339 } from "../../../lib/chef-signature.ts";
import { chefPublicKey } from "./keys.ts";

/** Gitea's maxTimeDifference: how far X-Ops-Timestamp may be from now. */
export const MAX_TIME_DIFFERENCE_MS = 10 * 60 * 1000;

/** Gitea answers every failed package authentication alike (the reason goes to the log only). */
const FAILED = "Failed to authenticate user";

function publicKeyOf(pem: string): KeyObject {
  try {
    return createPublicKey({ key: pem, format: "pem" });
  } catch {
    throw new ChefAuthError("invalid public key");
  }
}

/** 1.0 and 1.1: the text itself encrypted with the private key (PKCS#1 type-1 padding, no digest). */
function verifyOld(signature: Buffer, text: string, key: KeyObject): boolean {
  let out: Buffer;
  try {
    out = publicDecrypt({ key, padding: constants.RSA_PKCS1_PADDING }, signature);
  } catch {
    return false;
  }
  return out.equals(Buffer.from(text));
}

/** 1.2 (sha1) and 1.3 (sha256): RSASSA-PKCS1-v1_5 over the text. */
function verifyNew(signature: Buffer, text: string, key: KeyObject, algorithm: "sha1" | "sha256"): boolean {
  try {
    return verify(algorithm, Buffer.from(text), { key, padding: constants.RSA_PKCS1_PADDING }, signature);
  } catch {
    return false;
  }
}

function check(env: Env, request: Request, now: number): UserRow | undefined {
  const headers = request.headers;
  const userId = headers.get("x-ops-userid");
  if (!userId) return undefined;
  const user = userModel.getUserByName(env.db, userId);
  if (!user) throw new ChefAuthError("user does not exist");
  const pem = chefPublicKey(env, user);
  if (!pem) throw new ChefAuthError("the user has no chef key");
  const key = publicKeyOf(pem);

  const timestamp = headers.get("x-ops-timestamp");
  if (!timestamp) throw new ChefAuthError("X-Ops-Timestamp header missing");
  const at = parseRfc3339(timestamp);
  if (at === undefined) throw new ChefAuthError("invalid X-Ops-Timestamp header");
  if (Math.abs(now - at) > MAX_TIME_DIFFERENCE_MS) throw new ChefAuthError("time difference");

  const version = chefSignVersion(headers.get("x-ops-sign"));
  const signature = chefAuthorization(headers);
  let path = new URL(request.url).pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // Go keeps a path it cannot unescape as it came.
  }
  const text = chefSignedText(
    {
      method: request.method,
      path,
      contentHash: headers.get("x-ops-content-hash") ?? "",
      timestamp,
      userId,
      serverApiVersion: headers.get("x-ops-server-api-version") ?? "",
    },
    version,
  );
  const ok =
    version === "1.3" ? verifyNew(signature, text, key, "sha256") : version === "1.2" ? verifyNew(signature, text, key, "sha1") : verifyOld(signature, text, key);
  if (!ok) throw new ChefAuthError("could not verify signature");
  return user;
}

/**
 * Gitea's chef Auth.Verify: a request naming a user in `X-Ops-Userid` must be signed with that
 * user's key (the one `regenerate_keypair` made) by mixlib-authentication's version 1.0, 1.1,
 * 1.2 or 1.3, with an `X-Ops-Timestamp` within ten minutes of now; it is then that user's. A
 * request without the header is not Chef's to judge (undefined); any failure is a 401 whose
 * reason is logged, not told.
 */
export function verifyChefRequest(env: Env, request: Request, now = Date.now()): UserRow | undefined {
  try {
    return check(env, request, now);
  } catch (err) {
    if (!(err instanceof ChefAuthError)) throw err;
    env.log.debug("chef authentication failed", { reason: err.message });
    throw new Unauthorized(FAILED);
  }
}

/**
 * The body of a signed request, hashed as it is read, and the check that it is the body the
 * signature covers (`X-Ops-Content-Hash`: base64 of its sha1, sha256 with version 1.3). Gitea
 * does not compare them; hearth does for the one request with a body (an upload) so a signature
 * seen in transit cannot carry another cookbook within its ten minutes. Undefined for a request
 * that is not signed.
 */
export function signedBody(request: Request): { body: ReadableStream<Uint8Array>; check(): Promise<void> } | undefined {
  const headers = request.headers;
  if (!headers.get("x-ops-userid") || !request.body) return undefined;
  let algorithm: "sha1" | "sha256";
  try {
    algorithm = chefSignVersion(headers.get("x-ops-sign")) === "1.3" ? "sha256" : "sha1";
  } catch {
    throw new Unauthorized(FAILED);
  }
  const expected = headers.get("x-ops-content-hash") ?? "";
  const hasher = new Bun.CryptoHasher(algorithm);
  const reader = request.body.getReader();
  let ended = false;
  const next = async (): Promise<Uint8Array | undefined> => {
    const { done, value } = await reader.read();
    if (done) ended = true;
    else hasher.update(value);
    return value;
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const value = await next();
      if (value) controller.enqueue(value);
      else controller.close();
    },
    // A reader that stops early (after the form's closing delimiter) leaves the rest to check().
    cancel() {},
  });
  return {
    body,
    async check() {
      while (!ended) await next();
      if (hasher.digest("base64") !== expected) throw new Unauthorized(FAILED);
    },
  };
}
