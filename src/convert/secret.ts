import type { SecretRow } from "../db/schema/index.ts";
import { toRFC3339 } from "../lib/time.ts";
import type { APISecret } from "../shapes/secret.ts";

/** Gitea's api.Secret: the name, the description and when it was created; never the value. */
export function toAPISecret(s: SecretRow): APISecret {
  return { name: s.name, description: s.description, created_at: toRFC3339(s.createdUnix) };
}
