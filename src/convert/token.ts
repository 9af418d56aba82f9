import type { AccessTokenRow } from "../db/schema/index.ts";
import { ScopeSet } from "../services/access/scopes.ts";
import { storedScope } from "../services/user/tokens.ts";
import { toRFC3339 } from "../lib/time.ts";
import type { APIAccessToken } from "../shapes/user.ts";

/** `sha1` carries the token only in the creation response; lists show it empty, as Gitea does. */
export function toAPIAccessToken(row: AccessTokenRow, plaintext = ""): APIAccessToken {
  return {
    id: row.id,
    name: row.name,
    sha1: plaintext,
    token_last_eight: row.tokenLastEight,
    scopes: ScopeSet.parse(storedScope(row)).toList(),
    created_at: toRFC3339(row.createdUnix),
    last_used_at: toRFC3339(row.updatedUnix),
  };
}
