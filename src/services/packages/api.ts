import type { Env } from "../env.ts";
import { AccessMode, UserType, type AccessModeValue, type PackageBlobRow, type PackageFileRow, type PackageRow, type PackageVersionRow, type UserRow } from "../../db/schema/index.ts";
import { writeTx } from "../../db/client.ts";
import * as pkgModel from "../../models/package.ts";
import * as repoModel from "../../models/repo.ts";
import * as userModel from "../../models/user.ts";
import * as teamModel from "../../models/team.ts";
import { BadRequest, Forbidden, NotFound } from "../../lib/errors.ts";
import { repoPermission, type Doer } from "../access/permission.ts";
import { resolveRepoById, type RepoContext } from "../repo/lookup.ts";
import { ghostUser } from "../user/profile.ts";
import { deleteVersion, versionFiles } from "./lookup.ts";

/**
 * The package management API (Gitea's routers/api/v1/packages and services/packages' link and
 * unlink): an owner's package versions listed and searched, one version with its files, removal,
 * and the link of a package to a repository of its owner. The owner and the caller's package
 * access mode come from the operation's declaration (`package: "read" | "write"`, Gitea's
 * determineAccessMode); what depends on more than that (the repository's package unit, an
 * organization's admins) is checked here.
 */

/** The owner of the path and the access the declaration granted the caller to its packages. */
export interface PackageOwnerAccess {
  owner: UserRow;
  mode: AccessModeValue;
}

/** A linked repository as the viewer may see it, with what its JSON shows. */
export interface LinkedRepoView {
  rc: RepoContext;
  topics: string[];
  /** A fork's parent, when the viewer may see it (rendered with the fork's permission, as Gitea does). */
  parent?: { rc: RepoContext; topics: string[] };
}

/** One package version and everything its JSON (Gitea's PackageDescriptor) shows. */
export interface PackageView {
  pkg: PackageRow;
  version: PackageVersionRow;
  owner: UserRow;
  /** The version's creator; Gitea's ghost user once the account is gone. */
  creator: UserRow;
  /** The linked repository, when there is one and the viewer has any access to it (else null in the JSON). */
  repo?: LinkedRepoView;
}

export interface PackageFileView {
  file: PackageFileRow;
  blob: PackageBlobRow;
}

/** Gitea's ErrPackageNotExist as the API words it. */
const packageNotFound = () => new NotFound("package does not exist");
/** PackageAssignmentAPI's 404 for a path naming a version: the package or the version is missing. */
const versionNotFound = () => new NotFound("GetVersionByNameAndVersion: package does not exist");

function requireWrite(access: PackageOwnerAccess): void {
  // The declaration checked it already (`package: "write"`); a writer never runs without it.
  if (access.mode < AccessMode.Write) throw new Forbidden("reqPackageAccess");
}

/** The package of `{type}/{name}` of the owner; internal packages are not there. */
function packageByName(env: Env, owner: UserRow, type: string, name: string): PackageRow | undefined {
  const pkg = pkgModel.getPackage(env.db, owner.id, type, name);
  return pkg && !pkg.isInternal ? pkg : undefined;
}

function versionByName(env: Env, owner: UserRow, type: string, name: string, version: string): { pkg: PackageRow; version: PackageVersionRow } {
  const pkg = packageByName(env, owner, type, name);
  const v = pkg && pkgModel.getVersion(env.db, pkg.id, version);
  if (!pkg || !v || v.isInternal) throw versionNotFound();
  return { pkg, version: v };
}

/**
 * The views of versions of the owner's packages, in their order: creators and linked repositories
 * read by id lists, once for the page.
 */
function viewsOf(env: Env, viewer: Doer | undefined, owner: UserRow, rows: readonly { pkg: PackageRow; version: PackageVersionRow }[]): PackageView[] {
  const repoIds = [...new Set(rows.map((r) => r.pkg.repoId).filter((id) => id > 0))];
  const repos = new Map(repoModel.getReposByIds(env.db, repoIds).map((r) => [r.id, r]));
  const userIds = new Set(rows.map((r) => r.version.creatorId));
  for (const repo of repos.values()) userIds.add(repo.ownerId);
  const users = new Map(userModel.getUsersByIds(env.db, [...userIds].filter((id) => id > 0)).map((u) => [u.id, u]));
  users.set(owner.id, owner);
  const topics = repoModel.topicsOf(env.db, repoIds);
  const linked = new Map<number, LinkedRepoView | undefined>();
  const linkedView = (repoId: number): LinkedRepoView | undefined => {
    if (linked.has(repoId)) return linked.get(repoId);
    const repo = repos.get(repoId);
    const repoOwner = repo && users.get(repo.ownerId);
    let view: LinkedRepoView | undefined;
    if (repo && repoOwner) {
      const perm = repoPermission(env, viewer, repo, repoOwner);
      // Gitea's ToPackage shows the repository only to a viewer with some access to it.
      if (perm.hasAccess()) view = { rc: { repo, owner: repoOwner, perm }, topics: topics.get(repo.id) ?? [], parent: parentOf(env, viewer, repo.isFork ? repo.forkId : 0) };
    }
    linked.set(repoId, view);
    return view;
  };
  return rows.map(({ pkg, version }) => ({
    pkg,
    version,
    owner,
    creator: users.get(version.creatorId) ?? ghostUser(),
    repo: pkg.repoId > 0 ? linkedView(pkg.repoId) : undefined,
  }));
}

function parentOf(env: Env, viewer: Doer | undefined, forkId: number): LinkedRepoView["parent"] {
  if (!forkId) return undefined;
  try {
    const rc = resolveRepoById(env, viewer, forkId);
    return { rc, topics: repoModel.listTopics(env.db, rc.repo.id) };
  } catch {
    return undefined;
  }
}

/**
 * A version as a webhook payload shows it to `viewer`: from the rows an event carried (a removed
 * version is gone from the database), with the package's current link when it still exists.
 */
export function eventPackageView(env: Env, viewer: Doer | undefined, owner: UserRow, pkg: PackageRow, version: PackageVersionRow): PackageView {
  const current = pkgModel.getPackageById(env.db, pkg.id);
  return viewsOf(env, viewer, owner, [{ pkg: current ?? pkg, version }])[0]!;
}

export interface PackageSearch {
  /** Gitea's `type` filter: one package type; empty or absent for all. */
  type?: string;
  /** Gitea's `q`: part of the package name. */
  query?: string;
}

/** GET /packages/{owner}: the owner's package versions, newest first, one page, and how many there are. */
export function listOwnerPackages(
  env: Env,
  viewer: Doer | undefined,
  owner: UserRow,
  search: PackageSearch,
  page: { offset: number; limit: number },
): { items: PackageView[]; total: number } {
  const type = search.type?.trim() || undefined;
  const query = search.query?.trim() || undefined;
  const { rows, total } = pkgModel.searchVersions(env.db, { ownerId: owner.id, type, query, offset: page.offset, limit: page.limit });
  return { items: viewsOf(env, viewer, owner, rows), total };
}

/** GET /packages/{owner}/{type}/{name}: the package's versions, newest first (404 for no such package). */
export function listVersionsOfPackage(
  env: Env,
  viewer: Doer | undefined,
  owner: UserRow,
  type: string,
  name: string,
  page: { offset: number; limit: number },
): { items: PackageView[]; total: number } {
  const pkg = packageByName(env, owner, type, name);
  if (!pkg) throw packageNotFound();
  const { rows, total } = pkgModel.listVersions(env.db, pkg.id, page);
  return { items: viewsOf(env, viewer, owner, rows.map((version) => ({ pkg, version }))), total };
}

/** GET /packages/{owner}/{type}/{name}/-/latest: the newest version (Gitea's SearchLatestVersions). */
export function latestVersionOfPackage(env: Env, viewer: Doer | undefined, owner: UserRow, type: string, name: string): PackageView {
  const pkg = packageByName(env, owner, type, name);
  const version = pkg && pkgModel.listVersions(env.db, pkg.id, { offset: 0, limit: 1 }).rows[0];
  if (!pkg || !version) throw packageNotFound();
  return viewsOf(env, viewer, owner, [{ pkg, version }])[0]!;
}

/** GET /packages/{owner}/{type}/{name}/{version}. */
export function packageVersionView(env: Env, viewer: Doer | undefined, owner: UserRow, type: string, name: string, version: string): PackageView {
  return viewsOf(env, viewer, owner, [versionByName(env, owner, type, name, version)])[0]!;
}

/** GET /packages/{owner}/{type}/{name}/{version}/files: the version's files with their blobs, in upload order. */
export function packageVersionFiles(env: Env, owner: UserRow, type: string, name: string, version: string): PackageFileView[] {
  return versionFiles(env, versionByName(env, owner, type, name, version).version);
}

/** DELETE /packages/{owner}/{type}/{name}/{version}: Gitea's RemovePackageVersion, announced as the doer's. */
export function removePackageVersion(env: Env, access: PackageOwnerAccess, doer: Doer, type: string, name: string, version: string): void {
  requireWrite(access);
  deleteVersion(env, versionByName(env, access.owner, type, name, version).version, doer);
}

/**
 * POST /packages/{owner}/{type}/{name}/-/link/{repo_name}: Gitea's LinkToRepository. The
 * repository is one of the package's owner (404 otherwise: it is looked up under the owner); a
 * package already linked is refused (400, unlink it first); the doer must be able to write the
 * repository's packages (403).
 */
export function linkPackage(env: Env, access: PackageOwnerAccess, doer: Doer, type: string, name: string, repoName: string): void {
  requireWrite(access);
  const { owner } = access;
  const pkg = packageByName(env, owner, type, name);
  if (!pkg) throw packageNotFound();
  const repo = repoModel.getRepoByOwner(env.db, owner.id, repoName);
  if (!repo) throw new NotFound(`repository does not exist [id: 0, uid: ${owner.id}, owner_name: , name: ${repoName}]`);
  if (pkg.ownerId !== repo.ownerId) throw new Forbidden("permission denied");
  if (pkg.repoId > 0) throw new BadRequest("invalid argument");
  if (!repoPermission(env, doer, repo, owner).canWrite("packages")) throw new Forbidden("permission denied");
  writeTx(env.db, (tx) => pkgModel.setPackageRepo(tx, pkg.id, repo.id));
}

/**
 * POST /packages/{owner}/{type}/{name}/-/unlink: Gitea's UnlinkFromRepository. A package with no
 * link is refused (400); the doer must be able to write the linked repository's packages (when it
 * still exists), and be the owner itself, an admin of the owning organization, or a site admin
 * (Gitea answers that last refusal with a 500; hearth with a 403 of the same words).
 */
export function unlinkPackage(env: Env, access: PackageOwnerAccess, doer: Doer, type: string, name: string): void {
  requireWrite(access);
  const { owner } = access;
  const pkg = packageByName(env, owner, type, name);
  if (!pkg) throw packageNotFound();
  if (pkg.repoId === 0) throw new BadRequest("invalid argument");
  const repo = repoModel.getRepoById(env.db, pkg.repoId);
  const repoOwner = repo && userModel.getUserById(env.db, repo.ownerId);
  if (repo && repoOwner && !repoPermission(env, doer, repo, repoOwner).canWrite("packages")) throw new Forbidden("permission denied");
  if (!doer.isAdmin) {
    const allowed = owner.type === UserType.Organization ? isOrgAdmin(env, owner, doer) : doer.id === owner.id;
    if (!allowed) throw new Forbidden(`no permission to unlink package '${pkg.name}' from its repository, or packages are disabled`);
  }
  writeTx(env.db, (tx) => pkgModel.setPackageRepo(tx, pkg.id, 0));
}

/** Gitea's Organization.IsOrgAdmin: in a team with admin access or more (the Owners team included). */
function isOrgAdmin(env: Env, org: UserRow, doer: Doer): boolean {
  const teams = teamModel.listUserTeams(env.db, doer.id, { orgId: org.id, offset: 0, limit: 1000 }).rows;
  return teams.some((t) => t.authorize >= AccessMode.Admin);
}
