import * as v from "valibot";
import { named } from "./registry.ts";
import { opt } from "./common.ts";

const names = v.array(v.string());

export const BranchProtection = named(
  "BranchProtection",
  v.object({
    branch_name: v.string(),
    rule_name: v.string(),
    priority: v.number(),
    enable_push: v.boolean(),
    enable_push_whitelist: v.boolean(),
    push_whitelist_usernames: names,
    push_whitelist_teams: names,
    push_whitelist_deploy_keys: v.boolean(),
    enable_force_push: v.boolean(),
    enable_force_push_allowlist: v.boolean(),
    force_push_allowlist_usernames: names,
    force_push_allowlist_teams: names,
    force_push_allowlist_deploy_keys: v.boolean(),
    enable_merge_whitelist: v.boolean(),
    merge_whitelist_usernames: names,
    merge_whitelist_teams: names,
    enable_status_check: v.boolean(),
    status_check_contexts: names,
    required_approvals: v.number(),
    enable_approvals_whitelist: v.boolean(),
    approvals_whitelist_username: names,
    approvals_whitelist_teams: names,
    block_on_rejected_reviews: v.boolean(),
    block_on_official_review_requests: v.boolean(),
    block_on_outdated_branch: v.boolean(),
    dismiss_stale_approvals: v.boolean(),
    ignore_stale_approvals: v.boolean(),
    require_signed_commits: v.boolean(),
    protected_file_patterns: v.string(),
    unprotected_file_patterns: v.string(),
    block_admin_merge_override: v.boolean(),
    created_at: v.string(),
    updated_at: v.string(),
  }),
);

const int = v.pipe(v.number(), v.integer());

/** The option fields both create and edit accept; every one may be omitted or null. */
const optionEntries = {
  priority: opt(int),
  enable_push: opt(v.boolean()),
  enable_push_whitelist: opt(v.boolean()),
  push_whitelist_usernames: opt(names),
  push_whitelist_teams: opt(names),
  push_whitelist_deploy_keys: opt(v.boolean()),
  enable_force_push: opt(v.boolean()),
  enable_force_push_allowlist: opt(v.boolean()),
  force_push_allowlist_usernames: opt(names),
  force_push_allowlist_teams: opt(names),
  force_push_allowlist_deploy_keys: opt(v.boolean()),
  enable_merge_whitelist: opt(v.boolean()),
  merge_whitelist_usernames: opt(names),
  merge_whitelist_teams: opt(names),
  enable_status_check: opt(v.boolean()),
  status_check_contexts: opt(names),
  required_approvals: opt(int),
  enable_approvals_whitelist: opt(v.boolean()),
  approvals_whitelist_username: opt(names),
  approvals_whitelist_teams: opt(names),
  block_on_rejected_reviews: opt(v.boolean()),
  block_on_official_review_requests: opt(v.boolean()),
  block_on_outdated_branch: opt(v.boolean()),
  dismiss_stale_approvals: opt(v.boolean()),
  ignore_stale_approvals: opt(v.boolean()),
  require_signed_commits: opt(v.boolean()),
  protected_file_patterns: opt(v.string()),
  unprotected_file_patterns: opt(v.string()),
  block_admin_merge_override: opt(v.boolean()),
};

export const CreateBranchProtectionOption = named(
  "CreateBranchProtectionOption",
  v.object({ branch_name: opt(v.string()), rule_name: opt(v.string()), ...optionEntries }),
);

export const EditBranchProtectionOption = named("EditBranchProtectionOption", v.object(optionEntries));

export const UpdateBranchProtectionPriories = named("UpdateBranchProtectionPriories", v.object({ ids: opt(v.array(int)) }));

export const ProtectionParams = v.object({ owner: v.string(), repo: v.string(), name: v.string() });

export type APIBranchProtection = v.InferOutput<typeof BranchProtection>;
