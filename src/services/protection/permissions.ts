import type { Env } from "../env.ts";
import type { UserRow } from "../../db/schema/index.ts";
import type { RepoPermission } from "../access/permission.ts";
import { isTeamMember } from "../../models/team.ts";
import type { ProtectedBranchRule } from "./rules.ts";

function inAnyTeam(env: Env, teamIds: number[], userId: number): boolean {
  return teamIds.some((id) => isTeamMember(env.db, id, userId));
}

/**
 * Gitea's ProtectedBranch.CanUserPush: nobody when pushing is disabled; with pushing enabled and
 * no whitelist, anyone with write access to the code; with a whitelist, its users and team members.
 */
export function canUserPush(env: Env, rule: ProtectedBranchRule, user: UserRow, perm: RepoPermission): boolean {
  if (!rule.canPush) return false;
  if (!rule.enableWhitelist) return perm.canWrite("code");
  if (rule.whitelistUserIds.includes(user.id)) return true;
  return inAnyTeam(env, rule.whitelistTeamIds, user.id);
}

/** Gitea's CanUserForcePush: force pushing extends pushing, so a force pusher must also be a pusher. */
export function canUserForcePush(env: Env, rule: ProtectedBranchRule, user: UserRow, perm: RepoPermission): boolean {
  if (!rule.canForcePush) return false;
  if (!rule.enableForcePushAllowlist) return canUserPush(env, rule, user, perm);
  if (rule.forcePushAllowlistUserIds.includes(user.id)) return canUserPush(env, rule, user, perm);
  return inAnyTeam(env, rule.forcePushAllowlistTeamIds, user.id) && canUserPush(env, rule, user, perm);
}

/** Gitea's IsUserMergeWhitelisted: without a merge whitelist, write access to the code decides. */
export function canUserMerge(env: Env, rule: ProtectedBranchRule, user: UserRow, perm: RepoPermission): boolean {
  if (!rule.enableMergeWhitelist) return perm.canWrite("code");
  if (rule.mergeWhitelistUserIds.includes(user.id)) return true;
  return inAnyTeam(env, rule.mergeWhitelistTeamIds, user.id);
}

/**
 * Gitea's IsUserOfficialReviewer: whether the user's approvals count towards the rule's required
 * approvals. Without an approvals whitelist, anyone with write access to the code.
 */
export function isOfficialReviewer(env: Env, rule: ProtectedBranchRule, user: UserRow, perm: RepoPermission): boolean {
  if (!rule.enableApprovalsWhitelist) return perm.canWrite("code");
  if (rule.approvalsWhitelistUserIds.includes(user.id)) return true;
  return inAnyTeam(env, rule.approvalsWhitelistTeamIds, user.id);
}
