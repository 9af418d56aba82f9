import { randomBytes, createHash, timingSafeEqual } from "node:crypto";

/** 160 random bits as 40 hex characters: the shape Gitea's clients expect of a token (`sha1`). */
export function newAccessToken(): string {
  return randomBytes(20).toString("hex");
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function constantTimeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
