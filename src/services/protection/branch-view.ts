import type { Env } from "../env.ts";
import type { UserRow } from "../../db/schema/index.ts";
import type { RepoContext } from "../repo/lookup.ts";
import { firstMatch, rulesOf, type ProtectedBranchRule } from "./rules.ts";
import { canUserMerge, canUserPush } from "./permissions.ts";

/** What a Branch JSON shows of the rule protecting it (Gitea's ToBranch with a rule). */
export interface BranchProtectionView {
  requiredApprovals: number;
  enableStatusCheck: boolean;
  statusCheckContexts: string[];
  userCanPush: boolean;
  userCanMerge: boolean;
  /** The rule's name, shown to repository admins only. */
  effectiveRuleName: string;
}

/**
 * The protection of one branch as `doer` sees it, or undefined for an unprotected branch. Pass
 * the repository's rules when converting many branches, to read them once.
 */
export function branchProtectionView(
  env: Env,
  rc: RepoContext,
  doer: UserRow | undefined,
  branch: string,
  rules: ProtectedBranchRule[] = rulesOf(env, rc.repo.id),
): BranchProtectionView | undefined {
  const rule = firstMatch(rules, branch);
  if (!rule) return undefined;
  return {
    requiredApprovals: rule.requiredApprovals,
    enableStatusCheck: rule.enableStatusCheck,
    statusCheckContexts: rule.statusCheckContexts,
    userCanPush: doer ? canUserPush(env, rule, doer, rc.perm) : false,
    userCanMerge: doer ? canUserMerge(env, rule, doer, rc.perm) : false,
    effectiveRuleName: rc.perm.isAdmin() ? rule.ruleName : "",
  };
}
