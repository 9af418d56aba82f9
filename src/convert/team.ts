import type { Settings } from "../config/settings.ts";
import type { TeamRow, TeamUnitRow, UserRow } from "../db/schema/index.ts";
import { isAdminTeam, MODE_NAMES, UNIT_NAMES } from "../services/org/teams.ts";
import { toAPIOrganization } from "./org.ts";
import type { APITeam } from "../shapes/team.ts";

/**
 * Gitea's convert.ToTeam. An admin or owner team shows every unit at the team's own mode (Gitea's
 * GetUnitsMap, even for the external units stored as read); other teams show their unit rows.
 * `organization` is filled wherever hearth returns a team (Gitea leaves it null in lists).
 */
export function toAPITeam(settings: Settings, team: TeamRow, units: TeamUnitRow[], org: UserRow): APITeam {
  const mode = MODE_NAMES[team.authorize] ?? "none";
  const unitModes: [string, string][] =
    isAdminTeam(team)
      ? Object.values(UNIT_NAMES).map((name) => [name, mode])
      : units.filter((u) => UNIT_NAMES[u.type]).map((u) => [UNIT_NAMES[u.type]!, MODE_NAMES[u.accessMode] ?? "none"]);
  return {
    id: team.id,
    name: team.name,
    description: team.description,
    organization: toAPIOrganization(settings, org),
    includes_all_repositories: team.includesAllRepositories,
    permission: mode,
    units: unitModes.map(([name]) => name),
    units_map: Object.fromEntries(unitModes),
    can_create_org_repo: team.canCreateOrgRepo,
  };
}
