import { and, asc, count, desc, eq, like, sql, sum, type SQL } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import {
  packageBlobs,
  packageFiles,
  packageProperties,
  packages,
  packageVersions,
  PackagePropertyRef,
  type PackageBlobRow,
  type PackageFileRow,
  type PackagePropertyRow,
  type PackageRow,
  type PackageVersionRow,
} from "../db/schema/index.ts";

export function getPackage(tx: Tx, ownerId: number, type: string, name: string): PackageRow | undefined {
  return tx
    .select()
    .from(packages)
    .where(and(eq(packages.ownerId, ownerId), eq(packages.type, type), eq(packages.lowerName, name.toLowerCase())))
    .get();
}

export function getPackageById(tx: Tx, id: number): PackageRow | undefined {
  return tx.select().from(packages).where(eq(packages.id, id)).get();
}

export function insertPackage(tx: Tx, row: Omit<PackageRow, "id">): PackageRow {
  return tx.insert(packages).values(row).returning().get();
}

export function setPackageRepo(tx: Tx, id: number, repoId: number): void {
  tx.update(packages).set({ repoId }).where(eq(packages.id, id)).run();
}

export function unlinkRepoPackages(tx: Tx, repoId: number): void {
  tx.update(packages).set({ repoId: 0 }).where(eq(packages.repoId, repoId)).run();
}

export function deletePackageRow(tx: Tx, id: number): void {
  tx.delete(packages).where(eq(packages.id, id)).run();
}

export function getVersion(tx: Tx, packageId: number, version: string): PackageVersionRow | undefined {
  return tx
    .select()
    .from(packageVersions)
    .where(and(eq(packageVersions.packageId, packageId), eq(packageVersions.lowerVersion, version.toLowerCase())))
    .get();
}

export function getVersionById(tx: Tx, id: number): PackageVersionRow | undefined {
  return tx.select().from(packageVersions).where(eq(packageVersions.id, id)).get();
}

export function insertVersion(tx: Tx, row: Omit<PackageVersionRow, "id" | "downloadCount">): PackageVersionRow {
  return tx.insert(packageVersions).values(row).returning().get();
}

export function setVersionMetadata(tx: Tx, id: number, metadataJson: string): void {
  tx.update(packageVersions).set({ metadataJson }).where(eq(packageVersions.id, id)).run();
}

export function countDownload(tx: Tx, versionId: number): void {
  tx.update(packageVersions)
    .set({ downloadCount: sql`${packageVersions.downloadCount} + 1` })
    .where(eq(packageVersions.id, versionId))
    .run();
}

/** A package's versions, newest first (public ones only unless `internal`). */
export function listVersions(tx: Tx, packageId: number, page?: { offset: number; limit: number }): { rows: PackageVersionRow[]; total: number } {
  const where = and(eq(packageVersions.packageId, packageId), eq(packageVersions.isInternal, false));
  const q = tx.select().from(packageVersions).where(where).orderBy(desc(packageVersions.createdUnix), desc(packageVersions.id));
  const rows = page ? q.limit(page.limit).offset(page.offset).all() : q.all();
  const total = tx.select({ n: count() }).from(packageVersions).where(where).get()!.n;
  return { rows, total };
}

export function deleteVersionRow(tx: Tx, id: number): void {
  tx.delete(packageVersions).where(eq(packageVersions.id, id)).run();
}

export interface VersionSearch {
  ownerId: number;
  type?: string;
  /** Part of the package name. */
  query?: string;
  offset: number;
  limit: number;
}

/** Gitea's SearchLatestVersions/SearchVersions for the API's list: an owner's versions, newest first. */
export function searchVersions(tx: Tx, f: VersionSearch): { rows: { version: PackageVersionRow; pkg: PackageRow }[]; total: number } {
  const conds = [eq(packages.ownerId, f.ownerId), eq(packages.isInternal, false), eq(packageVersions.isInternal, false)];
  if (f.type) conds.push(eq(packages.type, f.type));
  if (f.query) conds.push(like(packages.lowerName, `%${f.query.toLowerCase().replace(/[%_\\]/g, (c) => `\\${c}`)}%`));
  const where = and(...conds);
  const rows = tx
    .select({ version: packageVersions, pkg: packages })
    .from(packageVersions)
    .innerJoin(packages, eq(packages.id, packageVersions.packageId))
    .where(where)
    .orderBy(desc(packageVersions.createdUnix), desc(packageVersions.id))
    .limit(f.limit)
    .offset(f.offset)
    .all();
  const total = tx
    .select({ n: count() })
    .from(packageVersions)
    .innerJoin(packages, eq(packages.id, packageVersions.packageId))
    .where(where)
    .get()!.n;
  return { rows, total };
}

/** The package versions an owner has, and the bytes of all their files (for the owner limits). */
export function ownerUsage(tx: Tx, ownerId: number): { versions: number; bytes: number } {
  const versions = tx
    .select({ n: count() })
    .from(packageVersions)
    .innerJoin(packages, eq(packages.id, packageVersions.packageId))
    .where(eq(packages.ownerId, ownerId))
    .get()!.n;
  const bytes = tx
    .select({ n: sum(packageBlobs.size) })
    .from(packageFiles)
    .innerJoin(packageBlobs, eq(packageBlobs.id, packageFiles.blobId))
    .innerJoin(packageVersions, eq(packageVersions.id, packageFiles.versionId))
    .innerJoin(packages, eq(packages.id, packageVersions.packageId))
    .where(eq(packages.ownerId, ownerId))
    .get()!.n;
  return { versions, bytes: Number(bytes ?? 0) };
}

export function getBlobBySha256(tx: Tx, sha256: string): PackageBlobRow | undefined {
  return tx.select().from(packageBlobs).where(eq(packageBlobs.hashSha256, sha256)).get();
}

export function getBlobById(tx: Tx, id: number): PackageBlobRow | undefined {
  return tx.select().from(packageBlobs).where(eq(packageBlobs.id, id)).get();
}

export function insertBlob(tx: Tx, row: Omit<PackageBlobRow, "id">): PackageBlobRow {
  return tx.insert(packageBlobs).values(row).returning().get();
}

/** Blobs no file refers to any more (after a delete), to remove with their bytes. */
export function unreferencedBlobs(tx: Tx, blobIds: number[]): PackageBlobRow[] {
  if (!blobIds.length) return [];
  return tx
    .select()
    .from(packageBlobs)
    .where(
      and(
        sql`${packageBlobs.id} IN (SELECT value FROM json_each(${JSON.stringify(blobIds)}))`,
        sql`NOT EXISTS (SELECT 1 FROM ${packageFiles} WHERE ${packageFiles.blobId} = ${packageBlobs.id})`,
      ),
    )
    .all();
}

export function deleteBlobRow(tx: Tx, id: number): void {
  tx.delete(packageBlobs).where(eq(packageBlobs.id, id)).run();
}

export function getFile(tx: Tx, versionId: number, name: string, compositeKey = ""): PackageFileRow | undefined {
  return tx
    .select()
    .from(packageFiles)
    .where(and(eq(packageFiles.versionId, versionId), eq(packageFiles.lowerName, name.toLowerCase()), eq(packageFiles.compositeKey, compositeKey)))
    .get();
}

export function getFileById(tx: Tx, id: number): PackageFileRow | undefined {
  return tx.select().from(packageFiles).where(eq(packageFiles.id, id)).get();
}

export function insertFile(tx: Tx, row: Omit<PackageFileRow, "id">): PackageFileRow {
  return tx.insert(packageFiles).values(row).returning().get();
}

export function listFiles(tx: Tx, versionId: number): { file: PackageFileRow; blob: PackageBlobRow }[] {
  return tx
    .select({ file: packageFiles, blob: packageBlobs })
    .from(packageFiles)
    .innerJoin(packageBlobs, eq(packageBlobs.id, packageFiles.blobId))
    .where(eq(packageFiles.versionId, versionId))
    .orderBy(asc(packageFiles.id))
    .all();
}

export function deleteFileRow(tx: Tx, id: number): void {
  tx.delete(packageFiles).where(eq(packageFiles.id, id)).run();
}

export function insertProperty(tx: Tx, row: Omit<PackagePropertyRow, "id">): void {
  tx.insert(packageProperties).values(row).run();
}

export function listProperties(tx: Tx, refType: number, refId: number): PackagePropertyRow[] {
  return tx
    .select()
    .from(packageProperties)
    .where(and(eq(packageProperties.refType, refType), eq(packageProperties.refId, refId)))
    .orderBy(asc(packageProperties.id))
    .all();
}

export function deleteProperties(tx: Tx, refType: number, refId: number, name?: string): void {
  const conds = [eq(packageProperties.refType, refType), eq(packageProperties.refId, refId)];
  if (name !== undefined) conds.push(eq(packageProperties.name, name));
  tx.delete(packageProperties).where(and(...conds)).run();
}

/** The properties of `refType` hanging off any of `refIds`, in insertion order (one query for a list). */
export function listPropertiesOf(tx: Tx, refType: number, refIds: number[]): PackagePropertyRow[] {
  if (!refIds.length) return [];
  return tx
    .select()
    .from(packageProperties)
    .where(and(eq(packageProperties.refType, refType), sql`${packageProperties.refId} IN (SELECT value FROM json_each(${JSON.stringify(refIds)}))`))
    .orderBy(asc(packageProperties.id))
    .all();
}

/** The files (with their blobs) of any of `versionIds`, in creation order (one query for a list). */
export function listFilesOf(tx: Tx, versionIds: number[]): { file: PackageFileRow; blob: PackageBlobRow }[] {
  if (!versionIds.length) return [];
  return tx
    .select({ file: packageFiles, blob: packageBlobs })
    .from(packageFiles)
    .innerJoin(packageBlobs, eq(packageBlobs.id, packageFiles.blobId))
    .where(sql`${packageFiles.versionId} IN (SELECT value FROM json_each(${JSON.stringify(versionIds)}))`)
    .orderBy(asc(packageFiles.id))
    .all();
}

/** The public versions of a package carrying the property `name` = `value` (an npm dist-tag's version). */
export function versionsWithProperty(tx: Tx, packageId: number, name: string, value: string): PackageVersionRow[] {
  return tx
    .select({ version: packageVersions })
    .from(packageVersions)
    .innerJoin(
      packageProperties,
      and(eq(packageProperties.refType, PackagePropertyRef.Version), eq(packageProperties.refId, packageVersions.id)),
    )
    .where(and(eq(packageVersions.packageId, packageId), eq(packageVersions.isInternal, false), eq(packageProperties.name, name), eq(packageProperties.value, value)))
    .orderBy(asc(packageVersions.id))
    .all()
    .map((r) => r.version);
}

/** Removes the properties `name` = `value` of one row. */
export function deletePropertyValue(tx: Tx, refType: number, refId: number, name: string, value: string): void {
  tx.delete(packageProperties)
    .where(and(eq(packageProperties.refType, refType), eq(packageProperties.refId, refId), eq(packageProperties.name, name), eq(packageProperties.value, value)))
    .run();
}

/**
 * Gitea's SearchLatestVersions: the newest version (highest id) of each public package of an
 * owner and type whose name contains `query`, newest first, with the number of such packages.
 */
export function searchLatestVersions(
  tx: Tx,
  f: { ownerId: number; type: string; query?: string; offset: number; limit: number },
): { rows: { version: PackageVersionRow; pkg: PackageRow }[]; total: number } {
  const conds = [eq(packages.ownerId, f.ownerId), eq(packages.type, f.type), eq(packages.isInternal, false), eq(packageVersions.isInternal, false)];
  if (f.query) conds.push(sql`${packages.lowerName} LIKE ${`%${f.query.toLowerCase().replace(/[%_\\]/g, (c) => `\\${c}`)}%`} ESCAPE '\\'`);
  const latest = tx
    .select({ id: sql<number>`MAX(${packageVersions.id})`.as("latest_id") })
    .from(packageVersions)
    .innerJoin(packages, eq(packages.id, packageVersions.packageId))
    .where(and(...conds))
    .groupBy(packageVersions.packageId);
  const rows = tx
    .select({ version: packageVersions, pkg: packages })
    .from(packageVersions)
    .innerJoin(packages, eq(packages.id, packageVersions.packageId))
    .where(sql`${packageVersions.id} IN (SELECT latest_id FROM ${latest.as("latest")})`)
    .orderBy(desc(packageVersions.createdUnix), desc(packageVersions.id))
    .limit(f.limit)
    .offset(f.offset)
    .all();
  const total = tx.select({ n: count() }).from(latest.as("latest")).get()!.n;
  return { rows, total };
}

/** Every package of one type of an owner, by name (Gitea's GetPackagesByType). */
export function listPackagesOfType(tx: Tx, ownerId: number, type: string): PackageRow[] {
  return tx
    .select()
    .from(packages)
    .where(and(eq(packages.ownerId, ownerId), eq(packages.type, type)))
    .orderBy(asc(packages.lowerName))
    .all();
}

/**
 * Gitea's conda SearchFiles: the files (with their blobs) of an owner's conda packages in the
 * channel (the package property `conda.channel`) and subdir (the file property `conda.subdir`),
 * of public versions, `filename` (any case) if given; in creation order.
 */
export function searchCondaFiles(
  tx: Tx,
  f: { ownerId: number; channel: string; subdir: string; filename?: string },
): { file: PackageFileRow; blob: PackageBlobRow; version: PackageVersionRow }[] {
  const conds = [
    eq(packages.type, "conda"),
    eq(packages.ownerId, f.ownerId),
    eq(packageVersions.isInternal, false),
    sql`${packages.id} IN (SELECT ref_id FROM package_property WHERE ref_type = ${PackagePropertyRef.Package} AND name = 'conda.channel' AND value = ${f.channel})`,
    sql`${packageFiles.id} IN (SELECT ref_id FROM package_property WHERE ref_type = ${PackagePropertyRef.File} AND name = 'conda.subdir' AND value = ${f.subdir})`,
  ];
  if (f.filename !== undefined && f.filename !== "") conds.push(eq(packageFiles.lowerName, f.filename.toLowerCase()));
  return filesWhere(tx, conds);
}

/**
 * Package files with their blobs and versions, where `conds` (over package, version, file and blob)
 * hold, in creation order: the shape of Gitea's file searches.
 */
export function filesWhere(tx: Tx, conds: SQL[]): { file: PackageFileRow; blob: PackageBlobRow; version: PackageVersionRow }[] {
  return tx
    .select({ file: packageFiles, blob: packageBlobs, version: packageVersions })
    .from(packageFiles)
    .innerJoin(packageBlobs, eq(packageBlobs.id, packageFiles.blobId))
    .innerJoin(packageVersions, eq(packageVersions.id, packageFiles.versionId))
    .innerJoin(packages, eq(packages.id, packageVersions.packageId))
    .where(and(...conds))
    .orderBy(asc(packageFiles.id))
    .all();
}
