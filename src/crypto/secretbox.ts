import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Seals small secrets at rest (TOTP seeds, webhook authorization values, mirror credentials) with
 * AES-256-GCM under a key derived from `[security] SECRET_KEY`. The envelope is versioned
 * (`v1:` + base64url(nonce | ciphertext | tag)), and `context` (the owning row's identity) is bound
 * as associated data, so a sealed value copied onto another row does not open.
 */
const VERSION = "v1";

export class SecretBox {
  private readonly key: Buffer;

  constructor(secretKey: string, purpose: string) {
    if (!secretKey) throw new Error("SECRET_KEY is empty");
    this.key = Buffer.from(hkdfSync("sha256", secretKey, "hearth", `hearth/${VERSION}/${purpose}`, 32));
  }

  seal(plaintext: string, context: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, nonce);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return `${VERSION}:${Buffer.concat([nonce, body, cipher.getAuthTag()]).toString("base64url")}`;
  }

  open(sealed: string, context: string): string {
    const [version, payload] = sealed.split(":", 2);
    if (version !== VERSION || !payload) throw new Error("unknown secret envelope");
    const raw = Buffer.from(payload, "base64url");
    if (raw.length < 28) throw new Error("truncated secret envelope");
    const decipher = createDecipheriv("aes-256-gcm", this.key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString("utf8");
  }
}
