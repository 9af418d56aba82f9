import type { Env } from "../env.ts";
import { UserType, type NewProtectedTagRow } from "../../db/schema/index.ts";
import { writeTx } from "../../db/client.ts";
import * as model from "../../models/protected-tag.ts";
import * as users from "../../models/user.ts";
import { BadRequest, Forbidden, Invalid, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { repoPermission } from "../access/permission.ts";
import type { RepoContext } from "../repo/lookup.ts";
import { teamIdsByNames, teamsWithRepoAccess, userIdsByNames } from "./manage.ts";
import { requireNotArchived } from "../access/repo-access.ts";
import { parseTagRule, patternError, tagRulesOf, type ProtectedTagRule } from "./tag-rules.ts";
import type { Administers } from "../access/repo-access.ts";

/** The fields of Gitea's Create/EditTagProtectionOption; undefined or null means "not given". */
export interface TagProtectionInput {
  namePattern?: string | null;
  whitelistUsernames?: string[] | null;
  whitelistTeams?: string[] | null;
}

const isOrgRepo = (rc: RepoContext) => rc.owner.type === UserType.Organization;

/**
 * Gitea stores any pattern and then fails every tag operation of the repository with a 500 when
 * one does not compile; hearth refuses such a pattern up front, which the caller can correct.
 */
function requireValidPattern(pattern: string): void {
  const why = patternError(pattern);
  if (why !== undefined) throw new Invalid(`name_pattern is not a valid glob or /regexp/: ${why}`);
}

export function listTagProtections(env: Env, rc: RepoContext): ProtectedTagRule[] {
  return tagRulesOf(env, rc.repo.id);
}

/** `{id}` in a path: a protection of this repository (404 otherwise, also for a non-number). */
export function getTagProtection(env: Env, rc: RepoContext, id: string): ProtectedTagRule {
  const row = /^\d{1,15}$/.test(id) ? model.getProtectedTag(env.db, rc.repo.id, Number(id)) : undefined;
  if (!row) throw new NotFound();
  return parseTagRule(row);
}

/** Gitea's CreateTagProtection: the allow-lists name users (and, for organizations, teams). */
export function createTagProtection(env: Env, rc: Administers, input: TagProtectionInput): ProtectedTagRule {
  requireNotArchived(rc);
  const namePattern = (input.namePattern ?? "").trim();
  if (!namePattern) throw new BadRequest("name_pattern are empty");
  const userNames = input.whitelistUsernames ?? [];
  const teamNames = input.whitelistTeams ?? [];
  if (userNames.length === 0 && teamNames.length === 0) throw new BadRequest("both whitelist_usernames and whitelist_teams are empty");
  if (model.getProtectedTagByPattern(env.db, rc.repo.id, namePattern)) throw new Forbidden("Tag protection already exist");
  const userIds = userIdsByNames(env, userNames);
  // Teams only exist for organization repositories; for a user's repository the names are ignored.
  const teamIds = isOrgRepo(rc) ? teamIdsByNames(env, rc.owner.id, teamNames) : [];
  requireValidPattern(namePattern);
  const now = nowUnix();
  const row: NewProtectedTagRow = {
    repoId: rc.repo.id,
    namePattern,
    allowlistUserIds: JSON.stringify(userIds),
    allowlistTeamIds: JSON.stringify(teamIds),
    createdUnix: now,
    updatedUnix: now,
  };
  return parseTagRule(writeTx(env.db, (tx) => model.insertProtectedTag(tx, row)));
}

/**
 * Gitea's EditTagProtection: only the fields given change; a list given replaces the old one. The
 * pattern is taken as sent (Gitea neither trims it nor checks for duplicates here).
 */
export function editTagProtection(env: Env, rc: Administers, id: string, input: TagProtectionInput): ProtectedTagRule {
  requireNotArchived(rc);
  const rule = getTagProtection(env, rc, id);
  const patch: Partial<NewProtectedTagRow> = { updatedUnix: nowUnix() };
  if (input.namePattern !== undefined && input.namePattern !== null) patch.namePattern = input.namePattern;
  if (input.whitelistTeams) {
    patch.allowlistTeamIds = JSON.stringify(isOrgRepo(rc) ? teamIdsByNames(env, rc.owner.id, input.whitelistTeams) : []);
  }
  if (input.whitelistUsernames) patch.allowlistUserIds = JSON.stringify(userIdsByNames(env, input.whitelistUsernames));
  if (patch.namePattern !== undefined) requireValidPattern(patch.namePattern);
  const row = writeTx(env.db, (tx) => model.updateProtectedTag(tx, rc.repo.id, rule.id, patch));
  if (!row) throw new NotFound();
  return parseTagRule(row);
}

/** Gitea's DeleteTagProtection (allowed on an archived repository, as in Gitea). */
export function deleteTagProtection(env: Env, rc: Administers, id: string): void {
  const rule = getTagProtection(env, rc, id);
  writeTx(env.db, (tx) => model.deleteProtectedTag(tx, rc.repo.id, rule.id));
}

/**
 * Gitea's ToTagProtection names: the allow-listed users that can still read the code or pull
 * requests, and the teams with such access to the repository, each sorted by name.
 */
export function tagAllowlistNames(env: Env, rc: RepoContext, rule: ProtectedTagRule): { users: string[]; teams: string[] } {
  const byName = (a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase());
  const userNames = users
    .getUsersByIds(env.db, rule.allowlistUserIds)
    .filter((u) => {
      const perm = repoPermission(env, u, rc.repo, rc.owner);
      return perm.canRead("code") || perm.canRead("pulls");
    })
    .map((u) => u.name)
    .sort(byName);
  const teamNames = isOrgRepo(rc)
    ? teamsWithRepoAccess(env, rc)
        .filter((t) => rule.allowlistTeamIds.includes(t.id))
        .map((t) => t.name)
        .sort(byName)
    : [];
  return { users: userNames, teams: teamNames };
}
