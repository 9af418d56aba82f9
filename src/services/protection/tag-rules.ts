import type { Env } from "../env.ts";
import type { ProtectedTagRow } from "../../db/schema/index.ts";
import * as model from "../../models/protected-tag.ts";
import { isTeamMember } from "../../models/team.ts";
import { compileGlob } from "../../lib/glob.ts";
import { Invalid } from "../../lib/errors.ts";

/** A tag protection with its allow-lists parsed and its pattern compiled. */
export interface ProtectedTagRule extends Omit<ProtectedTagRow, "allowlistUserIds" | "allowlistTeamIds"> {
  allowlistUserIds: number[];
  allowlistTeamIds: number[];
  matches: (tagName: string) => boolean;
}

/** Go regexp flags a pattern may start with, as `(?i)`; those JavaScript also has carry over. */
const GO_FLAGS = /^\(\?([imsU]+)\)/;

/**
 * Gitea's ProtectedTag.EnsureCompiledPattern: `/…/` is a regular expression, matched anywhere in the
 * name (Go's MatchString); anything else is a glob without separators, so `*` also crosses `/`, and
 * a plain name matches only itself. Throws when the pattern does not compile.
 */
export function compileTagPattern(pattern: string): (tagName: string) => boolean {
  if (pattern.length >= 2 && pattern.startsWith("/") && pattern.endsWith("/")) {
    let body = pattern.slice(1, -1);
    const flags = GO_FLAGS.exec(body);
    if (flags?.[1]!.includes("U")) throw new Error("non-greedy mode (?U) is not supported");
    if (flags) body = body.slice(flags[0].length);
    const re = new RegExp(body, flags?.[1] ?? "");
    return (name) => re.test(name);
  }
  const re = compileGlob(pattern);
  return (name) => re.test(name);
}

/** Why a pattern cannot be used, or undefined when it compiles. */
export function patternError(pattern: string): string | undefined {
  try {
    compileTagPattern(pattern);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

function idList(text: string): number[] {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter((x): x is number => typeof x === "number" && Number.isInteger(x)) : [];
  } catch {
    return [];
  }
}

export function parseTagRule(row: ProtectedTagRow): ProtectedTagRule {
  let matches: (tagName: string) => boolean;
  try {
    matches = compileTagPattern(row.namePattern);
  } catch {
    // Patterns are checked when saved, so this is a row written some other way. Gitea fails every
    // tag operation on such a pattern; protecting every tag keeps that refusal without an error.
    matches = () => true;
  }
  return { ...row, allowlistUserIds: idList(row.allowlistUserIds), allowlistTeamIds: idList(row.allowlistTeamIds), matches };
}

/** A repository's tag protections in creation order (Gitea's GetProtectedTags). */
export function tagRulesOf(env: Env, repoId: number): ProtectedTagRule[] {
  return model.listProtectedTags(env.db, repoId).map(parseTagRule);
}

/** Gitea's IsUserAllowedModifyTag: the user is on the allow-list or in one of its teams. */
function isAllowListed(env: Env, rule: ProtectedTagRule, userId: number): boolean {
  if (rule.allowlistUserIds.includes(userId)) return true;
  return rule.allowlistTeamIds.some((teamId) => isTeamMember(env.db, teamId, userId));
}

/**
 * Gitea's IsUserAllowedToControlTag: a tag no rule matches is free; otherwise one matching rule
 * that allows the user is enough. Repository and site administrators get no exemption.
 */
export function canControlTag(env: Env, rules: ProtectedTagRule[], tagName: string, userId: number): boolean {
  const matching = rules.filter((r) => r.matches(tagName));
  return matching.length === 0 || matching.some((r) => isAllowListed(env, r, userId));
}

/** Gitea's preReceiveTag refusal for creating, moving or deleting `refs/tags/<tagName>` by push. */
export function tagPushRefusal(env: Env, rules: ProtectedTagRule[], tagName: string, pusherId: number): string | undefined {
  return canControlTag(env, rules, tagName, pusherId) ? undefined : `Tag ${tagName} is protected`;
}

/**
 * Gitea's ErrProtectedTagName for tags created or deleted through the API and releases: 422 with
 * the message the caller's route uses.
 */
export function requireTagControl(env: Env, repoId: number, userId: number, tagName: string, message: string): void {
  if (!canControlTag(env, tagRulesOf(env, repoId), tagName, userId)) throw new Invalid(message);
}
