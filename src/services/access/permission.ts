import type { Tx } from "../../db/client.ts";
import {
  AccessMode,
  UnitType,
  UserType,
  Visibility,
  type AccessModeValue,
  type CollaborationRow,
  type RepoRow,
  type TeamRow,
  type TeamUnitRow,
  type UnitTypeValue,
  type UserRow,
} from "../../db/schema/index.ts";
import { collaborationsOfUser, getCollaboration } from "../../models/collaboration.ts";
import type { RepoAccessRow } from "../../models/repo.ts";
import { isOrgMember, isOrgOwner, orgIdsOfMember, ownedOrgIds } from "../../models/org.ts";
import { teamReposOfUser, unitsOfTeams, userTeamsWithRepo } from "../../models/team.ts";
import { NotFound, PublicOnlyRefused } from "../../lib/errors.ts";
import type { ScopeSet } from "./scopes.ts";
import { ReadRefused } from "./refusals.ts";

/**
 * The one permission function of hearth: every caller (API routes, git transport, hooks, later the
 * web, registries and the runner) asks it what a doer may do with a repository, an organization or
 * an account. It is domain, not credentials: auth/ says who is calling, this says what they may do.
 */

/**
 * A token scoped `public-only` narrows everything else it may do to public things: public
 * repositories of public owners, public users and public organizations (Gitea's ctx.PublicOnly).
 *
 * The doer of such a request carries the flag itself, so the one permission function
 * (this module) and the list filters built from the doer treat everything else as out of
 * reach, whichever route, list, transport or download asks: no handler has to remember it.
 */
export type Doer = UserRow & { readonly publicOnly?: true; readonly actionsTask?: ActionsTaskGrant };

/**
 * What the Actions bot may do while it acts for one running task (its token is the job's
 * GITEA_TOKEN): write every unit of the task's repository (read only, for a pull request from a
 * fork), read public repositories, nothing else (Gitea 1.25's GetActionsUserRepoPermission).
 */
export interface ActionsTaskGrant {
  taskId: number;
  repoId: number;
  readOnly: boolean;
  /** The workflow's `permissions:` per unit, when it stated them (never above write, or read when `readOnly`). */
  units?: Partial<Record<RepoUnit, "none" | "read" | "write">>;
}

const GRANTED: Record<"none" | "read" | "write", AccessModeValue> = { none: AccessMode.None, read: AccessMode.Read, write: AccessMode.Write };

/** What a task's token may do on its own repository. */
function taskPermission(grant: ActionsTaskGrant, repo: RepoAccessRow): RepoPermission {
  const ceiling = grant.readOnly ? AccessMode.Read : AccessMode.Write;
  if (!grant.units) return new RepoPermission(ceiling, repo);
  const units = new Map<RepoUnit, AccessModeValue>();
  for (const unit of UNITS) units.set(unit, Math.min(ceiling, GRANTED[grant.units[unit] ?? "none"]) as AccessModeValue);
  return new RepoPermission(ceiling, repo, units);
}

/** The doer as a token with these scopes may act: flagged when the token is public-only. */
export function doerFor(user: UserRow, scope: ScopeSet | undefined): Doer {
  return scope?.publicOnly ? { ...user, publicOnly: true } : user;
}

export function isPublicOnly(doer: Doer | undefined): boolean {
  return doer?.publicOnly === true;
}

/** Whether the doer's token may reach the user or organization: any, unless public-only (public ones only). */
export function ownerInReach(doer: Doer | undefined, owner: UserRow): boolean {
  return !isPublicOnly(doer) || owner.visibility === Visibility.Public;
}

/**
 * Whether the doer's token may reach the repository. A public-only token reaches public
 * repositories of public owners only: the public repository of a limited or private organization
 * is no more public than its owner (Gitea 1.25 looked at the repository alone; later Gitea fixed it).
 */
export function repoInReach(doer: Doer | undefined, repo: Pick<RepoRow, "isPrivate">, owner: UserRow): boolean {
  return !isPublicOnly(doer) || (!repo.isPrivate && owner.visibility === Visibility.Public);
}

/**
 * Before creating or changing a repository so that it would be `repo` under `owner`: a public-only
 * token may not make one it could not reach afterwards (a private one, or one of a non-public owner).
 */
export function requireRepoStaysInReach(doer: Doer | undefined, repo: Pick<RepoRow, "isPrivate">, owner: UserRow): void {
  if (!repoInReach(doer, repo, owner)) throw new PublicOnlyRefused("repo");
}

/** The units a repository's permission is split into, as Gitea's unit types. */
export type RepoUnit = "code" | "issues" | "pulls" | "releases" | "wiki" | "packages" | "actions" | "projects";

export const UNIT_TYPE: Record<RepoUnit, UnitTypeValue> = {
  code: UnitType.Code,
  issues: UnitType.Issues,
  pulls: UnitType.PullRequests,
  releases: UnitType.Releases,
  wiki: UnitType.Wiki,
  packages: UnitType.Packages,
  actions: UnitType.Actions,
  projects: UnitType.Projects,
};

const UNIT_FLAG: Record<RepoUnit, keyof RepoAccessRow> = {
  code: "hasCode",
  issues: "hasIssues",
  pulls: "hasPullRequests",
  releases: "hasReleases",
  wiki: "hasWiki",
  packages: "hasPackages",
  actions: "hasActions",
  projects: "hasProjects",
};

const UNITS = Object.keys(UNIT_TYPE) as RepoUnit[];

/**
 * A doer's access to one repository: an overall mode, and for organization repositories reached
 * through teams a mode per unit (Gitea's Permission with its unitsMode). A unit that is switched off
 * on the repository is never readable, whatever the mode.
 */
export class RepoPermission {
  constructor(
    readonly mode: AccessModeValue,
    private readonly repo: RepoAccessRow,
    /** Per-unit modes; absent means every enabled unit has `mode`. */
    private readonly unitModes?: ReadonlyMap<RepoUnit, AccessModeValue>,
    /**
     * No access only because the doer's token is public-only: the account itself could see the
     * repository, so a lookup answers Gitea's 403 "token scope is limited to public repos", not 404.
     */
    readonly refusedByToken = false,
  ) {}

  unitEnabled(unit: RepoUnit): boolean {
    return Boolean(this.repo[UNIT_FLAG[unit]]);
  }

  unitMode(unit: RepoUnit): AccessModeValue {
    if (!this.unitEnabled(unit)) return AccessMode.None;
    if (!this.unitModes) return this.mode;
    return this.unitModes.get(unit) ?? AccessMode.None;
  }

  /** Whether the doer can see the repository at all (Gitea's HasAnyUnitAccess): read on it, or on some unit. */
  hasAccess(): boolean {
    if (this.mode >= AccessMode.Read) return true;
    return this.unitModes !== undefined && UNITS.some((u) => this.unitMode(u) >= AccessMode.Read);
  }

  canRead(unit: RepoUnit = "code"): boolean {
    return this.unitMode(unit) >= AccessMode.Read;
  }

  canWrite(unit: RepoUnit = "code"): boolean {
    return this.unitMode(unit) >= AccessMode.Write;
  }

  isAdmin(): boolean {
    return this.mode >= AccessMode.Admin;
  }

  isOwner(): boolean {
    return this.mode >= AccessMode.Owner;
  }

  /** The same permission on another row of the same repository (after an edit or transfer). */
  withRepo(repo: RepoRow): RepoPermission {
    return new RepoPermission(this.mode, repo, this.unitModes, this.refusedByToken);
  }

  /** The error for a lookup that found the repository but may not show it: 403 when only the token stands in the way, else 404. */
  refusal(): PublicOnlyRefused | NotFound {
    return this.refusedByToken ? new PublicOnlyRefused("repo") : new NotFound();
  }
}

/** What the permission function reads: the database, and whether the site requires signing in to view. */
export interface PermissionSource {
  db: Tx;
  settings: { service: { requireSigninView: boolean } };
  /** The account's memberships, when asked about many repositories at once (see `forManyRepos`). */
  facts?: AccessFacts;
}

/** The memberships the permission function asks about, for one account. */
interface AccessFacts {
  collaboration(repoId: number, uid: number): CollaborationRow | undefined;
  isOrgMember(orgId: number, uid: number): boolean;
  isOrgOwner(orgId: number, uid: number): boolean;
  teamsWithRepo(orgId: number, uid: number, repoId: number): TeamRow[];
  unitsOfTeams(teamIds: number[]): Map<number, TeamUnitRow[]>;
}

function queriedFacts(db: Tx): AccessFacts {
  return {
    collaboration: (repoId, uid) => getCollaboration(db, repoId, uid),
    isOrgMember: (orgId, uid) => isOrgMember(db, orgId, uid),
    isOrgOwner: (orgId, uid) => isOrgOwner(db, orgId, uid),
    teamsWithRepo: (orgId, uid, repoId) => userTeamsWithRepo(db, orgId, uid, repoId),
    unitsOfTeams: (teamIds) => unitsOfTeams(db, teamIds),
  };
}

const queried = new WeakMap<object, AccessFacts>();
function factsOf(src: PermissionSource): AccessFacts {
  if (src.facts) return src.facts;
  let facts = queried.get(src.db);
  if (!facts) queried.set(src.db, (facts = queriedFacts(src.db)));
  return facts;
}

/**
 * The same source, with the account's collaborations, organizations and teams read once: asking
 * about thousands of repositories (a search across the site) then costs no query per repository,
 * and every answer still comes from the one permission function below.
 */
export function forManyRepos(src: PermissionSource, doer: UserRow | undefined): PermissionSource {
  if (!doer || doer.isAdmin) return src;
  const collaborations = new Map(collaborationsOfUser(src.db, doer.id).map((c) => [c.repoId, c]));
  const memberOf = new Set(orgIdsOfMember(src.db, doer.id));
  const ownerOf = new Set(ownedOrgIds(src.db, doer.id));
  const teamsByRepo = new Map<number, TeamRow[]>();
  for (const { team, repoId } of teamReposOfUser(src.db, doer.id)) teamsByRepo.set(repoId, [...(teamsByRepo.get(repoId) ?? []), team]);
  const units = unitsOfTeams(src.db, [...new Set([...teamsByRepo.values()].flat().map((t) => t.id))]);
  const mine = (uid: number) => uid === doer.id;
  const queried = queriedFacts(src.db);
  return {
    ...src,
    facts: {
      collaboration: (repoId, uid) => (mine(uid) ? collaborations.get(repoId) : queried.collaboration(repoId, uid)),
      isOrgMember: (orgId, uid) => (mine(uid) ? memberOf.has(orgId) : queried.isOrgMember(orgId, uid)),
      isOrgOwner: (orgId, uid) => (mine(uid) ? ownerOf.has(orgId) : queried.isOrgOwner(orgId, uid)),
      teamsWithRepo: (orgId, uid, repoId) =>
        mine(uid) ? (teamsByRepo.get(repoId) ?? []).filter((t) => t.orgId === orgId) : queried.teamsWithRepo(orgId, uid, repoId),
      unitsOfTeams: (teamIds) => new Map(teamIds.map((id) => [id, units.get(id) ?? []])),
    },
  };
}

/**
 * Gitea's HasOrgOrUserVisible: whether `viewer` may see the user or organization `owner` at all.
 * Public owners are seen by everyone (signed in, when the site requires it); limited ones by any
 * signed-in account that is not restricted; private organizations (and limited ones, for a
 * restricted account) only by their members. A public-only token sees public owners only.
 */
export function canSeeOwner(src: PermissionSource, owner: UserRow, viewer: Doer | undefined): boolean {
  return ownerInReach(viewer, owner) && accountSeesOwner(src, owner, viewer);
}

/**
 * The owner as the doer may reach it, for a route that names it: a public-only token gets Gitea's
 * 403 for an account or organization the account itself could see, and 404 like anyone else for
 * one it could not (so the token does not learn names the account does not know).
 */
export function requireOwnerInReach(src: PermissionSource, owner: UserRow, doer: Doer | undefined): void {
  if (ownerInReach(doer, owner)) return;
  if (!accountSeesOwner(src, owner, doer)) throw new NotFound();
  throw new PublicOnlyRefused(owner.type === UserType.Organization ? "org" : "user");
}

/** HasOrgOrUserVisible for the account, whatever its token. */
function accountSeesOwner(src: PermissionSource, owner: UserRow, viewer: UserRow | undefined): boolean {
  if (!viewer) return owner.visibility === Visibility.Public;
  if (viewer.isAdmin || viewer.id === owner.id) return true;
  if (!src.settings.service.requireSigninView && owner.visibility === Visibility.Public) return true;
  if (owner.visibility === Visibility.Private || viewer.isRestricted) {
    return owner.type === UserType.Organization && factsOf(src).isOrgMember(owner.id, viewer.id);
  }
  return true;
}

/**
 * Gitea 1.25's GetUserRepoPermission. In order: an owner the doer may not see hides the repository
 * (unless the doer collaborates on it); anonymous callers read public repositories; site admins and
 * the owner have everything. Everyone else starts from read on a public repository (a restricted
 * account only on a fully public one: public owner, sign-in not required) raised by a collaboration.
 * In an organization, owners and members of an admin team that has the repository have everything;
 * other teams give per-unit modes, never below read on a public repository for a non-restricted
 * account.
 */
export function repoPermission(src: PermissionSource, doer: Doer | undefined, repo: RepoAccessRow, owner: UserRow): RepoPermission {
  if (doer?.actionsTask) {
    if (doer.actionsTask.repoId === repo.id) return taskPermission(doer.actionsTask, repo);
    return accountPermission(src, undefined, repo, owner);
  }
  const perm = accountPermission(src, doer, repo, owner);
  if (repoInReach(doer, repo, owner)) return perm;
  return new RepoPermission(AccessMode.None, repo, undefined, perm.hasAccess());
}

/** GetUserRepoPermission for the account, whatever its token. */
function accountPermission(src: PermissionSource, doer: UserRow | undefined, repo: RepoAccessRow, owner: UserRow): RepoPermission {
  const facts = factsOf(src);
  const none = new RepoPermission(AccessMode.None, repo);
  if (!doer) {
    if (repo.isPrivate || !accountSeesOwner(src, owner, undefined)) return none;
    return new RepoPermission(AccessMode.Read, repo);
  }
  if (doer.isAdmin || doer.id === repo.ownerId) return new RepoPermission(AccessMode.Owner, repo);

  const collaboration = facts.collaboration(repo.id, doer.id);
  if (!collaboration && !accountSeesOwner(src, owner, doer)) return none;
  const fullyPublic = !repo.isPrivate && owner.visibility === Visibility.Public && !src.settings.service.requireSigninView;
  const readsPublic = doer.isRestricted ? fullyPublic : !repo.isPrivate;
  let mode: number = Math.max(readsPublic ? AccessMode.Read : AccessMode.None, collaboration?.mode ?? AccessMode.None);
  if (owner.type !== UserType.Organization) return new RepoPermission(mode as AccessModeValue, repo);

  const minimum: number = !repo.isPrivate && !doer.isRestricted ? AccessMode.Read : AccessMode.None;
  mode = Math.max(mode, minimum);
  if (facts.isOrgOwner(owner.id, doer.id)) return new RepoPermission(AccessMode.Owner, repo);
  const teams = facts.teamsWithRepo(owner.id, doer.id, repo.id);
  if (teams.length === 0) return new RepoPermission(mode as AccessModeValue, repo);
  if (teams.some((t) => t.authorize >= AccessMode.Admin)) return new RepoPermission(AccessMode.Owner, repo);

  const unitRows = facts.unitsOfTeams(teams.map((t) => t.id));
  const units = new Map<RepoUnit, AccessModeValue>();
  for (const unit of UNITS) {
    // A collaborator keeps their mode on every unit; each team can only raise it.
    let unitMode: number = collaboration ? mode : AccessMode.None;
    for (const t of teams) {
      const row = unitRows.get(t.id)?.find((u) => u.type === UNIT_TYPE[unit]);
      unitMode = Math.max(unitMode, minimum, row?.accessMode ?? AccessMode.None);
    }
    units.set(unit, unitMode as AccessModeValue);
  }
  return new RepoPermission(mode as AccessModeValue, repo, units);
}

/** Gitea's reqRepoReader(code): the code unit readable, or a repository administrator (who passes even with it off). */
export function requireCodeReader(rc: { perm: RepoPermission }): void {
  if (!rc.perm.canRead("code") && !rc.perm.isAdmin()) throw new ReadRefused();
}
