import type { Env } from "../env.ts";
import { writeTx, type Tx } from "../../db/client.ts";
import type { RepoRow, UserRow } from "../../db/schema/index.ts";
import * as watchModel from "../../models/watch.ts";
import { nowUnix } from "../../lib/time.ts";
import type { Paging } from "./list.ts";
import { listingView } from "./stars.ts";
import type { Doer } from "../access/permission.ts";

export function isWatching(env: Env, user: UserRow, repo: RepoRow): boolean {
  return watchModel.isWatching(env.db, user.id, repo.id);
}

/**
 * `userId` watches `repoId` (idempotent); `num_watches` moves in the same transaction. Pass `tx`
 * to do it inside a caller's transaction: repository creation calls this for the creator, as
 * Gitea's `[service] AUTO_WATCH_NEW_REPOS` (default true) does.
 */
export function watchRepo(env: Env, userId: number, repoId: number, tx?: Tx): void {
  if (tx) watchModel.addWatch(tx, userId, repoId, nowUnix());
  else writeTx(env.db, (t) => watchModel.addWatch(t, userId, repoId, nowUnix()));
}

export function unwatchRepo(env: Env, userId: number, repoId: number, tx?: Tx): void {
  if (tx) watchModel.removeWatch(tx, userId, repoId);
  else writeTx(env.db, (t) => watchModel.removeWatch(t, userId, repoId));
}

/** GET /repos/{o}/{r}/subscribers: the page, and Gitea's total (the repository's counter). */
export function listWatchers(env: Env, repo: RepoRow, page: Paging): { rows: UserRow[]; total: number } {
  return { rows: watchModel.listWatchers(env.db, repo.id, page.offset, page.limit), total: repo.numWatches };
}

/** The repositories `user` watches (private ones only when `includePrivate`), with the filtered total. */
export function listWatchedRepos(env: Env, user: UserRow, viewer: Doer, page: Paging) {
  return watchModel.listWatchedRepos(env.db, user.id, listingView(user, viewer), page.offset, page.limit);
}
