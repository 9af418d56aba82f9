import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { filesWhere } from "./package.ts";
import {
  packageBlobs,
  packageBlobUploads,
  packageFiles,
  packageProperties,
  packages,
  packageVersions,
  PackagePropertyRef,
  users,
  type PackageBlobRow,
  type PackageFileRow,
  type PackageRow,
  type PackageVersionRow,
  type UserRow,
} from "../db/schema/index.ts";

/**
 * The container registry's queries (Gitea's models/packages/container): an image is a package of
 * type `container`, its blobs are files named `sha256_{hex}` of its versions (the internal
 * `_upload` version holds blobs no manifest names yet), a manifest is the `manifest.json` file of
 * a version named by its tag or, untagged, by its digest.
 */

export const CONTAINER = "container";
export const MANIFEST_FILE = "manifest.json";

export interface ImageFile {
  file: PackageFileRow;
  blob: PackageBlobRow;
  version: PackageVersionRow;
}

/** The files of the owner's image holding the bytes of `sha256` (only manifests when `manifest`). */
export function imageFilesBySha(tx: Tx, ownerId: number, image: string, sha256: string, manifest = false): ImageFile[] {
  const conds = [
    eq(packages.ownerId, ownerId),
    eq(packages.type, CONTAINER),
    eq(packages.lowerName, image.toLowerCase()),
    eq(packageBlobs.hashSha256, sha256),
  ];
  if (manifest) conds.push(eq(packageFiles.lowerName, MANIFEST_FILE));
  return filesWhere(tx, conds);
}

/** The tags of an image (versions marked tagged), in name order after `last`, at most `limit` (-1: all). */
export function imageTags(tx: Tx, packageId: number, last: string, limit: number): string[] {
  const conds = [eq(packageVersions.packageId, packageId), eq(packageVersions.isInternal, false)];
  if (last) conds.push(gt(packageVersions.lowerVersion, last.toLowerCase()));
  const q = tx
    .selectDistinct({ v: packageVersions.version })
    .from(packageVersions)
    .innerJoin(
      packageProperties,
      and(
        eq(packageProperties.refType, PackagePropertyRef.Version),
        eq(packageProperties.refId, packageVersions.id),
        eq(packageProperties.name, "container.manifest.tagged"),
      ),
    )
    .where(and(...conds))
    .orderBy(asc(packageVersions.version));
  return (limit >= 0 ? q.limit(limit).all() : q.all()).map((r) => r.v);
}

/** Container images of any owner as `owner/image`, in that order after `last`, `limit` at a time. */
export function containerRepositories(tx: Tx, last: string, limit: number): { name: string; owner: UserRow; pkg: PackageRow }[] {
  const full = sql<string>`${users.lowerName} || '/' || ${packages.lowerName}`;
  return tx
    .select({ name: full, owner: users, pkg: packages })
    .from(packages)
    .innerJoin(users, eq(users.id, packages.ownerId))
    .where(and(eq(packages.type, CONTAINER), eq(packages.isInternal, false), gt(full, last)))
    .orderBy(asc(full))
    .limit(limit)
    .all();
}

export function insertBlobUpload(tx: Tx, id: string, now: number): void {
  tx.insert(packageBlobUploads).values({ id, bytesReceived: 0, createdUnix: now, updatedUnix: now }).run();
}

export function getBlobUpload(tx: Tx, id: string): typeof packageBlobUploads.$inferSelect | undefined {
  return tx.select().from(packageBlobUploads).where(eq(packageBlobUploads.id, id)).get();
}

export function setBlobUploadBytes(tx: Tx, id: string, bytesReceived: number, now: number): void {
  tx.update(packageBlobUploads).set({ bytesReceived, updatedUnix: now }).where(eq(packageBlobUploads.id, id)).run();
}

export function deleteBlobUpload(tx: Tx, id: string): void {
  tx.delete(packageBlobUploads).where(eq(packageBlobUploads.id, id)).run();
}
