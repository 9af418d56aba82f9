import type { Env } from "../env.ts";
import type { RepoRow, UserRow } from "../../db/schema/index.ts";
import { repoPermission, type RepoPermission } from "../access/permission.ts";
import { getPullByIndex } from "../../models/pull.ts";
import { globMatches } from "../../lib/glob.ts";
import { changedPaths, isForcePush, newestPushedCommit, type QuarantineEnv } from "../../git/push-inspect.ts";
import { gitDirOf } from "../repo/lookup.ts";
import { rulesOf, firstMatch, type ProtectedBranchRule } from "./rules.ts";
import { canUserForcePush, canUserPush } from "./permissions.ts";
import { tagPushRefusal, tagRulesOf, type ProtectedTagRule } from "./tag-rules.ts";

export interface PushedRef {
  old: string;
  new: string;
  ref: string;
}

export interface PushContext {
  repo: RepoRow;
  owner: UserRow;
  pusher: UserRow;
  /** Where git keeps the pushed objects until the hook accepts them. */
  quarantine?: QuarantineEnv;
  /**
   * Set when hearth itself pushes the merge of this pull request: the merge code has already
   * checked the merge whitelist, approvals and statuses (Gitea's step 6b), so the push whitelist
   * does not apply.
   */
  pullRequestId?: number;
}

const isZero = (sha: string) => /^0+$/.test(sha);

/** Gitea's file patterns: `;`-separated globs, lowercased, with `.` and `/` as separators. */
function filePatterns(text: string): string[] {
  return text
    .toLowerCase()
    .split(";")
    .map((p) => p.trim())
    .filter(Boolean);
}
const matchesAny = (patterns: string[], path: string) =>
  patterns.some((p) => globMatches(p, path.trim().toLowerCase(), [".", "/"]));

/** Gitea's preReceiveBranch for one update of `refs/heads/<branch>`; returns the refusal, if any. */
async function checkBranch(
  env: Env,
  ctx: PushContext,
  perm: RepoPermission,
  rules: ProtectedBranchRule[],
  u: PushedRef,
  branch: string,
): Promise<string | undefined> {
  if (branch === ctx.repo.defaultBranch && isZero(u.new)) return `branch ${branch} is the default branch and cannot be deleted`;
  const rule = firstMatch(rules, branch);
  if (!rule) return undefined;
  if (isZero(u.new)) return `branch ${branch} is protected from deletion`;

  const gitDir = gitDirOf(env, ctx.owner, ctx.repo);
  const q = ctx.quarantine ?? {};
  const old = isZero(u.old) ? undefined : u.old;
  let forcePush = false;
  if (old && (await isForcePush(gitDir, old, u.new, q))) {
    if (!rule.canForcePush) return `branch ${branch} is protected from force push`;
    forcePush = true;
  }
  if (rule.requireSignedCommits) {
    // hearth holds no GPG or SSH keys, so no commit can be verified: any new commit is refused.
    const unverified = await newestPushedCommit(gitDir, old, u.new, q);
    if (unverified) return `branch ${branch} is protected from unverified commit ${unverified}`;
  }

  const protectedPatterns = filePatterns(rule.protectedFilePatterns);
  const unprotectedPatterns = filePatterns(rule.unprotectedFilePatterns);
  const paths = protectedPatterns.length || unprotectedPatterns.length ? await changedPaths(gitDir, old, u.new, q) : [];
  const protectedPath = protectedPatterns.length ? paths.find((p) => matchesAny(protectedPatterns, p)) : undefined;

  const allowed = forcePush ? canUserForcePush(env, rule, ctx.pusher, perm) : canUserPush(env, rule, ctx.pusher, perm);
  if (protectedPath === undefined && allowed) return undefined;
  if (ctx.pullRequestId) return undefined;
  if (protectedPath !== undefined) return `branch ${branch} is protected from changing file ${protectedPath}`;
  // Commits that only touch unprotected files may go in.
  if (unprotectedPatterns.length && paths.every((p) => matchesAny(unprotectedPatterns, p))) return undefined;
  if (forcePush) return `Not allowed to force-push to protected branch ${branch}`;
  return `Not allowed to push to protected branch ${branch}`;
}

/**
 * Gitea's preReceivePull: `refs/pull/<index>/head` belongs to hearth, which keeps it at the head
 * of the pull request; only an AGit pull request may be updated through it.
 */
function checkPullRef(env: Env, ctx: PushContext, u: PushedRef): string | undefined {
  const m = /^refs\/pull\/([^/]+)\/head$/.exec(u.ref);
  const index = m ? Number(m[1]) : NaN;
  if (!m || !/^\d{1,15}$/.test(m[1]!) || index <= 0) return `Invalid ref: ${u.ref}`;
  const pr = getPullByIndex(env.db, ctx.repo.id, index);
  if (!pr) return `Unable to get pull request ${index}`;
  if (pr.flow === 1) return undefined;
  let msg = `Only AGit pull-requests can be pushed via ${u.ref}`;
  if (pr.headRepoId === ctx.repo.id) msg += `\nPush to branch "${pr.headBranch}" instead`;
  return msg;
}

/**
 * The branch-protection part of the pre-receive decision (Gitea's routers/private/hook_pre_receive.go),
 * for every ref of one push. Returns the first refusal, in Gitea's words, or undefined.
 */
export async function checkProtectedRefs(env: Env, ctx: PushContext, updates: PushedRef[]): Promise<string | undefined> {
  const perm = repoPermission(env, ctx.pusher, ctx.repo, ctx.owner);
  let rules: ProtectedBranchRule[] | undefined;
  let tagRules: ProtectedTagRule[] | undefined;
  for (const u of updates) {
    let refusal: string | undefined;
    if (u.ref.startsWith("refs/heads/")) {
      rules ??= rulesOf(env, ctx.repo.id);
      refusal = await checkBranch(env, ctx, perm, rules, u, u.ref.slice("refs/heads/".length));
    } else if (u.ref.startsWith("refs/tags/")) {
      tagRules ??= tagRulesOf(env, ctx.repo.id);
      refusal = tagPushRefusal(env, tagRules, u.ref.slice("refs/tags/".length), ctx.pusher.id);
    } else if (u.ref.startsWith("refs/pull/")) {
      refusal = checkPullRef(env, ctx, u);
    }
    if (refusal) return refusal;
  }
  return undefined;
}
