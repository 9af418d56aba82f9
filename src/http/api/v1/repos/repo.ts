import * as v from "valibot";
import { operation, reply } from "../../../route.ts";
import { CreateRepoOption, EditRepoOption, RepoParams, Repository } from "../../../schemas/repo.ts";
import { UsernameParams } from "../../../schemas/common.ts";
import { createRepo, orgForRepoCreation, type CreateRepoInput } from "../../../../services/repo/create.ts";
import { OrgParams } from "../../../schemas/org.ts";
import { deleteRepo } from "../../../../services/repo/delete.ts";
import { editRepo } from "../../../../services/repo/edit.ts";
import { resolveRepoById } from "../../../../services/repo/lookup.ts";
import { requireUser } from "../../../../services/user/account.ts";
import { Forbidden, NotFound, Unauthorized } from "../../../../lib/errors.ts";
import type { Env } from "../../../../services/env.ts";
import type { Principal } from "../../../../auth/principal.ts";
import type { UserRow } from "../../../../db/schema/index.ts";
import { repoFromPath, repoJson } from "./context.ts";
import { requireRepoStaysInReach } from "../../../../services/access/permission.ts";

type CreateBody = v.InferOutput<typeof CreateRepoOption>;

function createInput(owner: UserRow, doer: UserRow, body: CreateBody): CreateRepoInput {
  return {
    owner,
    doer,
    name: body.name,
    description: body.description ?? undefined,
    isPrivate: body.private ?? false,
    isTemplate: body.template ?? false,
    autoInit: body.auto_init ?? false,
    gitignores: body.gitignores ?? undefined,
    license: body.license ?? undefined,
    readme: body.readme ?? undefined,
    defaultBranch: body.default_branch ?? undefined,
    objectFormat: body.object_format_name ?? undefined,
    trustModel: body.trust_model ?? undefined,
    issueLabels: body.issue_labels ?? undefined,
  };
}

async function createAndRender(env: Env, principal: Principal | undefined, owner: UserRow, body: CreateBody) {
  const repo = await createRepo(env, createInput(owner, principal!.user, body));
  const rc = resolveRepoById(env, principal!.user, repo.id);
  return reply.created(repoJson(env, rc, principal));
}

export const repoOperations = [
  operation({
    method: "POST",
    path: "/user/repos",
    operationId: "createCurrentUserRepo",
    tag: "repository",
    summary: "Create a repository",
    access: { scope: ["user", "repository"], signIn: true },
    body: CreateRepoOption,
    responses: { 201: Repository },
    handler: ({ env, principal, body }) => createAndRender(env, principal, principal!.user, body),
  }),
  operation({
    method: "POST",
    path: "/admin/users/:username/repos",
    operationId: "adminCreateRepo",
    tag: "admin",
    summary: "Create a repository on behalf of a user",
    access: { scope: "admin", signIn: "admin" },
    params: UsernameParams,
    body: CreateRepoOption,
    responses: { 201: Repository },
    handler: ({ env, principal, params, body }) => createAndRender(env, principal, requireUser(env, params.username), body),
  }),
  ...(["createOrgRepo", "createOrgRepoDeprecated"] as const).map((operationId) =>
    operation({
      method: "POST",
      path: operationId === "createOrgRepo" ? "/orgs/:org/repos" : "/org/:org/repos",
      operationId,
      tag: "organization",
      summary: "Create a repository in an organization",
      access: { scope: ["organization", "repository"], signIn: true },
      params: OrgParams,
      body: CreateRepoOption,
      responses: { 201: Repository },
      handler: ({ env, principal, params, body }) => {
        const org = orgForRepoCreation(env, principal!.user, params.org, operationId === "createOrgRepoDeprecated");
        return createAndRender(env, principal, org, body);
      },
    }),
  ),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo",
    operationId: "repoGet",
    tag: "repository",
    summary: "Get a repository",
    access: { scope: "repository", signIn: false },
    params: RepoParams,
    responses: { 200: Repository },
    handler: ({ env, principal, params, url }) => repoJson(env, repoFromPath(env, principal, url, params), principal),
  }),
  operation({
    method: "PATCH",
    path: "/repos/:owner/:repo",
    operationId: "repoEdit",
    tag: "repository",
    summary: "Edit a repository's properties. Only fields that are set will be changed.",
    access: { scope: "repository", signIn: false },
    params: RepoParams,
    body: EditRepoOption,
    responses: { 200: Repository },
    handler: async ({ env, principal, params, body, url }) => {
      const rc = repoFromPath(env, principal, url, params);
      requireRepoAdmin(principal, rc.perm.isAdmin());
      requireRepoStaysInReach(principal?.user, { isPrivate: body.private ?? rc.repo.isPrivate }, rc.owner);
      await editRepo(env, rc, body);
      return repoJson(env, resolveRepoById(env, principal!.user, rc.repo.id), principal);
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo",
    operationId: "repoDelete",
    tag: "repository",
    summary: "Delete a repository",
    access: { scope: "repository", signIn: false },
    params: RepoParams,
    responses: { 204: null },
    handler: ({ env, principal, params, url }) => {
      const rc = repoFromPath(env, principal, url, params);
      if (!principal) throw new Unauthorized("token is required");
      if (!rc.perm.isOwner()) throw new Forbidden("user should be the owner of the repo");
      deleteRepo(env, rc.owner, rc.repo, principal.user);
      return reply.noContent();
    },
  }),
  operation({
    method: "GET",
    path: "/repositories/:id",
    operationId: "repoGetByID",
    tag: "repository",
    summary: "Get a repository by id",
    access: { scope: "repository", signIn: true },
    params: v.object({ id: v.string() }),
    responses: { 200: Repository },
    handler: ({ env, principal, params }) => {
      // Gitea parses the id leniently: anything that is not a number finds nothing.
      if (!/^\d{1,15}$/.test(params.id)) throw new NotFound();
      return repoJson(env, resolveRepoById(env, principal!.user, Number(params.id)), principal);
    },
  }),
];

/** Gitea's reqToken then reqAdmin, after the repository was found (so private repos stay 404). */
export function requireRepoAdmin(principal: Principal | undefined, isAdmin: boolean): void {
  if (!principal) throw new Unauthorized("token is required");
  if (!isAdmin) throw new Forbidden("user should be an owner or a collaborator with admin write of a repository");
}
