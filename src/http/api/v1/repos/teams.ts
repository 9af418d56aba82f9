import * as v from "valibot";
import { operation, reply, type AnyOperation } from "../../../route.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import { Team } from "../../../../shapes/team.ts";
import { toAPITeam } from "../../../../convert/team.ts";
import { teamUnits } from "../../../../services/org/teams.ts";
import { changeRepoTeam, listRepoTeams, repoTeam } from "../../../../services/repo/teams.ts";
import type { TeamRow } from "../../../../db/schema/index.ts";
import type { Env } from "../../../../services/env.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";

const RepoTeamParams = v.object({ ...RepoParams.entries, team: v.string() });

function teamsJson(env: Env, rc: RepoContext, rows: TeamRow[]) {
  const units = teamUnits(env, rows.map((t) => t.id));
  return rows.map((t) => toAPITeam(env.settings, t, units.get(t.id) ?? [], rc.owner));
}

/**
 * Reading a repository's teams: Gitea's reqToken on the group, after the repository was found (its
 * reqAnyRepoReader is the lookup's own 404).
 */
const signedIn = { scope: "repository", signIn: false, repo: { doer: true } } as const;
/** Adding and removing one: reqToken, then reqAdmin. */
const admin = { scope: "repository", signIn: false, repo: { admin: true } } as const;

export const repoTeamOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/teams",
    operationId: "repoListTeams",
    tag: "repository",
    summary: "List a repository's teams",
    access: signedIn,
    params: RepoParams,
    responses: { 200: v.array(Team) },
    handler: ({ env, repo: rc }) => {
      return teamsJson(env, rc, listRepoTeams(env, rc));
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/teams/:team",
    operationId: "repoCheckTeam",
    tag: "repository",
    summary: "Check if a team is assigned to a repository",
    access: signedIn,
    params: RepoTeamParams,
    responses: { 200: Team },
    handler: ({ env, repo: rc, params }) => {
      const team = repoTeam(env, rc, params.team);
      return toAPITeam(env.settings, team, teamUnits(env, [team.id]).get(team.id) ?? [], rc.owner);
    },
  }),
  ...(["PUT", "DELETE"] as const).map((method) =>
    operation({
      method,
      path: "/repos/:owner/:repo/teams/:team",
      operationId: method === "PUT" ? "repoAddTeam" : "repoDeleteTeam",
      tag: "repository",
      summary: method === "PUT" ? "Add a team to a repository" : "Delete a team from a repository",
      access: admin,
      params: RepoTeamParams,
      responses: { 204: null },
      handler: ({ env, repo: rc, params }) => {
        changeRepoTeam(env, rc, params.team, method === "PUT");
        return reply.noContent();
      },
    }),
  ),
];
