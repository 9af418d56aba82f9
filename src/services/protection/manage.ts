import type { Env } from "../env.ts";
import { AccessMode, UnitType, UserType, type NewProtectedBranchRow, type TeamRow, type UserRow } from "../../db/schema/index.ts";
import { writeTx } from "../../db/client.ts";
import * as model from "../../models/protected-branch.ts";
import * as users from "../../models/user.ts";
import * as teams from "../../models/team.ts";
import { BadRequest, Forbidden, Invalid, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { repoPermission } from "../access/permission.ts";
import type { RepoContext } from "../repo/lookup.ts";
import { parseRule, rulesOf, type ProtectedBranchRule } from "./rules.ts";
import type { Administers } from "../access/repo-access.ts";
import { requireNotArchived } from "../access/repo-access.ts";

/** The fields of Gitea's Create/EditBranchProtectionOption; undefined or null means "not given". */
export interface ProtectionInput {
  ruleName?: string | null;
  branchName?: string | null;
  priority?: number | null;
  enablePush?: boolean | null;
  enablePushWhitelist?: boolean | null;
  pushWhitelistUsernames?: string[] | null;
  pushWhitelistTeams?: string[] | null;
  pushWhitelistDeployKeys?: boolean | null;
  enableForcePush?: boolean | null;
  enableForcePushAllowlist?: boolean | null;
  forcePushAllowlistUsernames?: string[] | null;
  forcePushAllowlistTeams?: string[] | null;
  forcePushAllowlistDeployKeys?: boolean | null;
  enableMergeWhitelist?: boolean | null;
  mergeWhitelistUsernames?: string[] | null;
  mergeWhitelistTeams?: string[] | null;
  enableStatusCheck?: boolean | null;
  statusCheckContexts?: string[] | null;
  requiredApprovals?: number | null;
  enableApprovalsWhitelist?: boolean | null;
  approvalsWhitelistUsernames?: string[] | null;
  approvalsWhitelistTeams?: string[] | null;
  blockOnRejectedReviews?: boolean | null;
  blockOnOfficialReviewRequests?: boolean | null;
  blockOnOutdatedBranch?: boolean | null;
  dismissStaleApprovals?: boolean | null;
  ignoreStaleApprovals?: boolean | null;
  requireSignedCommits?: boolean | null;
  protectedFilePatterns?: string | null;
  unprotectedFilePatterns?: string | null;
  blockAdminMergeOverride?: boolean | null;
}

const given = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null;

/** Gitea's GetUserIDsByNames: every name must be a user (422 naming the first that is not). */
export function userIdsByNames(env: Env, names: string[]): number[] {
  return names.map((name) => {
    const u = users.getUserByName(env.db, name);
    if (!u || u.type !== UserType.Individual) throw new Invalid(`user does not exist [uid: 0, name: ${name}]`);
    return u.id;
  });
}

/** Gitea's GetTeamIDsByNames for the owning organization: every name must be one of its teams. */
export function teamIdsByNames(env: Env, orgId: number, names: string[]): number[] {
  return names.map((name) => {
    const t = teams.getTeamByName(env.db, orgId, name);
    if (!t) throw new Invalid(`team does not exist [org_id ${orgId}, team_id 0, name: ${name}]`);
    return t.id;
  });
}

const sameSet = (a: number[], b: number[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

/**
 * Gitea's updateUserWhitelist / updateApprovalWhitelist: when the list changed, users without
 * write access to the code (or, for approvals, read access to pull requests) are dropped silently.
 */
function filterUsers(env: Env, rc: RepoContext, current: number[], wanted: number[], unit: "code" | "pulls"): number[] {
  if (sameSet(current, wanted)) return current;
  const out: number[] = [];
  for (const id of new Set(wanted)) {
    const u = users.getUserById(env.db, id);
    if (!u) continue;
    const perm = repoPermission(env, u, rc.repo, rc.owner);
    if (unit === "code" ? perm.canWrite("code") : perm.canRead("pulls")) out.push(id);
  }
  return out;
}

/** Gitea's GetTeamsWithAccessToAnyRepoUnit(read, code, pulls): the teams that may be whitelisted. */
export function teamsWithRepoAccess(env: Env, rc: RepoContext): TeamRow[] {
  const list = teams.teamsWithRepo(env.db, rc.repo.id).filter((t) => t.orgId === rc.owner.id);
  const units = teams.unitsOfTeams(
    env.db,
    list.map((t) => t.id),
  );
  return list.filter(
    (t) =>
      t.authorize >= AccessMode.Admin ||
      (units.get(t.id) ?? []).some((u) => (u.type === UnitType.Code || u.type === UnitType.PullRequests) && u.accessMode >= AccessMode.Read),
  );
}

/** Gitea's updateTeamWhitelist: when the list changed, keeps the teams with access to this repository. */
function filterTeams(env: Env, rc: RepoContext, current: number[], wanted: number[]): number[] {
  if (sameSet(current, wanted)) return current;
  return teamsWithRepoAccess(env, rc)
    .map((t) => t.id)
    .filter((id) => wanted.includes(id));
}

interface Lists {
  push: number[];
  forcePush: number[];
  merge: number[];
  approvals: number[];
}

/** Resolves the names given (422 for unknown ones), keeping the current lists where none is given. */
function resolveLists(env: Env, rc: RepoContext, input: ProtectionInput, current: { users: Lists; teams: Lists }) {
  const userList = (names: string[] | null | undefined, cur: number[]) => (given(names) ? userIdsByNames(env, names) : cur);
  const wantedUsers: Lists = {
    push: userList(input.pushWhitelistUsernames, current.users.push),
    forcePush: userList(input.forcePushAllowlistUsernames, current.users.forcePush),
    merge: userList(input.mergeWhitelistUsernames, current.users.merge),
    approvals: userList(input.approvalsWhitelistUsernames, current.users.approvals),
  };
  // Team lists only exist for organization repositories; for a user's repository they stay empty.
  const isOrg = rc.owner.type === UserType.Organization;
  const teamList = (names: string[] | null | undefined, cur: number[]) =>
    !isOrg ? [] : given(names) ? teamIdsByNames(env, rc.owner.id, names) : cur;
  const wantedTeams: Lists = {
    push: teamList(input.pushWhitelistTeams, current.teams.push),
    forcePush: teamList(input.forcePushAllowlistTeams, current.teams.forcePush),
    merge: teamList(input.mergeWhitelistTeams, current.teams.merge),
    approvals: teamList(input.approvalsWhitelistTeams, current.teams.approvals),
  };
  return {
    whitelistUserIds: JSON.stringify(filterUsers(env, rc, current.users.push, wantedUsers.push, "code")),
    forcePushAllowlistUserIds: JSON.stringify(filterUsers(env, rc, current.users.forcePush, wantedUsers.forcePush, "code")),
    mergeWhitelistUserIds: JSON.stringify(filterUsers(env, rc, current.users.merge, wantedUsers.merge, "code")),
    approvalsWhitelistUserIds: JSON.stringify(filterUsers(env, rc, current.users.approvals, wantedUsers.approvals, "pulls")),
    whitelistTeamIds: JSON.stringify(filterTeams(env, rc, current.teams.push, wantedTeams.push)),
    forcePushAllowlistTeamIds: JSON.stringify(filterTeams(env, rc, current.teams.forcePush, wantedTeams.forcePush)),
    mergeWhitelistTeamIds: JSON.stringify(filterTeams(env, rc, current.teams.merge, wantedTeams.merge)),
    approvalsWhitelistTeamIds: JSON.stringify(filterTeams(env, rc, current.teams.approvals, wantedTeams.approvals)),
  };
}

const NO_LISTS = { users: { push: [], forcePush: [], merge: [], approvals: [] }, teams: { push: [], forcePush: [], merge: [], approvals: [] } };

export function listProtections(env: Env, rc: RepoContext): ProtectedBranchRule[] {
  return rulesOf(env, rc.repo.id);
}

export function getProtection(env: Env, rc: RepoContext, name: string): ProtectedBranchRule {
  const row = model.getProtectedBranchByName(env.db, rc.repo.id, name);
  if (!row) throw new NotFound();
  return parseRule(row);
}

/** Gitea's CreateBranchProtection. */
export function createProtection(env: Env, rc: Administers, input: ProtectionInput): ProtectedBranchRule {
  requireNotArchived(rc);
  const ruleName = input.ruleName || input.branchName || "";
  if (!ruleName) throw new BadRequest("both rule_name and branch_name are empty");
  if (model.getProtectedBranchByName(env.db, rc.repo.id, ruleName)) throw new Forbidden("Branch protection already exist");
  const lists = resolveLists(env, rc, input, NO_LISTS);
  const push = input.enablePush ?? false;
  const pushList = push && (input.enablePushWhitelist ?? false);
  const force = push && (input.enableForcePush ?? false);
  const forceList = force && (input.enableForcePushAllowlist ?? false);
  const now = nowUnix();
  const row: NewProtectedBranchRow = {
    repoId: rc.repo.id,
    ruleName,
    priority: input.priority ?? 0,
    canPush: push,
    enableWhitelist: pushList,
    whitelistDeployKeys: pushList && (input.pushWhitelistDeployKeys ?? false),
    canForcePush: force,
    enableForcePushAllowlist: forceList,
    forcePushAllowlistDeployKeys: forceList && (input.forcePushAllowlistDeployKeys ?? false),
    enableMergeWhitelist: input.enableMergeWhitelist ?? false,
    enableStatusCheck: input.enableStatusCheck ?? false,
    statusCheckContexts: JSON.stringify(input.statusCheckContexts ?? []),
    enableApprovalsWhitelist: input.enableApprovalsWhitelist ?? false,
    requiredApprovals: Math.max(0, input.requiredApprovals ?? 0),
    blockOnRejectedReviews: input.blockOnRejectedReviews ?? false,
    blockOnOfficialReviewRequests: input.blockOnOfficialReviewRequests ?? false,
    blockOnOutdatedBranch: input.blockOnOutdatedBranch ?? false,
    dismissStaleApprovals: input.dismissStaleApprovals ?? false,
    ignoreStaleApprovals: input.ignoreStaleApprovals ?? false,
    requireSignedCommits: input.requireSignedCommits ?? false,
    protectedFilePatterns: input.protectedFilePatterns ?? "",
    unprotectedFilePatterns: input.unprotectedFilePatterns ?? "",
    blockAdminMergeOverride: input.blockAdminMergeOverride ?? false,
    ...lists,
    createdUnix: now,
    updatedUnix: now,
  };
  return parseRule(
    writeTx(env.db, (tx) => {
      // A new rule without a priority goes after every existing one (Gitea's UpdateProtectBranch).
      if (!row.priority) row.priority = model.maxProtectedBranchPriority(tx, rc.repo.id) + 1;
      return model.insertProtectedBranch(tx, row);
    }),
  );
}

/**
 * Gitea's EditBranchProtection: only the fields given change. Turning pushing (or force pushing)
 * off also turns its whitelist off. The status check contexts are replaced only by a non-null
 * list, an empty one clearing them, whether or not status checks are enabled (seed 6).
 */
export function editProtection(env: Env, rc: Administers, name: string, input: ProtectionInput): ProtectedBranchRule {
  requireNotArchived(rc);
  const rule = getProtection(env, rc, name);
  const patch: Partial<NewProtectedBranchRow> = {};
  if (given(input.enablePush)) {
    if (!input.enablePush) Object.assign(patch, { canPush: false, enableWhitelist: false, whitelistDeployKeys: false });
    else {
      patch.canPush = true;
      if (given(input.enablePushWhitelist)) {
        if (!input.enablePushWhitelist) Object.assign(patch, { enableWhitelist: false, whitelistDeployKeys: false });
        else {
          patch.enableWhitelist = true;
          if (given(input.pushWhitelistDeployKeys)) patch.whitelistDeployKeys = input.pushWhitelistDeployKeys;
        }
      }
    }
  }
  if (given(input.enableForcePush)) {
    if (!input.enableForcePush) Object.assign(patch, { canForcePush: false, enableForcePushAllowlist: false, forcePushAllowlistDeployKeys: false });
    else {
      patch.canForcePush = true;
      if (given(input.enableForcePushAllowlist)) {
        if (!input.enableForcePushAllowlist) Object.assign(patch, { enableForcePushAllowlist: false, forcePushAllowlistDeployKeys: false });
        else {
          patch.enableForcePushAllowlist = true;
          if (given(input.forcePushAllowlistDeployKeys)) patch.forcePushAllowlistDeployKeys = input.forcePushAllowlistDeployKeys;
        }
      }
    }
  }
  if (given(input.priority)) patch.priority = input.priority;
  if (given(input.enableMergeWhitelist)) patch.enableMergeWhitelist = input.enableMergeWhitelist;
  if (given(input.enableStatusCheck)) patch.enableStatusCheck = input.enableStatusCheck;
  if (given(input.statusCheckContexts)) patch.statusCheckContexts = JSON.stringify(input.statusCheckContexts);
  if (given(input.requiredApprovals) && input.requiredApprovals >= 0) patch.requiredApprovals = input.requiredApprovals;
  if (given(input.enableApprovalsWhitelist)) patch.enableApprovalsWhitelist = input.enableApprovalsWhitelist;
  if (given(input.blockOnRejectedReviews)) patch.blockOnRejectedReviews = input.blockOnRejectedReviews;
  if (given(input.blockOnOfficialReviewRequests)) patch.blockOnOfficialReviewRequests = input.blockOnOfficialReviewRequests;
  if (given(input.dismissStaleApprovals)) patch.dismissStaleApprovals = input.dismissStaleApprovals;
  if (given(input.ignoreStaleApprovals)) patch.ignoreStaleApprovals = input.ignoreStaleApprovals;
  if (given(input.requireSignedCommits)) patch.requireSignedCommits = input.requireSignedCommits;
  if (given(input.protectedFilePatterns)) patch.protectedFilePatterns = input.protectedFilePatterns;
  if (given(input.unprotectedFilePatterns)) patch.unprotectedFilePatterns = input.unprotectedFilePatterns;
  if (given(input.blockOnOutdatedBranch)) patch.blockOnOutdatedBranch = input.blockOnOutdatedBranch;
  if (given(input.blockAdminMergeOverride)) patch.blockAdminMergeOverride = input.blockAdminMergeOverride;
  Object.assign(
    patch,
    resolveLists(env, rc, input, {
      users: {
        push: rule.whitelistUserIds,
        forcePush: rule.forcePushAllowlistUserIds,
        merge: rule.mergeWhitelistUserIds,
        approvals: rule.approvalsWhitelistUserIds,
      },
      teams: {
        push: rule.whitelistTeamIds,
        forcePush: rule.forcePushAllowlistTeamIds,
        merge: rule.mergeWhitelistTeamIds,
        approvals: rule.approvalsWhitelistTeamIds,
      },
    }),
  );
  patch.updatedUnix = nowUnix();
  const row = writeTx(env.db, (tx) => model.updateProtectedBranch(tx, rc.repo.id, rule.id, patch));
  if (!row) throw new NotFound();
  return parseRule(row);
}

export function deleteProtection(env: Env, rc: Administers, name: string): void {
  requireNotArchived(rc);
  const rule = getProtection(env, rc, name);
  writeTx(env.db, (tx) => model.deleteProtectedBranch(tx, rc.repo.id, rule.id));
}

/** Gitea's UpdateProtectBranchPriorities: the rules listed get priorities 1, 2, ... in that order. */
export function setProtectionPriorities(env: Env, rc: Administers, ids: number[]): void {
  requireNotArchived(rc);
  writeTx(env.db, (tx) => ids.forEach((id, i) => model.setProtectedBranchPriority(tx, rc.repo.id, id, i + 1)));
}

/** Names for a rule's whitelists: only users and teams that can still read the repository are shown (Gitea's ToBranchProtection). */
export function whitelistNames(env: Env, rc: RepoContext, rule: ProtectedBranchRule) {
  const ids = new Set([
    ...rule.whitelistUserIds,
    ...rule.forcePushAllowlistUserIds,
    ...rule.mergeWhitelistUserIds,
    ...rule.approvalsWhitelistUserIds,
  ]);
  const userNames = new Map<number, string>();
  for (const u of users.getUsersByIds(env.db, [...ids]) as UserRow[]) {
    const perm = repoPermission(env, u, rc.repo, rc.owner);
    if (perm.canRead("code") || perm.canRead("pulls")) userNames.set(u.id, u.name);
  }
  const teamNames = new Map<number, string>();
  if (rc.owner.type === UserType.Organization) for (const t of teamsWithRepoAccess(env, rc)) teamNames.set(t.id, t.name);
  const names = (list: number[], from: Map<number, string>) =>
    list.flatMap((id) => (from.has(id) ? [from.get(id)!] : [])).sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
  return {
    push: names(rule.whitelistUserIds, userNames),
    forcePush: names(rule.forcePushAllowlistUserIds, userNames),
    merge: names(rule.mergeWhitelistUserIds, userNames),
    approvals: names(rule.approvalsWhitelistUserIds, userNames),
    pushTeams: names(rule.whitelistTeamIds, teamNames),
    forcePushTeams: names(rule.forcePushAllowlistTeamIds, teamNames),
    mergeTeams: names(rule.mergeWhitelistTeamIds, teamNames),
    approvalsTeams: names(rule.approvalsWhitelistTeamIds, teamNames),
  };
}
