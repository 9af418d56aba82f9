import type { Env } from "../env.ts";
import { AccessMode, UnitType, type PullRequestRow, type RepoRow, type TeamRow, type UserRow } from "../../db/schema/index.ts";
import { unitsOfTeams } from "../../models/team.ts";
import { repoPermission } from "../access/permission.ts";
import { isOfficialReviewer } from "../protection/permissions.ts";
import { protectionRuleFor } from "../protection/rules.ts";

/** The base repository of a request, as the official-review rules read it. */
export interface ReviewBase {
  repo: RepoRow;
  owner: UserRow;
  pull: Pick<PullRequestRow, "baseRepoId" | "baseBranch">;
}

/**
 * Gitea's IsOfficialReviewer: whether the user's approvals and rejections count for branch
 * protection. Under a rule protecting the base branch, the rule's approvers (its whitelist, or
 * every code writer without one); without a rule, every code writer.
 */
export function isOfficialReviewerOf(env: Env, base: ReviewBase, user: UserRow): boolean {
  const perm = repoPermission(env, user, base.repo, base.owner);
  const rule = protectionRuleFor(env, base.pull.baseRepoId, base.pull.baseBranch);
  if (!rule) return perm.canWrite("code");
  return isOfficialReviewer(env, rule, user, perm);
}

/**
 * Gitea's IsOfficialReviewerTeam: only under a rule; with an approvals whitelist, the teams on it,
 * without one, the teams writing code (an admin team writes everything).
 */
export function isOfficialReviewerTeamOf(env: Env, base: ReviewBase, team: TeamRow): boolean {
  const rule = protectionRuleFor(env, base.pull.baseRepoId, base.pull.baseBranch);
  if (!rule) return false;
  if (rule.enableApprovalsWhitelist) return rule.approvalsWhitelistTeamIds.includes(team.id);
  if (team.authorize >= AccessMode.Admin) return true;
  const code = unitsOfTeams(env.db, [team.id]).get(team.id)?.find((u) => u.type === UnitType.Code);
  return (code?.accessMode ?? AccessMode.None) >= AccessMode.Write;
}
