import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { Visibility, type RepoRow, type UserRow } from "../../db/schema/index.ts";
import * as starModel from "../../models/star.ts";
import * as users from "../../models/user.ts";
import { nowUnix } from "../../lib/time.ts";
import { Forbidden } from "../../lib/errors.ts";
import type { Paging } from "./list.ts";
import { isPublicOnly, type Doer } from "../access/permission.ts";

/**
 * The repositories a listing of `user`'s stars or watches may show to `viewer`. The user looking at
 * their own list sees what they can access (unless through a public-only token); anyone else what
 * anyone can see.
 */
export function listingView(user: UserRow, viewer: Doer): starModel.RepoView {
  if (viewer.id !== user.id || isPublicOnly(viewer)) return { seeAll: false, visibleOwnerVisibilities: [Visibility.Public] };
  if (user.isAdmin) return { viewerId: user.id, seeAll: true, visibleOwnerVisibilities: [] };
  if (user.isRestricted) return { viewerId: user.id, seeAll: false, visibleOwnerVisibilities: [] };
  return { viewerId: user.id, seeAll: false, visibleOwnerVisibilities: [Visibility.Public, Visibility.Limited] };
}

export function isStarring(env: Env, user: UserRow, repo: RepoRow): boolean {
  return starModel.isStarring(env.db, user.id, repo.id);
}

/** Stars `repo` for `user` (idempotent); the repository's and the user's counters move in the same transaction. */
export function starRepo(env: Env, user: UserRow, repo: RepoRow): void {
  writeTx(env.db, (tx) => starModel.addStar(tx, user.id, repo.id, nowUnix()));
}

export function unstarRepo(env: Env, user: UserRow, repo: RepoRow): void {
  writeTx(env.db, (tx) => starModel.removeStar(tx, user.id, repo.id));
}

/** GET /repos/{o}/{r}/stargazers: the page, and Gitea's total (the repository's counter). */
export function listStargazers(env: Env, repo: RepoRow, page: Paging): { rows: UserRow[]; total: number } {
  return { rows: starModel.listStargazers(env.db, repo.id, page.offset, page.limit), total: repo.numStars };
}

/**
 * The repositories `user` starred. Gitea reports the user's star counter as the total, whatever
 * the filter hides.
 */
export function listStarredRepos(env: Env, user: UserRow, viewer: Doer, page: Paging): { rows: RepoRow[]; total: number } {
  const { rows } = starModel.listStarredRepos(env.db, user.id, listingView(user, viewer), page.offset, page.limit);
  const fresh = users.getUserById(env.db, user.id);
  return { rows, total: fresh?.numStars ?? user.numStars };
}

/** Gitea's reqStarsEnabled: with `[repository] DISABLE_STARS` every star endpoint is a 403. */
export function requireStarsEnabled(env: Env): void {
  if (env.settings.repository.disableStars) throw new Forbidden("stars disabled by administrator");
}
