import * as v from "valibot";
import { operation, reply, type AnyOperation } from "../../../route.ts";
import { RepoParams } from "../../../schemas/repo.ts";
import { Team } from "../../../schemas/team.ts";
import { toAPITeam } from "../../../../convert/team.ts";
import { teamUnits } from "../../../../services/org/teams.ts";
import { changeRepoTeam, listRepoTeams, repoTeam } from "../../../../services/repo/teams.ts";
import type { TeamRow } from "../../../../db/schema/index.ts";
import type { Env } from "../../../../services/env.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import { repoFromPath } from "./context.ts";
import { requireToken } from "./collaborators.ts";
import { requireRepoAdmin } from "./repo.ts";

const RepoTeamParams = v.object({ ...RepoParams.entries, team: v.string() });

function teamsJson(env: Env, rc: RepoContext, rows: TeamRow[]) {
  const units = teamUnits(env, rows.map((t) => t.id));
  return rows.map((t) => toAPITeam(env.settings, t, units.get(t.id) ?? [], rc.owner));
}

export const repoTeamOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/teams",
    operationId: "repoListTeams",
    tag: "repository",
    summary: "List a repository's teams",
    access: { scope: "repository", signIn: false },
    params: RepoParams,
    responses: { 200: v.array(Team) },
    handler: ({ env, principal, url, params }) => {
      const rc = repoFromPath(env, principal, url, params);
      requireToken(principal);
      return teamsJson(env, rc, listRepoTeams(env, rc));
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/teams/:team",
    operationId: "repoCheckTeam",
    tag: "repository",
    summary: "Check if a team is assigned to a repository",
    access: { scope: "repository", signIn: false },
    params: RepoTeamParams,
    responses: { 200: Team },
    handler: ({ env, principal, url, params }) => {
      const rc = repoFromPath(env, principal, url, params);
      requireToken(principal);
      return teamsJson(env, rc, [repoTeam(env, rc, params.team)])[0];
    },
  }),
  ...(["PUT", "DELETE"] as const).map((method) =>
    operation({
      method,
      path: "/repos/:owner/:repo/teams/:team",
      operationId: method === "PUT" ? "repoAddTeam" : "repoDeleteTeam",
      tag: "repository",
      summary: method === "PUT" ? "Add a team to a repository" : "Delete a team from a repository",
      access: { scope: "repository", signIn: false },
      params: RepoTeamParams,
      responses: { 204: null },
      handler: ({ env, principal, url, params }) => {
        const rc = repoFromPath(env, principal, url, params);
        requireRepoAdmin(principal, rc.perm.isAdmin());
        changeRepoTeam(env, rc, params.team, method === "PUT");
        return reply.noContent();
      },
    }),
  ),
];
