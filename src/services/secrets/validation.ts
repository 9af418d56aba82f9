import { BadRequest } from "../../lib/errors.ts";

/**
 * Gitea's secret name rules (services/secrets/validation.go, after GitHub's): letters, digits and
 * underscores, not starting with a digit, and not GITEA_ or GITHUB_ (the names Actions sets
 * itself), all case-insensitively; names are stored upper-cased.
 */
const NAME = /^[A-Z_][A-Z0-9_]*$/i;
const FORBIDDEN_PREFIX = /^GIT(EA|HUB)_/i;

/** Gitea's ErrInvalidName, an invalid-argument error its API answers with 400. */
export function validateSecretName(name: string): void {
  if (!NAME.test(name) || FORBIDDEN_PREFIX.test(name)) throw new BadRequest("invalid secret name");
}

/** Gitea's SecretDataMaxLength: bytes of the clear value (Go's len). */
export const SECRET_DATA_MAX_LENGTH = 65536;
/** Gitea's SecretDescriptionMaxLength: characters (runes); a longer description is cut, not refused. */
export const SECRET_DESCRIPTION_MAX_LENGTH = 4096;

export function checkSecretData(data: string): void {
  if (Buffer.byteLength(data, "utf8") > SECRET_DATA_MAX_LENGTH) throw new BadRequest("data too long");
}

/** Gitea's util.TruncateRunes. */
export function truncateDescription(description: string): string {
  const chars = Array.from(description);
  return chars.length <= SECRET_DESCRIPTION_MAX_LENGTH ? description : chars.slice(0, SECRET_DESCRIPTION_MAX_LENGTH).join("");
}
