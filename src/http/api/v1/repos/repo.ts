import * as v from "valibot";
import { operation, reply } from "../../../route.ts";
import { CreateRepoOption, EditRepoOption, RepoParams, Repository } from "../../../../shapes/repo.ts";
import { UsernameParams } from "../../../../shapes/common.ts";
import { createRepo, orgForRepoCreation, type CreateRepoInput } from "../../../../services/repo/create.ts";
import { OrgParams } from "../../../../shapes/org.ts";
import { deleteRepo } from "../../../../services/repo/delete.ts";
import { editRepo } from "../../../../services/repo/edit.ts";
import { editPullMirror, pullMirrorEditOf } from "../../../../services/mirror/pull-mirror-admin.ts";
import { resolveRepoById } from "../../../../services/repo/lookup.ts";
import { Forbidden, NotFound, Unauthorized } from "../../../../lib/errors.ts";
import type { Env } from "../../../../services/env.ts";
import type { Principal } from "../../../../auth/principal.ts";
import type { UserRow } from "../../../../db/schema/index.ts";
import { repoJson } from "./context.ts";
import { requireRepoStaysInReach, type Doer } from "../../../../services/access/permission.ts";

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

async function createAndRender(env: Env, doer: Doer, owner: UserRow, body: CreateBody) {
  const repo = await createRepo(env, createInput(owner, doer, body));
  const rc = resolveRepoById(env, doer, repo.id);
  return reply.created(repoJson(env, rc, doer));
}

/** Changing a repository's properties: Gitea's reqToken then reqAdmin, after the repository was found (so private ones stay 404). */
const admin = { scope: "repository", signIn: false, repo: { admin: true } } as const;

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
    handler: ({ env, doer, body }) => createAndRender(env, doer, doer, body),
  }),
  operation({
    method: "POST",
    path: "/admin/users/:username/repos",
    operationId: "adminCreateRepo",
    tag: "admin",
    summary: "Create a repository on behalf of a user",
    // The site admin creates it for an individual (an organization is Gitea's 404).
    access: { scope: "admin", signIn: "admin", user: { kind: "user" } },
    params: UsernameParams,
    body: CreateRepoOption,
    responses: { 201: Repository },
    handler: ({ env, doer, user, body }) => createAndRender(env, doer, user, body),
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
      // The organization is looked up by CreateOrgRepo itself, with its own words (a 422 on the
      // deprecated route): a rule of repository creation, not the declaration's `org`.
      handler: ({ env, doer, params, body }) => {
        const org = orgForRepoCreation(env, doer, params.org, operationId === "createOrgRepoDeprecated");
        return createAndRender(env, doer, org, body);
      },
    }),
  ),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo",
    operationId: "repoGet",
    tag: "repository",
    summary: "Get a repository",
    // Gitea's reqAnyRepoReader: the lookup already hides a repository the doer may not see.
    access: { scope: "repository", signIn: false, repo: {} },
    params: RepoParams,
    responses: { 200: Repository },
    handler: ({ env, repo: rc, doer }) => repoJson(env, rc, doer),
  }),
  operation({
    method: "PATCH",
    path: "/repos/:owner/:repo",
    operationId: "repoEdit",
    tag: "repository",
    summary: "Edit a repository's properties. Only fields that are set will be changed.",
    access: admin,
    params: RepoParams,
    body: EditRepoOption,
    responses: { 200: Repository },
    handler: async ({ env, repo: rc, doer, body }) => {
      requireRepoStaysInReach(doer, { isPrivate: body.private ?? rc.repo.isPrivate }, rc.owner);
      // Gitea's updateMirror runs last; its 422 is found here, before anything changes.
      const mirrorEdit = pullMirrorEditOf(env, rc, body.mirror_interval, body.enable_prune);
      await editRepo(env, rc, body);
      editPullMirror(env, rc, mirrorEdit);
      return repoJson(env, resolveRepoById(env, doer, rc.repo.id), doer);
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo",
    operationId: "repoDelete",
    tag: "repository",
    summary: "Delete a repository",
    // Gitea's reqToken then reqOwner.
    access: { scope: "repository", signIn: false, repo: { owner: true } },
    params: RepoParams,
    responses: { 204: null },
    handler: ({ env, repo: rc, doer }) => {
      deleteRepo(env, rc, doer);
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
    handler: ({ env, doer, params }) => {
      // Gitea parses the id leniently: anything that is not a number finds nothing.
      if (!/^\d{1,15}$/.test(params.id)) throw new NotFound();
      return repoJson(env, resolveRepoById(env, doer, Number(params.id)), doer);
    },
  }),
];

/** Gitea's reqToken then reqAdmin, after the repository was found (so private repos stay 404). */
export function requireRepoAdmin(principal: Principal | undefined, isAdmin: boolean): void {
  if (!principal) throw new Unauthorized("token is required");
  if (!isAdmin) throw new Forbidden("user should be an owner or a collaborator with admin write of a repository");
}
