import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { UserType, type TeamRow } from "../../db/schema/index.ts";
import * as teams from "../../models/team.ts";
import { Forbidden, HearthError, Invalid, NotFound } from "../../lib/errors.ts";
import type { RepoContext } from "./lookup.ts";
import type { Administers } from "../access/repo-access.ts";

/** Gitea answers team routes of a repository that no organization owns with 405. */
function requireOrgOwned(rc: RepoContext): void {
  if (rc.owner.type !== UserType.Organization) throw new HearthError(405, "repo is not owned by an organization");
}

/** GET /repos/{o}/{r}/teams: the organization's teams that have the repository. */
export function listRepoTeams(env: Env, rc: RepoContext): TeamRow[] {
  requireOrgOwned(rc);
  return teams.teamsWithRepo(env.db, rc.repo.id);
}

function teamNamed(env: Env, rc: RepoContext, name: string): TeamRow {
  const team = teams.getTeamByName(env.db, rc.owner.id, name);
  if (!team) throw new NotFound(`team does not exist [org_id ${rc.owner.id}, team_id 0, name: ${name}]`);
  return team;
}

/** GET /repos/{o}/{r}/teams/{team}: the team when it has the repository. */
export function repoTeam(env: Env, rc: RepoContext, name: string): TeamRow {
  requireOrgOwned(rc);
  const team = teamNamed(env, rc, name);
  if (!teams.hasTeamRepo(env.db, team.id, rc.repo.id)) throw new NotFound();
  return team;
}

/**
 * PUT/DELETE /repos/{o}/{r}/teams/{team}: repository admins may do it only where the organization
 * lets them (repo_admin_change_team_access); organization owners and site admins always.
 */
export function changeRepoTeam(env: Env, rc: Administers, name: string, add: boolean): void {
  requireOrgOwned(rc);
  if (!rc.owner.repoAdminChangeTeamAccess && !rc.perm.isOwner()) {
    throw new Forbidden("user is nor repo admin nor owner");
  }
  const team = teamNamed(env, rc, name);
  const has = teams.hasTeamRepo(env.db, team.id, rc.repo.id);
  if (add && has) throw new Invalid(`team '${team.name}' is already added to repo`);
  if (!add && !has) throw new Invalid(`team '${team.name}' was not added to repo`);
  writeTx(env.db, (tx) => (add ? teams.addTeamRepo(tx, team, rc.repo.id) : teams.removeTeamRepo(tx, team, rc.repo.id)));
}
