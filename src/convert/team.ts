import type { Settings } from "../config/settings.ts";
import type { TeamRow, TeamUnitRow, UserRow } from "../db/schema/index.ts";
import { MODE_NAMES, UNIT_NAMES } from "../services/org/teams.ts";
import { toAPIOrganization, type APIOrganization } from "./org.ts";

/** Gitea's `Team` JSON. */
export interface APITeam {
  id: number;
  name: string;
  description: string;
  organization: APIOrganization | null;
  includes_all_repositories: boolean;
  permission: string;
  units: string[];
  units_map: Record<string, string>;
  can_create_org_repo: boolean;
}

/** Gitea's convert.ToTeam; `organization` is filled wherever hearth returns a team (never null). */
export function toAPITeam(settings: Settings, team: TeamRow, units: TeamUnitRow[], org: UserRow): APITeam {
  const named = units.filter((u) => UNIT_NAMES[u.type]);
  return {
    id: team.id,
    name: team.name,
    description: team.description,
    organization: toAPIOrganization(settings, org),
    includes_all_repositories: team.includesAllRepositories,
    permission: MODE_NAMES[team.authorize] ?? "none",
    units: named.map((u) => UNIT_NAMES[u.type]!),
    units_map: Object.fromEntries(named.map((u) => [UNIT_NAMES[u.type]!, MODE_NAMES[u.accessMode] ?? "none"])),
    can_create_org_repo: team.canCreateOrgRepo,
  };
}
