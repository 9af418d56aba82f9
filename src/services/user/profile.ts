import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { UserType, Visibility, type NewUserRow, type UserRow } from "../../db/schema/index.ts";
import { canSeeOwner, requireOwnerInReach, isPublicOnly, type Doer } from "../access/permission.ts";
import * as users from "../../models/user.ts";
import { NotFound } from "../../lib/errors.ts";
import type { Tx } from "../../db/client.ts";
import { nowUnix } from "../../lib/time.ts";

export interface SettingsPatch {
  fullName?: string;
  website?: string;
  description?: string;
  location?: string;
  language?: string;
  theme?: string;
  diffViewStyle?: string;
  hideEmail?: boolean;
  hideActivity?: boolean;
  /** Visibility.Public, Limited or Private (the web's profile form sets it; the API's settings do not). */
  visibility?: number;
}

/** PATCH /user/settings: only the given fields change. */
export function updateSettings(env: Env, user: UserRow, p: SettingsPatch): UserRow {
  const patch: Partial<NewUserRow> = { updatedUnix: nowUnix() };
  if (p.fullName !== undefined) patch.fullName = p.fullName;
  if (p.website !== undefined) patch.website = p.website;
  if (p.description !== undefined) patch.description = p.description;
  if (p.location !== undefined) patch.location = p.location;
  if (p.language !== undefined) patch.language = p.language;
  if (p.theme !== undefined) patch.theme = p.theme;
  if (p.diffViewStyle !== undefined) patch.diffViewStyle = p.diffViewStyle;
  if (p.hideEmail !== undefined) patch.keepEmailPrivate = p.hideEmail;
  if (p.hideActivity !== undefined) patch.hideActivity = p.hideActivity;
  if (p.visibility !== undefined) patch.visibility = p.visibility;
  const updated = writeTx(env.db, (tx) => users.updateUser(tx, user.id, patch));
  if (!updated) throw new NotFound();
  return updated;
}

/** Whether `viewer` may see `user` at all (Gitea's individualPermsChecker); a public-only token sees public users only. */
export function canSeeUser(user: UserRow, viewer: Doer | undefined): boolean {
  if (user.visibility === Visibility.Public) return true;
  if (!viewer || isPublicOnly(viewer)) return false;
  if (viewer.isAdmin || viewer.id === user.id) return true;
  return user.visibility === Visibility.Limited;
}

/**
 * A user or organization named by a route, as `viewer` may see it: Gitea's 403 when only a
 * public-only token keeps it out of reach, else 404 when hidden.
 */
export function requireViewableAccount(env: Env, account: UserRow, viewer: Doer | undefined): UserRow {
  requireOwnerInReach(env, account, viewer);
  if (!canViewAccount(env, account, viewer)) throw new NotFound("The target couldn't be found.");
  return account;
}

/** Whether `viewer` may see a user or organization profile: organizations by their own rules (members for private ones). */
export function canViewAccount(env: Env, account: UserRow, viewer: UserRow | undefined): boolean {
  if (account.type === UserType.Organization) return canSeeOwner(env, account, viewer);
  return canSeeUser(account, viewer);
}

export interface SearchInput {
  keyword: string;
  uid: number;
  offset: number;
  limit: number;
}

/** The ghost and actions users: never stored, returned by search for uid -1 / -2 as Gitea does. */
export function systemUser(id: number): UserRow | undefined {
  const base = {
    fullName: "",
    email: "",
    keepEmailPrivate: false,
    passwd: "",
    passwdHashAlgo: "",
    mustChangePassword: false,
    loginType: 0,
    loginSource: 0,
    loginName: "",
    type: UserType.Individual,
    location: "",
    website: "",
    description: "",
    language: "",
    theme: "",
    diffViewStyle: "",
    createdUnix: 0,
    updatedUnix: 0,
    lastLoginUnix: 0,
    maxRepoCreation: 0,
    isActive: false,
    isAdmin: false,
    isRestricted: false,
    allowGitHook: false,
    allowImportLocal: false,
    allowCreateOrganization: false,
    prohibitLogin: true,
    visibility: Visibility.Public,
    hideActivity: false,
    avatar: "",
    numFollowers: 0,
    numFollowing: 0,
    numStars: 0,
    numRepos: 0,
    repoAdminChangeTeamAccess: false,
  } satisfies Omit<UserRow, "id" | "name" | "lowerName">;
  if (id === -1) return { ...base, id: -1, name: "Ghost", lowerName: "ghost" };
  if (id === -2) {
    return {
      ...base,
      id: -2,
      name: "gitea-actions",
      lowerName: "gitea-actions",
      fullName: "Gitea Actions",
      email: "teabot@gitea.io",
      keepEmailPrivate: true,
      loginName: "gitea-actions",
      isActive: true,
    };
  }
  return undefined;
}

/** GET /users/search: Gitea's visibility rules; system users by their negative uid. */
export function searchUsers(env: Env, viewer: Doer | undefined, input: SearchInput): { rows: UserRow[]; total: number } {
  const system = systemUser(input.uid);
  if (system) return { rows: [system], total: 1 };
  const publicOnly = isPublicOnly(viewer);
  let visibleIn: number[] | undefined;
  if (publicOnly || !viewer) visibleIn = [Visibility.Public];
  else if (!viewer.isAdmin) visibleIn = [Visibility.Public, Visibility.Limited];
  const result = users.listUsers(env.db, {
    type: UserType.Individual,
    keyword: input.keyword || undefined,
    keywordMatchesEmail: true,
    emailVisibleTo: viewer?.isAdmin ? "all" : viewer ? { selfId: viewer.id } : "public",
    id: input.uid > 0 ? input.uid : undefined,
    visibleIn,
    alsoId: viewer && !viewer.isAdmin && !publicOnly ? viewer.id : undefined,
    orderBy: "name",
    offset: input.offset,
    limit: input.limit,
  });
  return result;
}

export interface AdminListInput {
  sourceId?: number;
  loginName?: string;
  keyword?: string;
  visibility?: number;
  isActive?: boolean;
  isAdmin?: boolean;
  isRestricted?: boolean;
  isProhibitLogin?: boolean;
  hasTwoFactor?: boolean;
  sort?: "name" | "created" | "updated" | "id";
  descending?: boolean;
  offset: number;
  limit: number;
}

/** GET /admin/users: every individual user, Gitea's filters, ordered by name unless told otherwise. */
export function adminListUsers(env: Env, input: AdminListInput) {
  return users.listUsers(env.db, {
    type: UserType.Individual,
    loginSource: input.sourceId || undefined,
    loginName: input.loginName || undefined,
    keyword: input.keyword || undefined,
    keywordMatchesEmail: true,
    emailVisibleTo: "all",
    visibleIn: input.visibility === undefined ? undefined : [input.visibility],
    isActive: input.isActive,
    isAdmin: input.isAdmin,
    isRestricted: input.isRestricted,
    isProhibitLogin: input.isProhibitLogin,
    hasTwoFactor: input.hasTwoFactor,
    orderBy: input.sort ?? "name",
    descending: input.descending,
    offset: input.offset,
    limit: input.limit,
  });
}

/**
 * The account of an id as it is shown: a stored one, or the ghost (-1) or the Actions bot (-2),
 * which are never stored; undefined for an id of neither.
 */
export function accountById(db: Tx, id: number): UserRow | undefined {
  return id > 0 ? users.getUserById(db, id) : systemUser(id);
}

/**
 * Each id's account as it is shown, in one query for the stored ones: the ghost and the Actions
 * bot as themselves, an account that is gone as the ghost (Gitea's GetPossibleUserByID).
 */
export function accountsByIds(db: Tx, ids: readonly number[]): Map<number, UserRow> {
  const out = new Map<number, UserRow>();
  for (const u of users.getUsersByIds(db, [...new Set(ids.filter((id) => id > 0))])) out.set(u.id, u);
  for (const id of ids) if (!out.has(id)) out.set(id, systemUser(id) ?? ghostUser());
  return out;
}

/** Gitea's Ghost: who a deleted account's issues and comments are shown as. */
export function ghostUser(): UserRow {
  return systemUser(-1)!;
}
