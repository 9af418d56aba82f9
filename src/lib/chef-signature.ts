/**
 * The parts of Chef's signed-header authentication (mixlib-authentication, as Gitea's
 * routers/api/packages/chef/auth.go checks it) that are plain text work: the signing version of
 * `X-Ops-Sign`, the signature split over `X-Ops-Authorization-N`, the text a version signs, the
 * RFC 3339 timestamp. The RSA check itself is the service's.
 */
import { cleanPath } from "./path.ts";

export type ChefSignVersion = "1.0" | "1.1" | "1.2" | "1.3";

/** Why a request's signature headers cannot be checked (a 401 for the caller). */
export class ChefAuthError extends Error {}

/**
 * The version of an `X-Ops-Sign` header (`version=1.3;algorithm=sha256`): 1.0 to 1.3, the
 * algorithm sha1, or sha256 with 1.3 only (an absent algorithm is allowed, as Gitea allows it).
 */
export function chefSignVersion(header: string | null): ChefSignVersion {
  if (!header) throw new ChefAuthError("X-Ops-Sign header missing");
  const version = /version=(\d+\.\d+)/.exec(header)?.[1];
  if (!version) throw new ChefAuthError("invalid X-Ops-Sign header");
  if (version !== "1.0" && version !== "1.1" && version !== "1.2" && version !== "1.3") throw new ChefAuthError("unsupported version");
  const algorithm = /algorithm=(\w+)/.exec(header)?.[1];
  if (algorithm !== undefined && algorithm !== "sha1" && !(algorithm === "sha256" && version === "1.3")) {
    throw new ChefAuthError("unsupported algorithm");
  }
  return version;
}

/**
 * The signature carried by `X-Ops-Authorization-1..N` (base64 split in pieces of 60): the pieces
 * joined in order, decoded. A gap in the numbering is refused.
 */
export function chefAuthorization(headers: Headers): Buffer {
  const pieces = new Map<number, string>();
  for (const [name, value] of headers) {
    const m = /^x-ops-authorization-(\d+)$/i.exec(name);
    if (m) pieces.set(Number(m[1]), value);
  }
  if (!pieces.size) throw new ChefAuthError("X-Ops-Authorization headers missing");
  const ordered: string[] = [];
  for (let i = 1; i <= pieces.size; i++) {
    const piece = pieces.get(i);
    if (piece === undefined) throw new ChefAuthError("invalid X-Ops-Authorization headers");
    ordered.push(piece);
  }
  const text = ordered.join("");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new ChefAuthError("invalid X-Ops-Authorization headers");
  return Buffer.from(text, "base64");
}


const b64sha1 = (text: string) => new Bun.CryptoHasher("sha1").update(text).digest("base64");

export interface SignedRequest {
  method: string;
  /** The request's path (decoded, as Go's URL.Path); it is cleaned here. */
  path: string;
  contentHash: string;
  timestamp: string;
  userId: string;
  /** `X-Ops-Server-API-Version` (signed by 1.3 only). */
  serverApiVersion: string;
}

/**
 * The text a version signs. 1.3: `Method:`, `Path:`, `X-Ops-Content-Hash:`, `X-Ops-Sign:`,
 * `X-Ops-Timestamp:`, `X-Ops-UserId:`, `X-Ops-Server-API-Version:` lines; 1.0 to 1.2 the older
 * canonical form with the path hashed (sha1, base64); from 1.1 on (1.3 excepted) the user id is
 * hashed the same way.
 */
export function chefSignedText(req: SignedRequest, version: ChefSignVersion): string {
  const path = cleanPath(req.path);
  const userId = version === "1.0" || version === "1.3" ? req.userId : b64sha1(req.userId);
  if (version === "1.3") {
    return [
      `Method:${req.method}`,
      `Path:${path}`,
      `X-Ops-Content-Hash:${req.contentHash}`,
      `X-Ops-Sign:version=${version}`,
      `X-Ops-Timestamp:${req.timestamp}`,
      `X-Ops-UserId:${userId}`,
      `X-Ops-Server-API-Version:${req.serverApiVersion}`,
    ].join("\n");
  }
  return [
    `Method:${req.method}`,
    `Hashed Path:${b64sha1(path)}`,
    `X-Ops-Content-Hash:${req.contentHash}`,
    `X-Ops-Timestamp:${req.timestamp}`,
    `X-Ops-UserId:${userId}`,
  ].join("\n");
}

/** Go's time.Parse(time.RFC3339): the instant in milliseconds, undefined when it is not one. */
export function parseRfc3339(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac = "", zone] = m;
  if (Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(d) > 31 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  let ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) + Math.floor(Number(`0${frac || ".0"}`) * 1000);
  if (new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d))).getUTCDate() !== Number(d)) return undefined;
  if (zone !== "Z" && zone !== "z") {
    const sign = zone!.startsWith("-") ? -1 : 1;
    const [zh, zm] = zone!.slice(1).split(":").map(Number) as [number, number];
    if (zh > 23 || zm > 59) return undefined;
    ms -= sign * (zh * 60 + zm) * 60_000;
  }
  return ms;
}
