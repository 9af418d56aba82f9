import type { Settings } from "../config/settings.ts";
import type { UserRow } from "../db/schema/index.ts";
import { visibilityName } from "../services/user/visibility.ts";
import { avatarUrl } from "./user.ts";
import type { APIOrganization } from "../shapes/org.ts";

/**
 * Gitea's convert.ToOrganization. `email` is the organization's optional contact address; Gitea
 * blanks it only on the profile read (GET /orgs/{org}) for anonymous callers, which passes
 * `hideEmail`.
 */
export function toAPIOrganization(settings: Settings, org: UserRow, hideEmail = false): APIOrganization {
  return {
    id: org.id,
    name: org.name,
    full_name: org.fullName,
    email: hideEmail ? "" : org.email,
    avatar_url: avatarUrl(settings, org),
    description: org.description,
    website: org.website,
    location: org.location,
    visibility: visibilityName(org.visibility),
    repo_admin_change_team_access: org.repoAdminChangeTeamAccess,
    username: org.name,
  };
}

