import * as v from "valibot";
import { operation, reply, type AnyOperation } from "../../../route.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import {
  BranchProtection,
  CreateBranchProtectionOption,
  EditBranchProtectionOption,
  ProtectionParams,
  UpdateBranchProtectionPriories,
} from "../../../../shapes/branch-protection.ts";
import {
  createProtection,
  deleteProtection,
  editProtection,
  getProtection,
  listProtections,
  setProtectionPriorities,
  whitelistNames,
  type ProtectionInput,
} from "../../../../services/protection/manage.ts";
import type { ProtectedBranchRule } from "../../../../services/protection/rules.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import type { Env } from "../../../../services/env.ts";
import { toAPIBranchProtection } from "../../../../convert/branch-protection.ts";

/**
 * Gitea's reqToken then reqAdmin on the whole group, after the repository was found. Create and
 * edit refuse an archived repository in the service: Gitea binds the body (422) before its
 * mustNotBeArchived (423), which a declaration, checked before the body is read, cannot order.
 */
const admin = { scope: "repository", signIn: true, repo: { admin: true } } as const;

const json = (env: Env, rc: RepoContext, rule: ProtectedBranchRule) => toAPIBranchProtection(rule, whitelistNames(env, rc, rule));

type OptionBody = v.InferOutput<typeof EditBranchProtectionOption> & { rule_name?: string | null; branch_name?: string | null };

function inputOf(b: OptionBody): ProtectionInput {
  return {
    ruleName: b.rule_name,
    branchName: b.branch_name,
    priority: b.priority,
    enablePush: b.enable_push,
    enablePushWhitelist: b.enable_push_whitelist,
    pushWhitelistUsernames: b.push_whitelist_usernames,
    pushWhitelistTeams: b.push_whitelist_teams,
    pushWhitelistDeployKeys: b.push_whitelist_deploy_keys,
    enableForcePush: b.enable_force_push,
    enableForcePushAllowlist: b.enable_force_push_allowlist,
    forcePushAllowlistUsernames: b.force_push_allowlist_usernames,
    forcePushAllowlistTeams: b.force_push_allowlist_teams,
    forcePushAllowlistDeployKeys: b.force_push_allowlist_deploy_keys,
    enableMergeWhitelist: b.enable_merge_whitelist,
    mergeWhitelistUsernames: b.merge_whitelist_usernames,
    mergeWhitelistTeams: b.merge_whitelist_teams,
    enableStatusCheck: b.enable_status_check,
    statusCheckContexts: b.status_check_contexts,
    requiredApprovals: b.required_approvals,
    enableApprovalsWhitelist: b.enable_approvals_whitelist,
    approvalsWhitelistUsernames: b.approvals_whitelist_username,
    approvalsWhitelistTeams: b.approvals_whitelist_teams,
    blockOnRejectedReviews: b.block_on_rejected_reviews,
    blockOnOfficialReviewRequests: b.block_on_official_review_requests,
    blockOnOutdatedBranch: b.block_on_outdated_branch,
    dismissStaleApprovals: b.dismiss_stale_approvals,
    ignoreStaleApprovals: b.ignore_stale_approvals,
    requireSignedCommits: b.require_signed_commits,
    protectedFilePatterns: b.protected_file_patterns,
    unprotectedFilePatterns: b.unprotected_file_patterns,
    blockAdminMergeOverride: b.block_admin_merge_override,
  };
}

export const branchProtectionOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/branch_protections",
    operationId: "repoListBranchProtection",
    tag: "repository",
    summary: "List branch protections for a repository",
    access: admin,
    params: RepoParams,
    responses: { 200: v.array(BranchProtection) },
    handler: ({ env, repo: rc }) => {
      return listProtections(env, rc).map((r) => json(env, rc, r));
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/branch_protections",
    operationId: "repoCreateBranchProtection",
    tag: "repository",
    summary: "Create a branch protections for a repository",
    access: admin,
    params: RepoParams,
    body: CreateBranchProtectionOption,
    responses: { 201: BranchProtection },
    handler: ({ env, repo: rc, body }) => {
      return reply.created(json(env, rc, createProtection(env, rc, inputOf(body))));
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/branch_protections/priority",
    operationId: "repoUpdateBranchProtectionPriories",
    tag: "repository",
    summary: "Update the priorities of branch protections for a repository.",
    access: admin,
    params: RepoParams,
    body: UpdateBranchProtectionPriories,
    responses: { 204: null },
    handler: ({ env, repo: rc, body }) => {
      setProtectionPriorities(env, rc, body.ids ?? []);
      return reply.noContent();
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/branch_protections/:name",
    operationId: "repoGetBranchProtection",
    tag: "repository",
    summary: "Get a specific branch protection for the repository",
    access: admin,
    params: ProtectionParams,
    responses: { 200: BranchProtection },
    handler: ({ env, repo: rc, params }) => {
      return json(env, rc, getProtection(env, rc, params.name));
    },
  }),
  operation({
    method: "PATCH",
    path: "/repos/:owner/:repo/branch_protections/:name",
    operationId: "repoEditBranchProtection",
    tag: "repository",
    summary: "Edit a branch protections for a repository. Only fields that are set will be changed",
    access: admin,
    params: ProtectionParams,
    body: EditBranchProtectionOption,
    responses: { 200: BranchProtection },
    handler: ({ env, repo: rc, params, body }) => {
      return json(env, rc, editProtection(env, rc, params.name, inputOf(body)));
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/branch_protections/:name",
    operationId: "repoDeleteBranchProtection",
    tag: "repository",
    summary: "Delete a specific branch protection for the repository",
    access: admin,
    params: ProtectionParams,
    responses: { 204: null },
    handler: ({ env, repo: rc, params }) => {
      deleteProtection(env, rc, params.name);
      return reply.noContent();
    },
  }),
];
