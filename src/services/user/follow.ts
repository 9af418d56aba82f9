import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { UserType, type UserRow } from "../../db/schema/index.ts";
import { orgIdsOfMember } from "../../models/org.ts";
import * as followModel from "../../models/follow.ts";
import { NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { requireAccount } from "./lookup.ts";
import { canViewAccount } from "./profile.ts";

export interface Paging {
  offset: number;
  limit: number;
}

export function isFollowing(env: Env, user: UserRow, target: UserRow): boolean {
  return followModel.isFollowing(env.db, user.id, target.id);
}

/**
 * Whether `viewer` may see `account`: the profile rules, plus Gitea's IsUserVisibleToViewer
 * exceptions for a private user, who is visible to an unrestricted account they follow or share
 * an organization with (the same accounts the follow lists show).
 */
function seesAccount(env: Env, account: UserRow, viewer: UserRow | undefined): boolean {
  if (canViewAccount(env, account, viewer)) return true;
  if (!viewer || viewer.isRestricted || account.type !== UserType.Individual) return false;
  if (followModel.isFollowing(env.db, account.id, viewer.id)) return true;
  const theirs = new Set(orgIdsOfMember(env.db, account.id));
  return orgIdsOfMember(env.db, viewer.id).some((id) => theirs.has(id));
}

/**
 * The `{username}` of /user/following/{username}: a user or organization, as Gitea's
 * UserAssignmentAPI finds it. Unlike Gitea, an account the doer may not see is a 404, so following
 * cannot probe for private accounts; a follow of an account that went private can still be checked
 * and ended.
 */
export function followTarget(env: Env, doer: UserRow, name: string): UserRow {
  const target = requireAccount(env, name);
  if (!seesAccount(env, target, doer) && !followModel.isFollowing(env.db, doer.id, target.id)) {
    throw new NotFound("The target couldn't be found.");
  }
  return target;
}

/**
 * The `{username}` of /users/{username}/followers|following and the `{target}` of
 * /users/{username}/following/{target}: a user or organization (one may follow an organization),
 * found as Gitea does, plus (unlike Gitea, whose route group lacks it) the visibility check, so
 * neither a private account's follows nor the account itself can be probed.
 */
export function visibleAccount(env: Env, viewer: UserRow | undefined, name: string): UserRow {
  const account = requireAccount(env, name);
  if (!seesAccount(env, account, viewer)) throw new NotFound("The target couldn't be found.");
  return account;
}

/** Gitea's FollowUser: following yourself or someone already followed changes nothing. */
export function followUser(env: Env, doer: UserRow, target: UserRow): void {
  if (doer.id === target.id) return;
  writeTx(env.db, (tx) => followModel.addFollow(tx, doer.id, target.id, nowUnix()));
}

/** Gitea's UnfollowUser: ending a follow that does not exist changes nothing. */
export function unfollowUser(env: Env, doer: UserRow, target: UserRow): void {
  if (doer.id === target.id) return;
  writeTx(env.db, (tx) => followModel.removeFollow(tx, doer.id, target.id));
}

/**
 * The accounts following `user` that `viewer` may see (Gitea filters the list, and its total, by
 * the viewer, so a private follower stays hidden from those who cannot see it).
 */
export function listFollowers(env: Env, user: UserRow, viewer: followModel.UserViewer, page: Paging) {
  return followModel.listFollowers(env.db, user.id, viewer, page.offset, page.limit);
}

/** The accounts `user` follows that `viewer` may see. */
export function listFollowing(env: Env, user: UserRow, viewer: followModel.UserViewer, page: Paging) {
  return followModel.listFollowing(env.db, user.id, viewer, page.offset, page.limit);
}
