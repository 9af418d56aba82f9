import type { Env } from "../env.ts";
import type { ProtectedBranchRow } from "../../db/schema/index.ts";
import * as model from "../../models/protected-branch.ts";
import { compileGlob, hasGlobSyntax } from "../../lib/glob.ts";

/** A branch protection rule with its JSON-text lists parsed. */
export interface ProtectedBranchRule
  extends Omit<
    ProtectedBranchRow,
    | "whitelistUserIds"
    | "whitelistTeamIds"
    | "forcePushAllowlistUserIds"
    | "forcePushAllowlistTeamIds"
    | "mergeWhitelistUserIds"
    | "mergeWhitelistTeamIds"
    | "statusCheckContexts"
    | "approvalsWhitelistUserIds"
    | "approvalsWhitelistTeamIds"
  > {
  whitelistUserIds: number[];
  whitelistTeamIds: number[];
  forcePushAllowlistUserIds: number[];
  forcePushAllowlistTeamIds: number[];
  mergeWhitelistUserIds: number[];
  mergeWhitelistTeamIds: number[];
  statusCheckContexts: string[];
  approvalsWhitelistUserIds: number[];
  approvalsWhitelistTeamIds: number[];
  /** The rule name has no glob syntax: it names one branch (matched case-insensitively). */
  isPlainName: boolean;
}

function jsonList<T>(text: string, ok: (x: unknown) => x is T): T[] {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter(ok) : [];
  } catch {
    return [];
  }
}
const isId = (x: unknown): x is number => typeof x === "number" && Number.isInteger(x);
const isString = (x: unknown): x is string => typeof x === "string";

export function parseRule(row: ProtectedBranchRow): ProtectedBranchRule {
  return {
    ...row,
    whitelistUserIds: jsonList(row.whitelistUserIds, isId),
    whitelistTeamIds: jsonList(row.whitelistTeamIds, isId),
    forcePushAllowlistUserIds: jsonList(row.forcePushAllowlistUserIds, isId),
    forcePushAllowlistTeamIds: jsonList(row.forcePushAllowlistTeamIds, isId),
    mergeWhitelistUserIds: jsonList(row.mergeWhitelistUserIds, isId),
    mergeWhitelistTeamIds: jsonList(row.mergeWhitelistTeamIds, isId),
    statusCheckContexts: jsonList(row.statusCheckContexts, isString),
    approvalsWhitelistUserIds: jsonList(row.approvalsWhitelistUserIds, isId),
    approvalsWhitelistTeamIds: jsonList(row.approvalsWhitelistTeamIds, isId),
    isPlainName: !hasGlobSyntax(row.ruleName),
  };
}

const escapeGlob = (s: string) => s.replace(/[*?[\]{}\\]/g, "\\$&");

/**
 * Gitea's ProtectedBranch.Match: a plain name equals the branch ignoring case; a glob is compiled
 * with `/` as separator (`*` stays within a path segment, `**` crosses them). A glob that does not
 * compile is taken literally, as Gitea does.
 */
export function ruleMatches(rule: Pick<ProtectedBranchRule, "ruleName" | "isPlainName">, branch: string): boolean {
  if (rule.isPlainName) return rule.ruleName.toLowerCase() === branch.toLowerCase();
  let re: RegExp;
  try {
    re = compileGlob(rule.ruleName, ["/"]);
  } catch {
    re = compileGlob(escapeGlob(rule.ruleName), ["/"]);
  }
  return re.test(branch);
}

/**
 * A repository's rules in matching order (Gitea's FindRepoProtectedBranchRules): rules naming one
 * branch before globs, then by priority (lower first), then oldest first.
 */
export function rulesOf(env: Env, repoId: number): ProtectedBranchRule[] {
  return model
    .listProtectedBranches(env.db, repoId)
    .map(parseRule)
    .sort((a, b) => {
      if (a.isPlainName !== b.isPlainName) return a.isPlainName ? -1 : 1;
      return a.priority - b.priority || a.createdUnix - b.createdUnix || a.id - b.id;
    });
}

/** The first rule of `rules` (in matching order) that protects `branch`. */
export function firstMatch(rules: ProtectedBranchRule[], branch: string): ProtectedBranchRule | undefined {
  return rules.find((r) => ruleMatches(r, branch));
}

/** The rule protecting a branch (Gitea's GetFirstMatchProtectedBranchRule), or undefined. */
export function protectionRuleFor(env: Env, repoId: number, branch: string): ProtectedBranchRule | undefined {
  return firstMatch(rulesOf(env, repoId), branch);
}
