// Web Crypto and Bun's hasher, not node:crypto: loading that module costs a start ~2 MiB resident,
// and these are all a request needs.

/** 160 random bits as 40 hex characters: the shape Gitea's clients expect of a token (`sha1`). */
export function newAccessToken(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(20))).toString("hex");
}

export function hashToken(token: string): string {
  return new Bun.CryptoHasher("sha256").update(token).digest("hex");
}

export function constantTimeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && crypto.timingSafeEqual(ab, bb);
}
