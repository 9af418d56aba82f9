import type { Env } from "../env.ts";
import type { PackageType } from "../../config/packages.ts";
import { PackagePropertyRef, type PackageBlobRow, type PackageFileRow, type PackageRow, type PackageVersionRow, type UserRow } from "../../db/schema/index.ts";
import { writeTx } from "../../db/client.ts";
import * as pkgModel from "../../models/package.ts";
import { NotFound } from "../../lib/errors.ts";
import * as userModel from "../../models/user.ts";
import type { Doer } from "../access/permission.ts";
import { packageEvents, userOfDoer } from "../events/package-events.ts";
import { packageBlobStore } from "./store.ts";

export function findPackage(env: Env, owner: UserRow, type: PackageType, name: string): PackageRow {
  const pkg = pkgModel.getPackage(env.db, owner.id, type, name);
  if (!pkg || pkg.isInternal) throw new NotFound("package does not exist");
  return pkg;
}

export function findVersion(env: Env, pkg: PackageRow, version: string): PackageVersionRow {
  const v = pkgModel.getVersion(env.db, pkg.id, version);
  if (!v || v.isInternal) throw new NotFound("package version does not exist");
  return v;
}

export function listPackageVersions(env: Env, pkg: PackageRow, page?: { offset: number; limit: number }) {
  return pkgModel.listVersions(env.db, pkg.id, page);
}

export function versionFiles(env: Env, version: PackageVersionRow): { file: PackageFileRow; blob: PackageBlobRow }[] {
  return pkgModel.listFiles(env.db, version.id);
}

export function findFile(env: Env, version: PackageVersionRow, name: string, compositeKey = ""): { file: PackageFileRow; blob: PackageBlobRow } {
  const file = pkgModel.getFile(env.db, version.id, name, compositeKey);
  const blob = file && pkgModel.getBlobById(env.db, file.blobId);
  if (!file || !blob) throw new NotFound("package file does not exist");
  return { file, blob };
}

export function properties(env: Env, ref: keyof typeof PackagePropertyRef, id: number): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const p of pkgModel.listProperties(env.db, PackagePropertyRef[ref], id)) out.set(p.name, [...(out.get(p.name) ?? []), p.value]);
  return out;
}

/**
 * A file's bytes to serve: the blob's file (Bun serves ranges from it without reading the rest).
 * `count`: a download of the version, as Gitea counts one for a GET (never for a HEAD).
 */
export function openBlob(env: Env, blob: PackageBlobRow, count?: PackageVersionRow): ReturnType<typeof Bun.file> {
  const file = packageBlobStore(env).file(blob.hashSha256);
  if (!file) throw new NotFound("package file does not exist");
  if (count) writeTx(env.db, (tx) => pkgModel.countDownload(tx, count.id));
  return file;
}

/** Removes blob rows and bytes no file refers to any more. */
function dropOrphans(env: Env, orphans: PackageBlobRow[]): void {
  for (const b of orphans) packageBlobStore(env).remove(b.hashSha256);
}

/**
 * Gitea's RemovePackageVersion: the version, its files and properties; the package too once it
 * has none. With the `doer` who removed it, the removal is announced (Gitea's PackageDelete) in
 * the same transaction.
 */
export function deleteVersion(env: Env, version: PackageVersionRow, doer?: Doer): void {
  const orphans = writeTx(env.db, (tx) => {
    if (doer) {
      const pkg = pkgModel.getPackageById(tx, version.packageId);
      const owner = pkg && userModel.getUserById(tx, pkg.ownerId);
      if (pkg && owner && !version.isInternal) packageEvents.emit(tx, env, { kind: "deleted", pkg, version, owner, doer: userOfDoer(doer) });
    }
    const files = pkgModel.listFiles(tx, version.id);
    for (const { file } of files) pkgModel.deleteProperties(tx, PackagePropertyRef.File, file.id);
    pkgModel.deleteProperties(tx, PackagePropertyRef.Version, version.id);
    pkgModel.deleteVersionRow(tx, version.id);
    const gone = pkgModel.unreferencedBlobs(tx, files.map((f) => f.blob.id));
    for (const b of gone) pkgModel.deleteBlobRow(tx, b.id);
    if (pkgModel.listVersions(tx, version.packageId).total === 0) {
      pkgModel.deleteProperties(tx, PackagePropertyRef.Package, version.packageId);
      pkgModel.deletePackageRow(tx, version.packageId);
    }
    return gone;
  });
  dropOrphans(env, orphans);
}

/** Gitea's DeletePackageFile: one file; the version stays (a registry decides whether to remove it). */
export function deleteFile(env: Env, file: PackageFileRow): void {
  const orphans = writeTx(env.db, (tx) => {
    pkgModel.deleteProperties(tx, PackagePropertyRef.File, file.id);
    pkgModel.deleteFileRow(tx, file.id);
    const gone = pkgModel.unreferencedBlobs(tx, [file.blobId]);
    for (const b of gone) pkgModel.deleteBlobRow(tx, b.id);
    return gone;
  });
  dropOrphans(env, orphans);
}
