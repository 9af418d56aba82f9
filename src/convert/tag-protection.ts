import type { ProtectedTagRule } from "../services/protection/tag-rules.ts";
import { toRFC3339 } from "../lib/time.ts";
import type { APITagProtection } from "../shapes/tag-protection.ts";

/** Gitea's ToTagProtection; the names come from services/protection/tag-manage.ts tagAllowlistNames. */
export function toAPITagProtection(rule: ProtectedTagRule, names: { users: string[]; teams: string[] }): APITagProtection {
  return {
    id: rule.id,
    name_pattern: rule.namePattern,
    whitelist_usernames: names.users,
    whitelist_teams: names.teams,
    created_at: toRFC3339(rule.createdUnix),
    updated_at: toRFC3339(rule.updatedUnix),
  };
}
