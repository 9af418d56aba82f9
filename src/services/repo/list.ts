import type { Env } from "../env.ts";
import { Visibility, type RepoRow, type UserRow } from "../../db/schema/index.ts";
import * as repos from "../../models/repo.ts";
import * as users from "../../models/user.ts";
import { repoPermission, isPublicOnly, type Doer } from "../access/permission.ts";
import type { RepoContext } from "./lookup.ts";

export interface Paging {
  offset: number;
  limit: number;
}

/**
 * Owner visibilities whose public repositories `viewer` may list: public ones for everyone (a
 * restricted account only while the site does not require signing in), limited ones for signed-in
 * accounts that are not restricted.
 */
export function visibleOwnerKinds(env: Env, viewer: UserRow | undefined): number[] {
  if (!viewer) return [Visibility.Public];
  if (viewer.isRestricted) return env.settings.service.requireSigninView ? [] : [Visibility.Public];
  return [Visibility.Public, Visibility.Limited];
}

/**
 * The viewer part of every repository list filter: who looks, whether restricted or site admin,
 * which owners' public repositories it may see, and whether its token is public-only.
 */
export function viewerFilter(env: Env, viewer: Doer | undefined) {
  return {
    viewerId: viewer?.id,
    restricted: viewer?.isRestricted ?? false,
    seeAll: viewer?.isAdmin ?? false,
    visibleOwnerVisibilities: visibleOwnerKinds(env, viewer),
    publicOnly: isPublicOnly(viewer),
  };
}

/** Adds owner and permission to each row; rows whose owner vanished are dropped. */
export function withContext(env: Env, viewer: UserRow | undefined, rows: RepoRow[]): RepoContext[] {
  const owners = new Map(users.getUsersByIds(env.db, [...new Set(rows.map((r) => r.ownerId))]).map((u) => [u.id, u]));
  const out: RepoContext[] = [];
  for (const repo of rows) {
    const owner = owners.get(repo.ownerId);
    if (owner) out.push({ repo, owner, perm: repoPermission(env, viewer, repo, owner) });
  }
  return out;
}

/** GET /user/repos: what the doer owns or collaborates on. */
export function listAccessibleRepos(env: Env, doer: Doer, page: Paging) {
  return repos.listRepos(env.db, {
    ...viewerFilter(env, doer),
    seeAll: false,
    onlyAccessible: true,
    sort: "id",
    descending: false,
    ...page,
  });
}

/** GET /users/{u}/repos: the repositories `owner` owns that `viewer` may see. */
export function listOwnerRepos(env: Env, viewer: Doer | undefined, owner: UserRow, page: Paging) {
  return repos.listRepos(env.db, {
    ...viewerFilter(env, viewer),
    ownerId: owner.id,
    sort: "id",
    descending: false,
    ...page,
  });
}

export interface SearchInput extends Paging {
  keyword?: string;
  topic?: boolean;
  includeDescription?: boolean;
  ownerId?: number;
  /** Only repositories the viewer owns or collaborates on (Gitea's `exclusive` with uid, or `private` narrowing). */
  onlyAccessible?: boolean;
  isPrivate?: boolean;
  archived?: boolean;
  template?: boolean;
  fork?: boolean;
  sort: repos.RepoSort;
  descending: boolean;
  /**
   * Gitea's SearchRepoOptions.Private false (`private=false`, or nobody signed in): only public
   * repositories of public owners, as an anonymous caller sees them, even for their owner.
   */
  onlyPublic?: boolean;
}

/** The repositories a search would find, all of them, with only what a permission check reads. */
export function searchRepoScope(env: Env, viewer: Doer | undefined, input: Omit<SearchInput, "sort" | "descending" | "offset" | "limit">): repos.RepoAccessRow[] {
  const { onlyPublic, ...search } = input;
  return repos.listRepoAccessRows(env.db, { ...viewerFilter(env, onlyPublic ? undefined : viewer), ...search });
}

export function searchRepos(env: Env, viewer: Doer | undefined, input: SearchInput) {
  const { onlyPublic, ...search } = input;
  return repos.listRepos(env.db, { ...viewerFilter(env, onlyPublic ? undefined : viewer), ...search });
}
