import type { Env } from "../env.ts";
import { UserType, Visibility, type UserRow } from "../../db/schema/index.ts";
import * as repos from "../../models/repo.ts";
import * as orgs from "../../models/org.ts";
import { searchAccounts, starredRepoIds, type AccountOrder } from "../../models/account-lists.ts";
import { isPublicOnly, type Doer } from "../access/permission.ts";
import { viewerFilter, type Paging } from "../repo/list.ts";
import { requireAccount } from "./lookup.ts";
import { requireViewableAccount, systemUser } from "./profile.ts";

/**
 * What the web's explore pages and profiles list: accounts found as Gitea's SearchUsers finds them
 * for a viewer, a profile's account and its organizations, the repositories a user starred.
 */

export type { AccountOrder } from "../../models/account-lists.ts";

export interface AccountSearchInput extends Paging {
  keyword: string;
  order: AccountOrder;
}

/** A public-only token sees what an anonymous visitor sees (the web has none, but a list never widens for one). */
const viewerOf = (viewer: Doer | undefined) => (viewer && !isPublicOnly(viewer) ? viewer : undefined);

/** /explore/users: active individuals the viewer may see (Gitea's Users explore). */
export function exploreUsers(env: Env, viewer: Doer | undefined, input: AccountSearchInput) {
  return searchAccounts(env.db, { type: UserType.Individual, viewer: viewerOf(viewer), isActive: true, ...input, keyword: input.keyword || undefined });
}

/** /explore/organizations: organizations the viewer may see, its own private ones included. */
export function exploreOrgs(env: Env, viewer: Doer | undefined, input: AccountSearchInput) {
  return searchAccounts(env.db, { type: UserType.Organization, viewer: viewerOf(viewer), ...input, keyword: input.keyword || undefined });
}

/**
 * The account of a profile page (`/{name}`): a user or an organization the viewer may see, else
 * 404 (a private name does not leak); a former name throws AccountMoved, which the door answers
 * with the page under the current name.
 */
export function profileAccount(env: Env, viewer: Doer | undefined, name: string): UserRow {
  return requireViewableAccount(env, requireAccount(env, name), viewer);
}

/**
 * The account whose avatar `/user/avatar/{name}/{size}` and `/{name}.png` redirect to: Gitea's system
 * users (Ghost, gitea-actions) by name, else an account as its profile is found. Gitea answers any
 * existing account; here a hidden one is a 404 like an unknown one, so the route cannot probe names.
 */
export function avatarAccount(env: Env, viewer: Doer | undefined, name: string): UserRow {
  const lower = name.toLowerCase();
  if (lower === "ghost") return systemUser(-1)!;
  if (lower === "gitea-actions") return systemUser(-2)!;
  return profileAccount(env, viewer, name);
}

/**
 * The organizations on a user's profile: the user and site admins see all of them; anyone else the
 * memberships the user made public, in organizations the viewer may see (public ones, and limited
 * ones for signed-in viewers).
 */
export function profileOrgs(env: Env, viewer: Doer | undefined, user: UserRow, page: Paging) {
  const v = viewerOf(viewer);
  if (v && (v.isAdmin || v.id === user.id)) return orgs.listUserOrgs(env.db, { uid: user.id, ...page });
  const visibleIn = v && !v.isRestricted ? [Visibility.Public, Visibility.Limited] : [Visibility.Public];
  return orgs.listUserOrgs(env.db, { uid: user.id, publicOnly: true, visibleIn, alsoMemberId: v?.id, ...page });
}

export interface RepoSearchInput extends Paging {
  keyword?: string;
  sort: repos.RepoSort;
  descending: boolean;
}

/**
 * A user's starred repositories as the profile's Stars tab lists them (Gitea's SearchRepository with
 * StarredByID): those the viewer may see, searched and ordered like any repository list.
 */
export function starredRepos(env: Env, viewer: Doer | undefined, user: UserRow, input: RepoSearchInput) {
  const ids = starredRepoIds(env.db, user.id);
  if (ids.length === 0) return { rows: [], total: 0 };
  return repos.listRepos(env.db, { ...viewerFilter(env, viewer), ids, includeDescription: true, ...input, keyword: input.keyword || undefined });
}
