import type { Env } from "../../env.ts";
import { PackagePropertyRef, Visibility, type PackageBlobRow, type PackageFileRow, type PackageRow, type PackageVersionRow, type UserRow } from "../../../db/schema/index.ts";
import { writeTx } from "../../../db/client.ts";
import * as pkgModel from "../../../models/package.ts";
import { NotFound } from "../../../lib/errors.ts";
import { CARGO_YANKED, cargoIndexLine, type CargoMetadata } from "../../../lib/cargo.ts";

// Gitea's services/packages/cargo (index.go) and the reads of routers/api/packages/cargo: the
// registry's config.json, a crate's index file built from its versions, search, owners, the
// .crate of a version, and yanking.

/** Gitea's BuildConfig: where cargo downloads and publishes, and whether it must send credentials. */
export function cargoConfig(env: Env, owner: UserRow, authRequired: boolean): { dl: string; api: string; "auth-required": boolean } {
  const base = `${env.settings.server.rootUrl}api/packages/${owner.name}/cargo`;
  return { dl: `${base}/api/v1/crates`, api: base, "auth-required": authRequired };
}

/** The config.json the sparse index serves: credentials are required for an owner not public to all. */
export function sparseConfig(env: Env, owner: UserRow) {
  return cargoConfig(env, owner, env.settings.service.requireSigninView || owner.visibility !== Visibility.Public);
}

export const crateFileName = (name: string, version: string) => `${name}-${version}.crate`.toLowerCase();

function metadataOf(v: PackageVersionRow): CargoMetadata {
  if (!v.metadataJson) return {};
  try {
    return JSON.parse(v.metadataJson) as CargoMetadata;
  } catch {
    return {};
  }
}

/**
 * Gitea's BuildPackageIndex: one JSON line per public version, oldest first, with the .crate's
 * sha256 and the yanked flag; undefined for a package without versions.
 */
export function buildCrateIndex(env: Env, pkg: PackageRow): string | undefined {
  const versions = pkgModel.listVersions(env.db, pkg.id).rows.slice().reverse();
  if (versions.length === 0) return undefined;
  const ids = versions.map((v) => v.id);
  const files = new Map<number, PackageBlobRow>();
  for (const { file, blob } of pkgModel.listFilesOf(env.db, ids)) if (!files.has(file.versionId)) files.set(file.versionId, blob);
  const yanked = new Map<number, boolean>();
  for (const p of pkgModel.listPropertiesOf(env.db, PackagePropertyRef.Version, ids)) if (p.name === CARGO_YANKED) yanked.set(p.refId, p.value === "true");
  let out = "";
  for (const v of versions) {
    const blob = files.get(v.id);
    if (!blob) continue;
    out += `${cargoIndexLine({ name: pkg.name, version: v.version, metadata: metadataOf(v), sha256: blob.hashSha256, yanked: yanked.get(v.id) ?? false })}\n`;
  }
  return out || undefined;
}

/** The cargo packages of an owner (public ones), for a rebuild of the git index. */
export function cratesOf(env: Env, owner: UserRow): PackageRow[] {
  return pkgModel.listPackagesOfType(env.db, owner.id, "cargo").filter((p) => !p.isInternal);
}

/** GET index file: the lines of crate `name`, 404 for an unknown crate or one without versions. */
export function crateIndexFile(env: Env, owner: UserRow, name: string): string {
  const pkg = pkgModel.getPackage(env.db, owner.id, "cargo", name);
  const text = pkg && !pkg.isInternal ? buildCrateIndex(env, pkg) : undefined;
  if (!pkg || pkg.isInternal) throw new NotFound("package does not exist");
  if (!text) throw new NotFound("");
  return text;
}

export interface CrateSearchResult {
  crates: { name: string; max_version: string; description: string }[];
  meta: { total: number };
}

/** Gitea's SearchPackages: the newest version of each matching crate, newest first, one page. */
export function searchCrates(env: Env, owner: UserRow, q: { query: string; page: number; perPage: number }): CrateSearchResult {
  const page = Math.max(q.page, 1);
  const api = env.settings.api;
  const limit = q.perPage <= 0 ? api.defaultPagingNum : Math.min(q.perPage, api.maxResponseItems);
  const { rows, total } = pkgModel.searchLatestVersions(env.db, { ownerId: owner.id, type: "cargo", query: q.query || undefined, offset: (page - 1) * limit, limit });
  return {
    crates: rows.map(({ pkg, version }) => ({ name: pkg.name, max_version: version.version, description: metadataOf(version).description ?? "" })),
    meta: { total },
  };
}

/** Gitea's ListOwners: the owner of the registry, whatever the crate. */
export function crateOwners(owner: UserRow): { users: { id: number; login: string; name: string }[] } {
  return { users: [{ id: owner.id, login: owner.name, name: owner.fullName || owner.name }] };
}

function versionOf(env: Env, owner: UserRow, name: string, version: string): { pkg: PackageRow; version: PackageVersionRow } {
  const pkg = pkgModel.getPackage(env.db, owner.id, "cargo", name);
  const v = pkg && !pkg.isInternal ? pkgModel.getVersion(env.db, pkg.id, version) : undefined;
  if (!pkg || !v || v.isInternal) throw new NotFound("package does not exist");
  return { pkg, version: v };
}

/** The .crate of a version (Gitea's file name `{name}-{version}.crate`, lower case). */
export function findCrateFile(env: Env, owner: UserRow, name: string, version: string): { version: PackageVersionRow; file: PackageFileRow; blob: PackageBlobRow } {
  const found = versionOf(env, owner, name, version);
  const file = pkgModel.getFile(env.db, found.version.id, crateFileName(name, version));
  const blob = file && pkgModel.getBlobById(env.db, file.blobId);
  if (!file || !blob) throw new NotFound("package file does not exist");
  return { version: found.version, file, blob };
}

/** Gitea's yankPackage: sets the version's yanked property; returns the package for the git index. */
export function setCrateYanked(env: Env, owner: UserRow, name: string, version: string, yanked: boolean): PackageRow {
  const found = versionOf(env, owner, name, version);
  writeTx(env.db, (tx) => {
    pkgModel.deleteProperties(tx, PackagePropertyRef.Version, found.version.id, CARGO_YANKED);
    pkgModel.insertProperty(tx, { refType: PackagePropertyRef.Version, refId: found.version.id, name: CARGO_YANKED, value: String(yanked) });
  });
  return found.pkg;
}
