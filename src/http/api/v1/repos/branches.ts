import * as v from "valibot";
import { operation, reply } from "../../../route.ts";
import { PageQuery } from "../../../../shapes/common.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import {
  Branch,
  CreateBranchRepoOption,
  RenameBranchRepoOption,
  RepoWildcardParams,
  UpdateBranchRepoOption,
} from "../../../../shapes/branch.ts";
import { createBranch, deleteBranch, getBranch, listBranches, renameBranch, updateBranch } from "../../../../services/repo/branches.ts";
import { toAPIBranch } from "../../../../convert/branch.ts";
import { wildcard } from "./context.ts";
import { branchProtectionView } from "../../../../services/protection/branch-view.ts";
import { rulesOf } from "../../../../services/protection/rules.ts";

/** Reading a repository's branches: Gitea's reqRepoReader(Code). */
const read = { scope: "repository", signIn: false, repo: { read: "code" } } as const;
/**
 * Changing them: reqRepoReader(Code), reqToken, reqRepoWriter(Code), mustNotBeArchived, in that
 * order; each handler then refuses a pull mirror (403 "Git Repository is a mirror.").
 */
const write = { scope: "repository", signIn: false, repo: { read: "code", write: "code", notMirror: true, notArchived: true } } as const;

const BranchParams = RepoWildcardParams;

export const branchOperations = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/branches",
    operationId: "repoListBranches",
    tag: "repository",
    summary: "List a repository's branches",
    access: read,
    params: RepoParams,
    query: PageQuery,
    responses: { 200: v.array(Branch) },
    handler: async ({ env, repo: rc, doer, page, list }) => {
      const p = page();
      const { items, total } = await listBranches(env, rc, p);
      const rules = rulesOf(env, rc.repo.id);
      const json = items.map((b) => toAPIBranch(env.settings, rc, b, !!doer, branchProtectionView(env, rc, doer, b.name, rules)));
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
    access: read,
    params: BranchParams,
    responses: { 200: Branch },
    handler: async ({ env, repo: rc, doer, params }) => {
      const branch = await getBranch(env, rc, wildcard(params));
      return toAPIBranch(env.settings, rc, branch, !!doer, branchProtectionView(env, rc, doer, branch.name));
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/branches",
    operationId: "repoCreateBranch",
    tag: "repository",
    summary: "Create a branch",
    access: write,
    params: RepoParams,
    body: CreateBranchRepoOption,
    responses: { 201: Branch },
    handler: async ({ env, repo: rc, doer, body }) => {
      const branch = await createBranch(env, rc, doer, {
        newBranchName: body.new_branch_name ?? "",
        oldBranchName: body.old_branch_name,
        oldRefName: body.old_ref_name,
      });
      return reply.created(toAPIBranch(env.settings, rc, branch, true, branchProtectionView(env, rc, doer, branch.name)));
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/branches/*",
    wildcard: "branch",
    operationId: "repoDeleteBranch",
    tag: "repository",
    summary: "Delete a specific branch from a repository",
    access: write,
    params: BranchParams,
    responses: { 204: null },
    handler: async ({ env, repo: rc, doer, params }) => {
      await deleteBranch(env, rc, wildcard(params), doer);
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
    access: write,
    params: BranchParams,
    body: RenameBranchRepoOption,
    responses: { 204: null },
    handler: async ({ env, repo: rc, doer, params, body }) => {
      await renameBranch(env, rc, wildcard(params), body.name ?? "", doer);
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
    access: write,
    params: BranchParams,
    body: UpdateBranchRepoOption,
    responses: { 204: null },
    handler: async ({ env, repo: rc, doer, params, body }) => {
      await updateBranch(env, rc, doer, wildcard(params), {
        newCommitId: body.new_commit_id ?? "",
        oldCommitId: body.old_commit_id,
        force: body.force,
      });
      return reply.noContent();
    },
  }),
];
