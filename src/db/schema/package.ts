import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./user.ts";

/**
 * Packages as Gitea models them: a package (owner, type, name) has versions, a version has files,
 * a file's bytes are a blob stored once by its sha256 and shared by every file with the same
 * content; properties hang off any of the three (Gitea's package_property, `refType`).
 */
export const packages = sqliteTable(
  "package",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The repository of the owner the package is linked to, 0 for none. */
    repoId: integer("repo_id").notNull().default(0),
    type: text("type").notNull(),
    name: text("name").notNull(),
    lowerName: text("lower_name").notNull(),
    semverCompatible: integer("semver_compatible", { mode: "boolean" }).notNull().default(false),
    /** Gitea's internal packages (the container registry's untagged manifests' parents): never listed. */
    isInternal: integer("is_internal", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [uniqueIndex("package_owner_type_name_uq").on(t.ownerId, t.type, t.lowerName), index("package_repo_idx").on(t.repoId)],
);

export const packageVersions = sqliteTable(
  "package_version",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    packageId: integer("package_id")
      .notNull()
      .references(() => packages.id, { onDelete: "cascade" }),
    creatorId: integer("creator_id").notNull().default(0),
    version: text("version").notNull(),
    lowerVersion: text("lower_version").notNull(),
    createdUnix: integer("created_unix").notNull(),
    isInternal: integer("is_internal", { mode: "boolean" }).notNull().default(false),
    /** The type's metadata (a pom's, a crate's, a package.json's...), JSON. */
    metadataJson: text("metadata_json").notNull().default(""),
    downloadCount: integer("download_count").notNull().default(0),
  },
  (t) => [
    uniqueIndex("package_version_pkg_version_uq").on(t.packageId, t.lowerVersion),
    index("package_version_pkg_created_idx").on(t.packageId, t.createdUnix),
  ],
);

export const packageBlobs = sqliteTable(
  "package_blob",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    size: integer("size").notNull(),
    hashMd5: text("hash_md5").notNull(),
    hashSha1: text("hash_sha1").notNull(),
    hashSha256: text("hash_sha256").notNull(),
    hashSha512: text("hash_sha512").notNull(),
    createdUnix: integer("created_unix").notNull(),
  },
  (t) => [uniqueIndex("package_blob_sha256_uq").on(t.hashSha256)],
);

export const packageFiles = sqliteTable(
  "package_file",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    versionId: integer("version_id")
      .notNull()
      .references(() => packageVersions.id, { onDelete: "cascade" }),
    blobId: integer("blob_id")
      .notNull()
      .references(() => packageBlobs.id),
    name: text("name").notNull(),
    lowerName: text("lower_name").notNull(),
    /** Tells apart files of one name in one version (Gitea's composite key: a conda subdir, a container digest). */
    compositeKey: text("composite_key").notNull().default(""),
    isLead: integer("is_lead", { mode: "boolean" }).notNull().default(false),
    createdUnix: integer("created_unix").notNull(),
  },
  (t) => [
    uniqueIndex("package_file_version_name_key_uq").on(t.versionId, t.lowerName, t.compositeKey),
    index("package_file_blob_idx").on(t.blobId),
  ],
);

/** Gitea's PropertyType: what a property belongs to. */
export const PackagePropertyRef = { Version: 0, File: 1, Package: 2 } as const;

export const packageProperties = sqliteTable(
  "package_property",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    refType: integer("ref_type").notNull(),
    refId: integer("ref_id").notNull(),
    name: text("name").notNull(),
    value: text("value").notNull(),
  },
  (t) => [index("package_property_ref_idx").on(t.refType, t.refId, t.name), index("package_property_name_value_idx").on(t.name, t.value)],
);

/** A chunked upload in progress (the container registry's): its bytes live in CHUNKED_UPLOAD_PATH. */
export const packageBlobUploads = sqliteTable("package_blob_upload", {
  id: text("id").primaryKey(),
  bytesReceived: integer("bytes_received").notNull().default(0),
  createdUnix: integer("created_unix").notNull(),
  updatedUnix: integer("updated_unix").notNull(),
});

export type PackageRow = typeof packages.$inferSelect;
export type PackageVersionRow = typeof packageVersions.$inferSelect;
export type PackageBlobRow = typeof packageBlobs.$inferSelect;
export type PackageFileRow = typeof packageFiles.$inferSelect;
export type PackagePropertyRow = typeof packageProperties.$inferSelect;
