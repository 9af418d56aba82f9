import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import type { RepoRow, TeamRow, UserRow } from "../../db/schema/index.ts";
import * as teams from "../../models/team.ts";
import * as repos from "../../models/repo.ts";
import { isPublicOnly, repoPermission, type Doer } from "../access/permission.ts";
import { Forbidden, NotFound } from "../../lib/errors.ts";
import { withContext } from "../repo/list.ts";
import type { RepoContext } from "../repo/lookup.ts";
import type { ListPage } from "./org.ts";

/** The repositories a team has, each with the doer's permission on it. */
export function listTeamRepos(env: Env, doer: Doer, team: TeamRow, page: ListPage) {
  const { rows, total } = teams.listTeamRepos(env.db, team.id, { publicOnly: isPublicOnly(doer), ...page });
  return { rows: withContext(env, doer, rows), total };
}

/**
 * `{org}/{repo}` of a team route: a repository of the team's organization, or 404. Gitea ignores
 * `{org}` and looks the name up in the team's organization; naming another organization is a 404 here.
 */
function orgRepo(env: Env, team: TeamRow, org: UserRow, ownerName: string, repoName: string): RepoRow {
  if (ownerName.toLowerCase() !== org.lowerName) throw new NotFound();
  const repo = repos.getRepoByOwner(env.db, team.orgId, repoName);
  if (!repo) throw new NotFound();
  return repo;
}

/** GET /teams/{id}/repos/{org}/{repo}: the repository when the team has it. */
export function getTeamRepo(env: Env, doer: UserRow, team: TeamRow, org: UserRow, ownerName: string, repoName: string): RepoContext {
  const repo = orgRepo(env, team, org, ownerName, repoName);
  if (!teams.hasTeamRepo(env.db, team.id, repo.id)) throw new NotFound();
  return { repo, owner: org, perm: repoPermission(env, doer, repo, org) };
}

/** Gitea lets only administrators of the repository give it to or take it from a team. */
function requireRepoAdmin(env: Env, doer: UserRow, repo: RepoRow, org: UserRow): void {
  if (!repoPermission(env, doer, repo, org).isAdmin()) throw new Forbidden("Must have admin-level access to the repository");
}

export function addTeamRepo(env: Env, doer: UserRow, team: TeamRow, org: UserRow, ownerName: string, repoName: string): void {
  const repo = orgRepo(env, team, org, ownerName, repoName);
  requireRepoAdmin(env, doer, repo, org);
  writeTx(env.db, (tx) => teams.addTeamRepo(tx, team, repo.id));
}

/** A team that includes all repositories keeps them: removing one is a no-op, as in Gitea. */
export function removeTeamRepo(env: Env, doer: UserRow, team: TeamRow, org: UserRow, ownerName: string, repoName: string): void {
  const repo = orgRepo(env, team, org, ownerName, repoName);
  requireRepoAdmin(env, doer, repo, org);
  if (team.includesAllRepositories) return;
  writeTx(env.db, (tx) => teams.removeTeamRepo(tx, team, repo.id));
}
