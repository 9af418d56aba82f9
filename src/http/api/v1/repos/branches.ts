import * as v from "valibot";
import { operation, reply } from "../../../route.ts";
import { PageQuery } from "../../../schemas/common.ts";
import { RepoParams } from "../../../schemas/repo.ts";
import {
  Branch,
  CreateBranchRepoOption,
  RenameBranchRepoOption,
  RepoWildcardParams,
  UpdateBranchRepoOption,
} from "../../../schemas/branch.ts";
import { createBranch, deleteBranch, getBranch, listBranches, renameBranch, updateBranch } from "../../../../services/repo/branches.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import type { Principal } from "../../../../auth/principal.ts";
import { Forbidden, HearthError, Unauthorized } from "../../../../lib/errors.ts";
import { toAPIBranch } from "../../../../convert/branch.ts";
import { codeRepo, wildcard } from "./context.ts";
import { branchProtectionView } from "../../../../services/protection/branch-view.ts";
import { rulesOf } from "../../../../services/protection/rules.ts";

/** Gitea's reqToken, reqRepoWriter(Code) and mustNotBeArchived, in that order. */
export function requireCodeWriter(rc: RepoContext, principal: Principal | undefined): asserts principal is Principal {
  if (!principal) throw new Unauthorized("token is required");
  if (!rc.perm.canWrite("code") && !rc.perm.isAdmin()) throw new Forbidden("user should have a permission to write to a repo");
  if (rc.repo.isArchived) throw new HearthError(423, `${rc.owner.name}/${rc.repo.name} is archived`);
}

const BranchParams = RepoWildcardParams;

export const branchOperations = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/branches",
    operationId: "repoListBranches",
    tag: "repository",
    summary: "List a repository's branches",
    access: { scope: "repository", signIn: false },
    params: RepoParams,
    query: PageQuery,
    responses: { 200: v.array(Branch) },
    handler: async ({ env, principal, params, url, page, list }) => {
      const rc = codeRepo(env, principal, url, params);
      const p = page();
      const { items, total } = await listBranches(env, rc, p);
      const rules = rulesOf(env, rc.repo.id);
      const json = items.map((b) => toAPIBranch(env.settings, rc, b, !!principal, branchProtectionView(env, rc, principal?.user, b.name, rules)));
      return list(json, total, p);
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/branches/*",
    wildcard: "branch",
    operationId: "repoGetBranch",
    tag: "repository",
    summary: "Retrieve a specific branch from a repository, including its effective branch protection",
    access: { scope: "repository", signIn: false },
    params: BranchParams,
    responses: { 200: Branch },
    handler: async ({ env, principal, params, url }) => {
      const rc = codeRepo(env, principal, url, params);
      const branch = await getBranch(env, rc, wildcard(params));
      return toAPIBranch(env.settings, rc, branch, !!principal, branchProtectionView(env, rc, principal?.user, branch.name));
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/branches",
    operationId: "repoCreateBranch",
    tag: "repository",
    summary: "Create a branch",
    access: { scope: "repository", signIn: false },
    params: RepoParams,
    body: CreateBranchRepoOption,
    responses: { 201: Branch },
    handler: async ({ env, principal, params, url, body }) => {
      const rc = codeRepo(env, principal, url, params);
      requireCodeWriter(rc, principal);
      const branch = await createBranch(env, rc, principal.user, {
        newBranchName: body.new_branch_name ?? "",
        oldBranchName: body.old_branch_name,
        oldRefName: body.old_ref_name,
      });
      return reply.created(toAPIBranch(env.settings, rc, branch, true, branchProtectionView(env, rc, principal.user, branch.name)));
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/branches/*",
    wildcard: "branch",
    operationId: "repoDeleteBranch",
    tag: "repository",
    summary: "Delete a specific branch from a repository",
    access: { scope: "repository", signIn: false },
    params: BranchParams,
    responses: { 204: null },
    handler: async ({ env, principal, params, url }) => {
      const rc = codeRepo(env, principal, url, params);
      requireCodeWriter(rc, principal);
      await deleteBranch(env, rc, wildcard(params), principal?.user);
      return reply.noContent();
    },
  }),
  operation({
    method: "PATCH",
    path: "/repos/:owner/:repo/branches/*",
    wildcard: "branch",
    operationId: "repoRenameBranch",
    tag: "repository",
    summary: "Rename a branch",
    access: { scope: "repository", signIn: false },
    params: BranchParams,
    body: RenameBranchRepoOption,
    responses: { 204: null },
    handler: async ({ env, principal, params, url, body }) => {
      const rc = codeRepo(env, principal, url, params);
      requireCodeWriter(rc, principal);
      await renameBranch(env, rc, wildcard(params), body.name ?? "", principal?.user);
      return reply.noContent();
    },
  }),
  operation({
    method: "PUT",
    path: "/repos/:owner/:repo/branches/*",
    wildcard: "branch",
    operationId: "repoUpdateBranch",
    tag: "repository",
    summary: "Update a branch reference to a new commit",
    access: { scope: "repository", signIn: false },
    params: BranchParams,
    body: UpdateBranchRepoOption,
    responses: { 204: null },
    handler: async ({ env, principal, params, url, body }) => {
      const rc = codeRepo(env, principal, url, params);
      requireCodeWriter(rc, principal);
      await updateBranch(env, rc, principal.user, wildcard(params), {
        newCommitId: body.new_commit_id ?? "",
        oldCommitId: body.old_commit_id,
        force: body.force,
      });
      return reply.noContent();
    },
  }),
];
