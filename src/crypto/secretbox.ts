import type * as NodeCrypto from "node:crypto";

/**
 * Seals small secrets at rest (TOTP seeds, webhook authorization values, mirror credentials) with
 * AES-256-GCM under a key derived from `[security] SECRET_KEY`. The envelope is versioned
 * (`v1:` + base64url(nonce | ciphertext | tag)), and `context` (the owning row's identity) is bound
 * as associated data, so a sealed value copied onto another row does not open.
 */
const VERSION = "v1";

/**
 * node:crypto, loaded by the first seal or open (synchronously, as the callers are): most starts
 * seal nothing, and loading the module costs ~2 MiB resident.
 */
const nodeCrypto = () => process.getBuiltinModule("node:crypto") as typeof NodeCrypto;

export class SecretBox {
  private derived: Buffer | undefined;

  constructor(
    private readonly secretKey: string,
    private readonly purpose: string,
  ) {
    if (!secretKey) throw new Error("SECRET_KEY is empty");
  }

  /** The box's key, derived from SECRET_KEY and the purpose on first use. */
  private get key(): Buffer {
    this.derived ??= Buffer.from(nodeCrypto().hkdfSync("sha256", this.secretKey, "hearth", `hearth/${VERSION}/${this.purpose}`, 32));
    return this.derived;
  }

  seal(plaintext: string, context: string): string {
    const { createCipheriv, randomBytes } = nodeCrypto();
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
    const decipher = nodeCrypto().createDecipheriv("aes-256-gcm", this.key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString("utf8");
  }
}
