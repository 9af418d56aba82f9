import type { ProtectedBranchRule } from "../services/protection/rules.ts";
import { toRFC3339 } from "../lib/time.ts";
import type { APIBranchProtection } from "../shapes/branch-protection.ts";

/** The whitelist names a rule shows (see services/protection/manage.ts whitelistNames). */
export interface WhitelistNames {
  push: string[];
  forcePush: string[];
  merge: string[];
  approvals: string[];
  pushTeams: string[];
  forcePushTeams: string[];
  mergeTeams: string[];
  approvalsTeams: string[];
}

/** Gitea's ToBranchProtection; `branch_name` repeats the rule name (a deprecated alias). */
export function toAPIBranchProtection(rule: ProtectedBranchRule, names: WhitelistNames): APIBranchProtection {
  return {
    branch_name: rule.ruleName,
    rule_name: rule.ruleName,
    priority: rule.priority,
    enable_push: rule.canPush,
    enable_push_whitelist: rule.enableWhitelist,
    push_whitelist_usernames: names.push,
    push_whitelist_teams: names.pushTeams,
    push_whitelist_deploy_keys: rule.whitelistDeployKeys,
    enable_force_push: rule.canForcePush,
    enable_force_push_allowlist: rule.enableForcePushAllowlist,
    force_push_allowlist_usernames: names.forcePush,
    force_push_allowlist_teams: names.forcePushTeams,
    force_push_allowlist_deploy_keys: rule.forcePushAllowlistDeployKeys,
    enable_merge_whitelist: rule.enableMergeWhitelist,
    merge_whitelist_usernames: names.merge,
    merge_whitelist_teams: names.mergeTeams,
    enable_status_check: rule.enableStatusCheck,
    status_check_contexts: rule.statusCheckContexts,
    required_approvals: rule.requiredApprovals,
    enable_approvals_whitelist: rule.enableApprovalsWhitelist,
    approvals_whitelist_username: names.approvals,
    approvals_whitelist_teams: names.approvalsTeams,
    block_on_rejected_reviews: rule.blockOnRejectedReviews,
    block_on_official_review_requests: rule.blockOnOfficialReviewRequests,
    block_on_outdated_branch: rule.blockOnOutdatedBranch,
    dismiss_stale_approvals: rule.dismissStaleApprovals,
    ignore_stale_approvals: rule.ignoreStaleApprovals,
    require_signed_commits: rule.requireSignedCommits,
    protected_file_patterns: rule.protectedFilePatterns,
    unprotected_file_patterns: rule.unprotectedFilePatterns,
    block_admin_merge_override: rule.blockAdminMergeOverride,
    created_at: toRFC3339(rule.createdUnix),
    updated_at: toRFC3339(rule.updatedUnix),
  };
}
