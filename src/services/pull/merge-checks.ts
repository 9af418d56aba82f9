/**
 * Whether a pull request may be merged now, by whom: Gitea's CheckPullMergeable and
 * CheckPullBranchProtections. Each refusal is a HearthError with Gitea's status and message.
 */
import type { Env } from "../env.ts";
import { PullStatus, type IssueRow, type PullRequestRow, type UserRow } from "../../db/schema/index.ts";
import * as reviews from "../../models/review-gates.ts";
import * as pulls from "../../models/pull.ts";
import { HearthError, NotFound } from "../../lib/errors.ts";
import { globMatches } from "../../lib/glob.ts";
import { changedPaths } from "../../git/push-inspect.ts";
import type { RepoPermission } from "../access/permission.ts";
import { protectionRuleFor } from "../protection/rules.ts";
import { canUserMerge } from "../protection/permissions.ts";
import type { ProtectedBranchRule } from "../protection/rules.ts";
import { latestStatuses, requiredContextsPass } from "../status/combine.ts";
import { openDependencyCount } from "../issue/issues.ts";
import { computePullCheck, storedCheck } from "./check.ts";
import { isWorkInProgress } from "./draft.ts";

/** How a merge is asked for: by hand, scheduled for when checks pass, or marked as done outside hearth. */
export type MergeCheckType = "general" | "auto" | "manually";

/** A refusal Gitea answers with 405 Method Not Allowed. */
const notAllowed = (message: string) => new HearthError(405, message);

/** Gitea's IsUserAllowedToMerge: a writer of the code when the base branch is unprotected, else the rule's merge whitelist. */
export function isUserAllowedToMerge(env: Env, pull: PullRequestRow, user: UserRow | undefined, perm: RepoPermission): boolean {
  if (!user) return false;
  const rule = protectionRuleFor(env, pull.baseRepoId, pull.baseBranch);
  if (!rule) return perm.canWrite("code");
  return canUserMerge(env, rule, user, perm);
}

/** The files of the pull request a rule protects (Gitea's ChangedProtectedFiles). */
async function changedProtectedFiles(gitDir: string, rule: ProtectedBranchRule, pull: PullRequestRow, head: string): Promise<string[]> {
  const patterns = rule.protectedFilePatterns
    .toLowerCase()
    .split(";")
    .map((p) => p.trim())
    .filter(Boolean);
  if (!patterns.length || !pull.mergeBase) return [];
  const paths = await changedPaths(gitDir, pull.mergeBase, head);
  return paths.filter((p) => patterns.some((g) => globMatches(g, p.toLowerCase(), ["/", "."])));
}

/**
 * Gitea's CheckPullBranchProtections: the reason the base branch's rule forbids the merge, or
 * undefined. Statuses are those of the head commit; approvals count official, undismissed reviews.
 */
export async function branchProtectionBlocker(
  env: Env,
  rule: ProtectedBranchRule,
  pull: PullRequestRow,
  head: string,
  gitDir: string,
): Promise<string | undefined> {
  if (rule.enableStatusCheck && requiredContextsPass(latestStatuses(env, pull.baseRepoId, head), rule.statusCheckContexts) !== "success") {
    return "Not all required status checks successful";
  }
  if (rule.requiredApprovals > 0 && reviews.grantedApprovals(env.db, pull.issueId, rule.ignoreStaleApprovals) < rule.requiredApprovals) {
    return "Does not have enough approvals";
  }
  if (rule.blockOnRejectedReviews && reviews.hasOfficialRejection(env.db, pull.issueId)) return "There are requested changes";
  if (rule.blockOnOfficialReviewRequests && reviews.hasOfficialReviewRequest(env.db, pull.issueId)) return "There are official review requests";
  if (rule.blockOnOutdatedBranch && pull.commitsBehind > 0) return "The head branch is behind the base branch";
  if ((await changedProtectedFiles(gitDir, rule, pull, head)).length) return "Changed protected files";
  return undefined;
}

export interface MergeSubject {
  pull: PullRequestRow;
  issue: IssueRow;
  /** The doer's permission on the base repository. */
  perm: RepoPermission;
  gitDir: string;
  /** The head commit the base repository holds (refs/pull/{index}/head). */
  head: string;
}

/**
 * Gitea's CheckPullMergeable. A request still being checked is checked here and now rather than
 * refused, so a merge right after a push does not fail for a race the caller cannot see. Returns
 * the pull request as last checked.
 */
export async function checkPullMergeable(env: Env, doer: UserRow, s: MergeSubject, type: MergeCheckType, forceMerge: boolean): Promise<PullRequestRow> {
  let pull = s.pull;
  if (pull.hasMerged) throw notAllowed("The PR is already merged");
  if (s.issue.isClosed) throw new NotFound();
  if (!isUserAllowedToMerge(env, pull, doer, s.perm)) throw notAllowed("User not allowed to merge PR");
  if (type === "manually") return pull;
  if (isWorkInProgress(s.issue.title)) throw notAllowed("Work in progress PRs cannot be merged");
  if (pull.status === PullStatus.Checking || pull.status === PullStatus.Error) {
    pull = pulls.updatePullIfUnmerged(env.db, pull.id, storedCheck(await computePullCheck(env, pull))) ?? pull;
  }
  const mergeable = pull.status === PullStatus.Mergeable || pull.status === PullStatus.AncestorFF || pull.status === PullStatus.Empty;
  if (!mergeable) throw notAllowed("Please try again later");
  const rule = protectionRuleFor(env, pull.baseRepoId, pull.baseBranch);
  const reason = rule && (await branchProtectionBlocker(env, rule, pull, s.head, s.gitDir));
  // A scheduled merge waits for the checks instead; a repository admin may force past the rule
  // unless it blocks admin overrides.
  const skipped = type === "auto" || (forceMerge && s.perm.isAdmin() && !rule!.blockAdminMergeOverride);
  if (reason && !skipped) throw notAllowed(`not allowed to merge [reason: ${reason}]`);
  if (openDependencyCount(env, s.issue) > 0) throw notAllowed("cannot merge this pull request because it still has open dependencies");
  return pull;
}
