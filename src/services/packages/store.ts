import { join } from "node:path";
import type { Env } from "../env.ts";
import type { PackageType } from "../../config/packages.ts";
import { PackagePropertyRef, type PackageBlobRow, type PackageFileRow, type PackageRow, type PackageVersionRow, type UserRow } from "../../db/schema/index.ts";
import { writeTx } from "../../db/client.ts";
import * as pkgModel from "../../models/package.ts";
import { nowUnix } from "../../lib/time.ts";
import { BlobTooLarge, PackageBlobStore, type BlobHashes, type StagedBlob } from "../../storage/package-blobs.ts";
import type { Doer } from "../access/permission.ts";
import { DuplicatePackageFile, DuplicatePackageVersion, PackageQuotaExceeded } from "./errors.ts";
import { packageEvents, userOfDoer } from "../events/package-events.ts";

const stores = new WeakMap<Env, PackageBlobStore>();

/** The package blob files of this Env's data directory. */
export function packageBlobStore(env: Env): PackageBlobStore {
  let s = stores.get(env);
  if (!s) stores.set(env, (s = new PackageBlobStore(join(env.settings.server.appDataPath, "packages"))));
  return s;
}

export type Properties = readonly (readonly [name: string, value: string])[];

/** A new file whose bytes were staged already (`stageUpload`), as a registry that reads them before storing does. */
export type StagedPackageFile = Omit<NewPackageFile, "file"> & { file: Omit<NewPackageFile["file"], "data"> };

export interface NewPackageFile {
  owner: UserRow;
  creator: Doer;
  type: PackageType;
  name: string;
  version: string;
  semverCompatible?: boolean;
  /** The version's metadata (stored as JSON when the version is created). */
  metadata?: unknown;
  versionProperties?: Properties;
  /** Properties of the package itself, added when it does not have them yet (conda's name and channel). */
  packageProperties?: Properties;
  /** A version that exists already gets the file (`add`), or the upload is refused (409). */
  existingVersion: "add" | "refuse";
  file: {
    name: string;
    compositeKey?: string;
    isLead?: boolean;
    data: AsyncIterable<Uint8Array>;
    properties?: Properties;
    /** A file of that name in the version: refused (409, the default) or replaced. */
    existing?: "refuse" | "replace";
  };
  /** Checks the staged bytes before they are kept (a client's checksum); throws to refuse. */
  verify?: (hashes: BlobHashes) => void;
}

export interface StoredFile {
  pkg: PackageRow;
  version: PackageVersionRow;
  file: PackageFileRow;
  blob: PackageBlobRow;
  /** The version was made by this upload. */
  createdVersion: boolean;
}

/**
 * Gitea's CreatePackageOrAddFileToExisting: streams the file to a blob (never whole in memory,
 * refused past `[packages] LIMIT_SIZE_<TYPE>`), checks the owner's quotas, then in one transaction
 * finds or creates the package and its version, records the blob once by sha256 and adds the
 * file with its properties. The bytes are kept only when the rows are written.
 */
export async function storePackageFile(env: Env, input: NewPackageFile): Promise<StoredFile> {
  return storeStagedFile(env, input, await stageUpload(env, input.type, input.file.data));
}

/**
 * Streams an upload to a staged blob, hashed, refused past `[packages] LIMIT_SIZE_<TYPE>`: for a
 * registry that must read the bytes (an archive's metadata) before it knows what it stores.
 */
export async function stageUpload(env: Env, type: PackageType, data: AsyncIterable<Uint8Array>): Promise<StagedBlob> {
  try {
    return await packageBlobStore(env).stage(data, env.settings.packages.limitSize[type]);
  } catch (err) {
    if (err instanceof BlobTooLarge) throw new PackageQuotaExceeded("maximum allowed package type size exceeded");
    throw err;
  }
}

/** Stores a staged blob as a package file (storePackageFile's second half); the staged copy is kept or dropped, never left. */
export async function storeStagedFile(env: Env, input: StagedPackageFile, staged: StagedBlob): Promise<StoredFile> {
  const limits = env.settings.packages;
  const store = packageBlobStore(env);
  try {
    input.verify?.(staged.hashes);
    const stored = writeTx(env.db, (tx) => {
      const now = nowUnix();
      let pkg = pkgModel.getPackage(tx, input.owner.id, input.type, input.name);
      pkg ??= pkgModel.insertPackage(tx, {
        ownerId: input.owner.id,
        repoId: 0,
        type: input.type,
        name: input.name,
        lowerName: input.name.toLowerCase(),
        semverCompatible: input.semverCompatible ?? false,
        isInternal: false,
      });
      if (input.packageProperties?.length) {
        const have = new Set(pkgModel.listProperties(tx, PackagePropertyRef.Package, pkg.id).map((p) => p.name));
        for (const [name, value] of input.packageProperties) {
          if (!have.has(name)) pkgModel.insertProperty(tx, { refType: PackagePropertyRef.Package, refId: pkg.id, name, value });
        }
      }
      let version = pkgModel.getVersion(tx, pkg.id, input.version);
      const createdVersion = !version;
      if (version && input.existingVersion === "refuse") throw new DuplicatePackageVersion();
      if (!version) {
        const usage = pkgModel.ownerUsage(tx, input.owner.id);
        if (limits.limitTotalOwnerCount >= 0 && usage.versions >= limits.limitTotalOwnerCount) {
          throw new PackageQuotaExceeded("maximum allowed package count exceeded");
        }
        version = pkgModel.insertVersion(tx, {
          packageId: pkg.id,
          creatorId: input.creator.id,
          version: input.version,
          lowerVersion: input.version.toLowerCase(),
          createdUnix: now,
          isInternal: false,
          metadataJson: input.metadata === undefined ? "" : JSON.stringify(input.metadata),
        });
        for (const [name, value] of input.versionProperties ?? []) {
          pkgModel.insertProperty(tx, { refType: PackagePropertyRef.Version, refId: version.id, name, value });
        }
        // Gitea's PackageCreate: announced with the version, in its transaction.
        packageEvents.emit(tx, env, { kind: "created", pkg, version, owner: input.owner, doer: userOfDoer(input.creator) });
      }
      if (limits.limitTotalOwnerSize >= 0 && pkgModel.ownerUsage(tx, input.owner.id).bytes + staged.hashes.size > limits.limitTotalOwnerSize) {
        throw new PackageQuotaExceeded("maximum allowed package storage quota exceeded");
      }
      const compositeKey = input.file.compositeKey ?? "";
      const existing = pkgModel.getFile(tx, version.id, input.file.name, compositeKey);
      const replaced: number[] = [];
      if (existing) {
        if (input.file.existing !== "replace") throw new DuplicatePackageFile();
        pkgModel.deleteProperties(tx, PackagePropertyRef.File, existing.id);
        pkgModel.deleteFileRow(tx, existing.id);
        replaced.push(existing.blobId);
      }
      const h = staged.hashes;
      const blob =
        pkgModel.getBlobBySha256(tx, h.sha256) ??
        pkgModel.insertBlob(tx, { size: h.size, hashMd5: h.md5, hashSha1: h.sha1, hashSha256: h.sha256, hashSha512: h.sha512, createdUnix: now });
      const file = pkgModel.insertFile(tx, {
        versionId: version.id,
        blobId: blob.id,
        name: input.file.name,
        lowerName: input.file.name.toLowerCase(),
        compositeKey,
        isLead: input.file.isLead ?? false,
        createdUnix: now,
      });
      for (const [name, value] of input.file.properties ?? []) {
        pkgModel.insertProperty(tx, { refType: PackagePropertyRef.File, refId: file.id, name, value });
      }
      const orphans = pkgModel.unreferencedBlobs(tx, replaced);
      for (const b of orphans) pkgModel.deleteBlobRow(tx, b.id);
      return { stored: { pkg, version, file, blob, createdVersion }, orphans };
    });
    await store.commit(staged);
    for (const b of stored.orphans) if (b.hashSha256 !== staged.hashes.sha256) store.remove(b.hashSha256);
    return stored.stored;
  } catch (err) {
    await store.discard(staged);
    throw err;
  }
}
