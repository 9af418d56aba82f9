import * as v from "valibot";
import { operation, reply, Reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../schemas/common.ts";
import { RepoParams } from "../../../schemas/repo.ts";
import { User } from "../../../schemas/user.ts";
import { AddCollaboratorOption, CollaboratorParams, RepoCollaboratorPermission } from "../../../schemas/repo-social.ts";
import { toAPIUser } from "../../../../convert/user.ts";
import {
  accessModeName,
  collaboratorPermission,
  isCollaborator,
  listCollaborators,
  putCollaborator,
  removeCollaborator,
} from "../../../../services/repo/collaborators.ts";
import { NotFound, Unauthorized } from "../../../../lib/errors.ts";
import type { Principal } from "../../../../auth/principal.ts";
import { repoFromPath } from "./context.ts";
import { requireRepoAdmin } from "./repo.ts";

/** Gitea's reqToken inside a repository group: after the repository was found, so private ones stay 404. */
export function requireToken(principal: Principal | undefined): asserts principal is Principal {
  if (!principal) throw new Unauthorized("token is required");
}

/** Gitea's SetTotalCountHeader alone (no Link header), as these endpoints answer lists. */
export function totalHeaders(total: number): Record<string, string> {
  return { "X-Total-Count": String(total), "Access-Control-Expose-Headers": "X-Total-Count" };
}

export function totalOnly(items: unknown[], total: number): Reply {
  return new Reply(200, items, totalHeaders(total));
}

export const collaboratorOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/collaborators",
    operationId: "repoListCollaborators",
    tag: "repository",
    summary: "List a repository's collaborators",
    access: { scope: "repository", signIn: false },
    params: RepoParams,
    query: PageQuery,
    responses: { 200: v.array(User) },
    handler: (ctx) => {
      const rc = repoFromPath(ctx.env, ctx.principal, ctx.url, ctx.params);
      requireToken(ctx.principal);
      const { rows, total } = listCollaborators(ctx.env, rc.repo, ctx.page());
      const doer = ctx.principal.user;
      return totalOnly(rows.map((u) => toAPIUser(ctx.env.settings, u, doer)), total);
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/collaborators/:collaborator",
    operationId: "repoCheckCollaborator",
    tag: "repository",
    summary: "Check if a user is a collaborator of a repository",
    access: { scope: "repository", signIn: false },
    params: CollaboratorParams,
    responses: { 204: null },
    handler: ({ env, principal, url, params }) => {
      const rc = repoFromPath(env, principal, url, params);
      requireToken(principal);
      if (!isCollaborator(env, rc.repo, params.collaborator)) throw new NotFound();
      return reply.noContent();
    },
  }),
  operation({
    method: "PUT",
    path: "/repos/:owner/:repo/collaborators/:collaborator",
    operationId: "repoAddCollaborator",
    tag: "repository",
    summary: "Add or Update a collaborator to a repository",
    access: { scope: "repository", signIn: false },
    params: CollaboratorParams,
    body: AddCollaboratorOption,
    responses: { 204: null },
    handler: (ctx) => {
      const { env, principal, url, params } = ctx;
      const rc = repoFromPath(env, principal, url, params);
      requireRepoAdmin(principal, rc.perm.isAdmin());
      putCollaborator(env, rc.repo, params.collaborator, ctx.body.permission ?? undefined);
      return reply.noContent();
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/collaborators/:collaborator",
    operationId: "repoDeleteCollaborator",
    tag: "repository",
    summary: "Delete a collaborator from a repository",
    access: { scope: "repository", signIn: false },
    params: CollaboratorParams,
    responses: { 204: null },
    handler: ({ env, principal, url, params }) => {
      const rc = repoFromPath(env, principal, url, params);
      requireRepoAdmin(principal, rc.perm.isAdmin());
      removeCollaborator(env, rc.repo, params.collaborator);
      return reply.noContent();
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/collaborators/:collaborator/permission",
    operationId: "repoGetRepoPermissions",
    tag: "repository",
    summary: "Get repository permissions for a user",
    access: { scope: "repository", signIn: false },
    params: CollaboratorParams,
    responses: { 200: RepoCollaboratorPermission },
    handler: ({ env, principal, url, params }) => {
      const rc = repoFromPath(env, principal, url, params);
      requireToken(principal);
      const { user, mode } = collaboratorPermission(env, rc, principal.user, params.collaborator);
      const name = accessModeName(mode);
      // Gitea renders the user as the repository owner would see them.
      return { permission: name, role_name: name, user: toAPIUser(env.settings, user, rc.owner) };
    },
  }),
];
