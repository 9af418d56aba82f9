import * as v from "valibot";
import { operation, reply, Reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../../shapes/common.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import { User } from "../../../../shapes/user.ts";
import { AddCollaboratorOption, CollaboratorParams, RepoCollaboratorPermission } from "../../../../shapes/repo-social.ts";
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

/** Gitea's reqToken inside a repository group: after the repository was found, so private ones stay 404. */
export function requireToken(principal: Principal | undefined): asserts principal is Principal {
  if (!principal) throw new Unauthorized("token is required");
}

/** Gitea's SetTotalCountHeader alone (no Link header), as these endpoints answer lists. */
export function totalHeaders(total: number): Record<string, string> {
  return { "X-Total-Count": String(total), "Access-Control-Expose-Headers": "X-Total-Count" };
}

export function totalOnly<T>(items: T[], total: number): Reply<200, T[]> {
  return new Reply(200, items, totalHeaders(total));
}

/**
 * Reading collaborators: Gitea's reqToken on the group, after the repository was found (its
 * reqAnyRepoReader is the lookup's own 404).
 */
const signedIn = { scope: "repository", signIn: false, repo: { doer: true } } as const;
/** Adding and removing them: reqToken, then reqAdmin. */
const admin = { scope: "repository", signIn: false, repo: { admin: true } } as const;

export const collaboratorOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/collaborators",
    operationId: "repoListCollaborators",
    tag: "repository",
    summary: "List a repository's collaborators",
    access: signedIn,
    params: RepoParams,
    query: PageQuery,
    responses: { 200: v.array(User) },
    handler: ({ env, repo: rc, doer, page }) => {
      const { rows, total } = listCollaborators(env, rc.repo, page());
      return totalOnly(rows.map((u) => toAPIUser(env.settings, u, doer)), total);
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/collaborators/:collaborator",
    operationId: "repoCheckCollaborator",
    tag: "repository",
    summary: "Check if a user is a collaborator of a repository",
    access: signedIn,
    params: CollaboratorParams,
    responses: { 204: null },
    handler: ({ env, repo: rc, params }) => {
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
    access: admin,
    params: CollaboratorParams,
    body: AddCollaboratorOption,
    responses: { 204: null },
    handler: ({ env, repo: rc, params, body }) => {
      putCollaborator(env, rc, params.collaborator, body.permission ?? undefined);
      return reply.noContent();
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/collaborators/:collaborator",
    operationId: "repoDeleteCollaborator",
    tag: "repository",
    summary: "Delete a collaborator from a repository",
    access: admin,
    params: CollaboratorParams,
    responses: { 204: null },
    handler: ({ env, repo: rc, params }) => {
      removeCollaborator(env, rc, params.collaborator);
      return reply.noContent();
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/collaborators/:collaborator/permission",
    operationId: "repoGetRepoPermissions",
    tag: "repository",
    summary: "Get repository permissions for a user",
    access: signedIn,
    params: CollaboratorParams,
    responses: { 200: RepoCollaboratorPermission },
    handler: ({ env, repo: rc, doer, params }) => {
      const { user, mode } = collaboratorPermission(env, rc, doer, params.collaborator);
      const name = accessModeName(mode);
      // Gitea renders the user as the repository owner would see them.
      return { permission: name, role_name: name, user: toAPIUser(env.settings, user, rc.owner) };
    },
  }),
];
