import * as v from "valibot";
import { operation, reply, Reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../../shapes/common.ts";
import { OrgParams } from "../../../../shapes/org.ts";
import { CreateTeamOption, EditTeamOption, Team, TeamSearchResult } from "../../../../shapes/team.ts";
import { User } from "../../../../shapes/user.ts";
import { Repository } from "../../../../shapes/repo.ts";
import { toAPITeam } from "../../../../convert/team.ts";
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
import { requireUser } from "../../../../services/user/lookup.ts";
import { NotFound } from "../../../../lib/errors.ts";
import type { Env } from "../../../../services/env.ts";
import type { TeamRow, UserRow } from "../../../../db/schema/index.ts";
import { totalHeaders } from "../repos/collaborators.ts";
import { reposJson } from "../repos/context.ts";
import type { APITeam } from "../../../../shapes/team.ts";

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

/** An organization's teams: reqToken, orgAssignment, reqOrgMembership. */
const membered = { scope: "organization", signIn: true, org: "member" } as const;
/**
 * `/teams/{id}`: reqToken; the team (Gitea's reqTeamMembership) is no resource the declaration
 * knows, so the handler finds it with services/org/teams.ts's teamForMember, and the member of
 * `{username}` after it, as Gitea does.
 */
const teamAccess = { scope: "organization", signIn: true } as const;

export const teamOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/orgs/:org/teams",
    operationId: "orgListTeams",
    tag: "organization",
    summary: "List an organization's teams",
    access: membered,
    params: OrgParams,
    query: PageQuery,
    responses: { 200: v.array(Team) },
    handler: (ctx) => {
      const { org } = ctx;
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
    access: membered,
    params: OrgParams,
    body: CreateTeamOption,
    responses: { 201: Team },
    handler: (ctx) => {
      const { org } = ctx;
      // Gitea's /teams group checks membership before the route checks ownership, so a member who
      // is no owner hears "Must be an organization owner" and anyone else the member refusal:
      // two levels the declaration's single `org` cannot name.
      requireOrgOwner(ctx.env, org, ctx.doer);
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
    access: membered,
    params: OrgParams,
    query: v.object({ ...PageQuery.entries, q: v.optional(v.string()), include_desc: v.optional(v.string()) }),
    responses: { 200: TeamSearchResult },
    handler: (ctx) => {
      const { org } = ctx;
      const page = ctx.page();
      const includeDesc = ctx.query.include_desc;
      const { rows, total } = searchTeams(ctx.env, ctx.doer, org, {
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
      const { rows, total } = listUserTeams(ctx.env, ctx.doer, page);
      return ctx.list(teamsJson(ctx.env, rows), total, page);
    },
  }),
  operation({
    method: "GET",
    path: "/teams/:id",
    operationId: "orgGetTeam",
    tag: "organization",
    summary: "Get a team",
    access: teamAccess,
    params: TeamParams,
    responses: { 200: Team },
    handler: ({ env, doer, params }) => {
      const { team, org } = teamForMember(env, doer, params.id);
      return teamJson(env, team, org);
    },
  }),
  operation({
    method: "PATCH",
    path: "/teams/:id",
    operationId: "orgEditTeam",
    tag: "organization",
    summary: "Edit a team",
    access: teamAccess,
    params: TeamParams,
    body: EditTeamOption,
    responses: { 200: Team },
    handler: (ctx) => {
      const { team, org } = teamForMember(ctx.env, ctx.doer, ctx.params.id);
      requireTeamOwner(ctx.env, ctx.doer, team);
      return teamJson(ctx.env, editTeam(ctx.env, team, inputOf(ctx.body)), org);
    },
  }),
  operation({
    method: "DELETE",
    path: "/teams/:id",
    operationId: "orgDeleteTeam",
    tag: "organization",
    summary: "Delete a team",
    access: teamAccess,
    params: TeamParams,
    responses: { 204: null },
    handler: ({ env, doer, params }) => {
      const { team } = teamForMember(env, doer, params.id);
      requireTeamOwner(env, doer, team);
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
    access: teamAccess,
    params: TeamParams,
    query: PageQuery,
    responses: { 200: v.array(User) },
    handler: (ctx) => {
      const { team } = teamForMember(ctx.env, ctx.doer, ctx.params.id);
      const page = ctx.page();
      const { rows, total } = listTeamMembers(ctx.env, team, page);
      return ctx.list(rows.map((u) => toAPIUser(ctx.env.settings, u, ctx.doer)), total, page);
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
    handler: ({ env, doer, params }) => {
      const { team } = teamForMember(env, doer, params.id);
      const user = requireUser(env, params.username);
      if (!isTeamMember(env, team, user)) throw new NotFound();
      return toAPIUser(env.settings, user, doer);
    },
  }),
  ...(["PUT", "DELETE"] as const).map((method) =>
    operation({
      method,
      path: "/teams/:id/members/:username",
      operationId: method === "PUT" ? "orgAddTeamMember" : "orgRemoveTeamMember",
      tag: "organization",
      summary: method === "PUT" ? "Add a team member" : "Remove a team member",
      access: teamAccess,
      params: TeamUserParams,
      responses: { 204: null },
      handler: ({ env, doer, params }) => {
        const { team } = teamForMember(env, doer, params.id);
        requireTeamOwner(env, doer, team);
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
    access: teamAccess,
    params: TeamParams,
    query: PageQuery,
    responses: { 200: v.array(Repository) },
    handler: (ctx) => {
      const { team } = teamForMember(ctx.env, ctx.doer, ctx.params.id);
      const page = ctx.page();
      const { rows, total } = listTeamRepos(ctx.env, ctx.doer, team, page);
      const json = reposJson(ctx.env, rows);
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
    handler: ({ env, doer, params }) => {
      const { team, org } = teamForMember(env, doer, params.id);
      const rc = getTeamRepo(env, doer, team, org, params.org, params.repo);
      return reposJson(env, [rc])[0]!;
    },
  }),
  ...(["PUT", "DELETE"] as const).map((method) =>
    operation({
      method,
      path: "/teams/:id/repos/:org/:repo",
      operationId: method === "PUT" ? "orgAddTeamRepository" : "orgRemoveTeamRepository",
      tag: "organization",
      summary: method === "PUT" ? "Add a repository to a team" : "Remove a repository from a team",
      access: teamAccess,
      params: TeamRepoParams,
      responses: { 204: null },
      handler: ({ env, doer, params }) => {
        const { team, org } = teamForMember(env, doer, params.id);
        const change = method === "PUT" ? addTeamRepo : removeTeamRepo;
        change(env, doer, team, org, params.org, params.repo);
        return reply.noContent();
      },
    }),
  ),
];
