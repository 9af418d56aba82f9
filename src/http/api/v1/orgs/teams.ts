import * as v from "valibot";
import { operation, reply, Reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../schemas/common.ts";
import { OrgParams } from "../../../schemas/org.ts";
import { CreateTeamOption, EditTeamOption, Team, TeamSearchResult } from "../../../schemas/team.ts";
import { User } from "../../../schemas/user.ts";
import { Repository } from "../../../schemas/repo.ts";
import { toAPITeam, type APITeam } from "../../../../convert/team.ts";
import { toAPIUser } from "../../../../convert/user.ts";
import {
  addTeamMember,
  createTeam,
  deleteTeam,
  editTeam,
  isTeamMember,
  listOrgTeams,
  listTeamMembers,
  listUserTeams,
  orgsOfTeams,
  removeTeamMember,
  searchTeams,
  requireTeamOwner,
  teamForMember,
  teamUnits,
  type TeamInput,
} from "../../../../services/org/teams.ts";
import { addTeamRepo, getTeamRepo, listTeamRepos, removeTeamRepo } from "../../../../services/org/team-repos.ts";
import { requireOrgOwner } from "../../../../services/org/lookup.ts";
import { requireUser } from "../../../../services/user/account.ts";
import { repoTopics } from "../../../../services/repo/lookup.ts";
import { toAPIRepo } from "../../../../convert/repo.ts";
import { NotFound } from "../../../../lib/errors.ts";
import type { Env } from "../../../../services/env.ts";
import type { Principal } from "../../../../auth/principal.ts";
import type { TeamRow, UserRow } from "../../../../db/schema/index.ts";
import { totalHeaders } from "../repos/collaborators.ts";
import { orgFromPath } from "./context.ts";
import { requireOwnerInReach } from "../../../../services/access/permission.ts";

const TeamParams = v.object({ id: v.string() });
const TeamUserParams = v.object({ ...TeamParams.entries, username: v.string() });
const TeamRepoParams = v.object({ ...TeamParams.entries, org: v.string(), repo: v.string() });

function teamsJson(env: Env, rows: TeamRow[], org?: UserRow): APITeam[] {
  const units = teamUnits(env, rows.map((t) => t.id));
  const orgs = org ? new Map([[org.id, org]]) : orgsOfTeams(env, rows);
  return rows.map((t) => toAPITeam(env.settings, t, units.get(t.id) ?? [], orgs.get(t.orgId)!));
}

function teamJson(env: Env, team: TeamRow, org: UserRow): APITeam {
  return teamsJson(env, [team], org)[0]!;
}

function inputOf(body: v.InferOutput<typeof EditTeamOption>): TeamInput {
  return {
    name: body.name ?? undefined,
    description: body.description ?? undefined,
    permission: body.permission ?? undefined,
    units: body.units ?? undefined,
    unitsMap: body.units_map ?? undefined,
    includesAllRepositories: body.includes_all_repositories ?? undefined,
    canCreateOrgRepo: body.can_create_org_repo ?? undefined,
  };
}

/** `/teams/{id}` with Gitea's reqTeamMembership and its public-only token check. */
function teamFromPath(env: Env, principal: Principal | undefined, id: string) {
  // Gitea parses the id leniently: anything but a number finds no team.
  if (!/^\d{1,15}$/.test(id)) throw new NotFound();
  const found = teamForMember(env, principal!.user, Number(id));
  requireOwnerInReach(env, found.org, principal?.user);
  return found;
}

export const teamOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/orgs/:org/teams",
    operationId: "orgListTeams",
    tag: "organization",
    summary: "List an organization's teams",
    access: { scope: "organization", signIn: true },
    params: OrgParams,
    query: PageQuery,
    responses: { 200: v.array(Team) },
    handler: (ctx) => {
      const org = orgFromPath.membered(ctx.env, ctx.principal, ctx.params.org);
      const page = ctx.page();
      const { rows, total } = listOrgTeams(ctx.env, org, page);
      return ctx.list(teamsJson(ctx.env, rows, org), total, page);
    },
  }),
  operation({
    method: "POST",
    path: "/orgs/:org/teams",
    operationId: "orgCreateTeam",
    tag: "organization",
    summary: "Create a team",
    access: { scope: "organization", signIn: true },
    params: OrgParams,
    body: CreateTeamOption,
    responses: { 201: Team },
    handler: (ctx) => {
      // Gitea's /teams group checks membership before the route checks ownership.
      const org = orgFromPath.membered(ctx.env, ctx.principal, ctx.params.org);
      requireOrgOwner(ctx.env, org, ctx.principal!.user);
      const team = createTeam(ctx.env, org, { ...inputOf(ctx.body), name: ctx.body.name });
      return reply.created(teamJson(ctx.env, team, org));
    },
  }),
  operation({
    method: "GET",
    path: "/orgs/:org/teams/search",
    operationId: "teamSearch",
    tag: "organization",
    summary: "Search for teams within an organization",
    access: { scope: "organization", signIn: true },
    params: OrgParams,
    query: v.object({ ...PageQuery.entries, q: v.optional(v.string()), include_desc: v.optional(v.string()) }),
    responses: { 200: TeamSearchResult },
    handler: (ctx) => {
      const org = orgFromPath.membered(ctx.env, ctx.principal, ctx.params.org);
      const page = ctx.page();
      const includeDesc = ctx.query.include_desc;
      const { rows, total } = searchTeams(ctx.env, ctx.principal!.user, org, {
        keyword: (ctx.query.q ?? "").trim(),
        includeDescription: includeDesc === undefined || includeDesc === "" || ["1", "t", "T", "true", "TRUE", "True"].includes(includeDesc),
        ...page,
      });
      return new Reply(200, { ok: true, data: teamsJson(ctx.env, rows, org) }, totalHeaders(total));
    },
  }),
  operation({
    method: "GET",
    path: "/user/teams",
    operationId: "userListTeams",
    tag: "user",
    summary: "List all the teams a user belongs to",
    // In Gitea's /user group: the user scope only.
    access: { scope: "user", signIn: true },
    query: PageQuery,
    responses: { 200: v.array(Team) },
    handler: (ctx) => {
      const page = ctx.page();
      const { rows, total } = listUserTeams(ctx.env, ctx.principal!.user, page);
      return ctx.list(teamsJson(ctx.env, rows), total, page);
    },
  }),
  operation({
    method: "GET",
    path: "/teams/:id",
    operationId: "orgGetTeam",
    tag: "organization",
    summary: "Get a team",
    access: { scope: "organization", signIn: true },
    params: TeamParams,
    responses: { 200: Team },
    handler: ({ env, principal, params }) => {
      const { team, org } = teamFromPath(env, principal, params.id);
      return teamJson(env, team, org);
    },
  }),
  operation({
    method: "PATCH",
    path: "/teams/:id",
    operationId: "orgEditTeam",
    tag: "organization",
    summary: "Edit a team",
    access: { scope: "organization", signIn: true },
    params: TeamParams,
    body: EditTeamOption,
    responses: { 200: Team },
    handler: (ctx) => {
      const { team, org } = teamFromPath(ctx.env, ctx.principal, ctx.params.id);
      requireTeamOwner(ctx.env, ctx.principal!.user, team);
      return teamJson(ctx.env, editTeam(ctx.env, team, inputOf(ctx.body)), org);
    },
  }),
  operation({
    method: "DELETE",
    path: "/teams/:id",
    operationId: "orgDeleteTeam",
    tag: "organization",
    summary: "Delete a team",
    access: { scope: "organization", signIn: true },
    params: TeamParams,
    responses: { 204: null },
    handler: ({ env, principal, params }) => {
      const { team } = teamFromPath(env, principal, params.id);
      requireTeamOwner(env, principal!.user, team);
      deleteTeam(env, team);
      return reply.noContent();
    },
  }),
  operation({
    method: "GET",
    path: "/teams/:id/members",
    operationId: "orgListTeamMembers",
    tag: "organization",
    summary: "List a team's members",
    access: { scope: "organization", signIn: true },
    params: TeamParams,
    query: PageQuery,
    responses: { 200: v.array(User) },
    handler: (ctx) => {
      const { team } = teamFromPath(ctx.env, ctx.principal, ctx.params.id);
      const page = ctx.page();
      const { rows, total } = listTeamMembers(ctx.env, team, page);
      return ctx.list(rows.map((u) => toAPIUser(ctx.env.settings, u, ctx.principal!.user)), total, page);
    },
  }),
  operation({
    method: "GET",
    path: "/teams/:id/members/:username",
    operationId: "orgListTeamMember",
    tag: "organization",
    summary: "List a particular member of team",
    access: { scope: "organization", signIn: true },
    params: TeamUserParams,
    responses: { 200: User },
    handler: ({ env, principal, params }) => {
      const { team } = teamFromPath(env, principal, params.id);
      const user = requireUser(env, params.username);
      if (!isTeamMember(env, team, user)) throw new NotFound();
      return toAPIUser(env.settings, user, principal!.user);
    },
  }),
  ...(["PUT", "DELETE"] as const).map((method) =>
    operation({
      method,
      path: "/teams/:id/members/:username",
      operationId: method === "PUT" ? "orgAddTeamMember" : "orgRemoveTeamMember",
      tag: "organization",
      summary: method === "PUT" ? "Add a team member" : "Remove a team member",
      access: { scope: "organization", signIn: true },
      params: TeamUserParams,
      responses: { 204: null },
      handler: ({ env, principal, params }) => {
        const { team } = teamFromPath(env, principal, params.id);
        requireTeamOwner(env, principal!.user, team);
        const user = requireUser(env, params.username);
        if (method === "PUT") addTeamMember(env, team, user);
        else removeTeamMember(env, team, user);
        return reply.noContent();
      },
    }),
  ),
  operation({
    method: "GET",
    path: "/teams/:id/repos",
    operationId: "orgListTeamRepos",
    tag: "organization",
    summary: "List a team's repos",
    access: { scope: "organization", signIn: true },
    params: TeamParams,
    query: PageQuery,
    responses: { 200: v.array(Repository) },
    handler: (ctx) => {
      const { team } = teamFromPath(ctx.env, ctx.principal, ctx.params.id);
      const page = ctx.page();
      const { rows, total } = listTeamRepos(ctx.env, ctx.principal!.user, team, page);
      const json = rows.map((rc) => toAPIRepo(ctx.env.settings, { ...rc, topics: repoTopics(ctx.env, rc.repo.id) }));
      return ctx.list(json, total, page);
    },
  }),
  operation({
    method: "GET",
    path: "/teams/:id/repos/:org/:repo",
    operationId: "orgListTeamRepo",
    tag: "organization",
    summary: "List a particular repo of team",
    access: { scope: "organization", signIn: true },
    params: TeamRepoParams,
    responses: { 200: Repository },
    handler: ({ env, principal, params }) => {
      const { team, org } = teamFromPath(env, principal, params.id);
      const rc = getTeamRepo(env, principal!.user, team, org, params.org, params.repo);
      return toAPIRepo(env.settings, { ...rc, topics: repoTopics(env, rc.repo.id) });
    },
  }),
  ...(["PUT", "DELETE"] as const).map((method) =>
    operation({
      method,
      path: "/teams/:id/repos/:org/:repo",
      operationId: method === "PUT" ? "orgAddTeamRepository" : "orgRemoveTeamRepository",
      tag: "organization",
      summary: method === "PUT" ? "Add a repository to a team" : "Remove a repository from a team",
      access: { scope: "organization", signIn: true },
      params: TeamRepoParams,
      responses: { 204: null },
      handler: ({ env, principal, params }) => {
        const { team, org } = teamFromPath(env, principal, params.id);
        const change = method === "PUT" ? addTeamRepo : removeTeamRepo;
        change(env, principal!.user, team, org, params.org, params.repo);
        return reply.noContent();
      },
    }),
  ),
];
