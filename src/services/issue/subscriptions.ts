import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import type { UserRow } from "../../db/schema/index.ts";
import * as watches from "../../models/issue-watch.ts";
import * as users from "../../models/user.ts";
import { isWatching as isWatchingRepo } from "../../models/watch.ts";
import { HearthError, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import type { IssueContext } from "./lookup.ts";
import type { SignedIn } from "../access/repo-access.ts";
import type { Doer } from "../access/permission.ts";

/**
 * Gitea's CheckIssueWatch: an explicit (un)subscription decides; otherwise a user follows the
 * issue when they watch its repository or take part in it (its poster, or someone who commented).
 */
export function isSubscribed(env: Env, user: UserRow, ic: IssueContext): boolean {
  const explicit = watches.getIssueWatch(env.db, user.id, ic.issue.id);
  if (explicit !== undefined) return explicit;
  return (
    isWatchingRepo(env.db, user.id, ic.repo.id) || ic.issue.posterId === user.id || watches.hasCommented(env.db, user.id, ic.issue.id)
  );
}

/** Gitea's GetIssueSubscribers: explicit subscribers who can still sign in, a page at a time. */
export function listSubscribers(env: Env, ic: IssueContext, page: { offset: number; limit: number }): { rows: UserRow[]; total: number } {
  return { rows: watches.listSubscribers(env.db, ic.issue.id, page), total: watches.countSubscribers(env.db, ic.issue.id) };
}

/**
 * Gitea's setIssueSubscription: a user (un)subscribes themselves; a site administrator anyone.
 * Returns whether anything changed (Gitea's 201) or the state already was so (200).
 */
export function setSubscription(env: Env, doer: Doer, ic: SignedIn<IssueContext>, userName: string, watch: boolean): boolean {
  const user = users.getUserByName(env.db, userName);
  if (!user) throw new NotFound();
  if (user.id !== doer.id && !doer.isAdmin) {
    throw new HearthError(403, `${doer.name} is not permitted to change subscriptions for ${user.name}`);
  }
  if (isSubscribed(env, user, ic) === watch) return false;
  writeTx(env.db, (tx) => watches.putIssueWatch(tx, user.id, ic.issue.id, watch, nowUnix()));
  return true;
}
