import { createReadStream, existsSync, mkdirSync } from "node:fs";
import { open, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Env } from "../../env.ts";
import { PackagePropertyRef, type PackageBlobRow, type PackageRow, type PackageVersionRow, type UserRow } from "../../../db/schema/index.ts";
import { writeTx, type Tx } from "../../../db/client.ts";
import * as pkgModel from "../../../models/package.ts";
import * as containerModel from "../../../models/package-container.ts";
import { nowUnix } from "../../../lib/time.ts";
import { isSha256Digest, sha256Digest } from "../../../lib/oci.ts";
import { BlobTooLarge, type StagedBlob } from "../../../storage/package-blobs.ts";
import type { Doer } from "../../access/permission.ts";
import { packageAccessMode } from "../access.ts";
import { AccessMode } from "../../../db/schema/index.ts";
import * as userModel from "../../../models/user.ts";
import { deleteFile } from "../lookup.ts";
import { packageBlobStore } from "../store.ts";
import { PackageQuotaExceeded } from "../errors.ts";
import { errBlobUnknown, errBlobUploadInvalid, errBlobUploadUnknown, errDigestInvalid } from "./errors.ts";

/**
 * The container registry's blobs (Gitea's routers/api/packages/container/blob.go): an uploaded
 * blob becomes a file `sha256_{hex}` of the image's internal `_upload` version (with the
 * `container.digest` property) until a manifest names it; chunked uploads collect in
 * `[packages] CHUNKED_UPLOAD_PATH` and are hashed once finished.
 */

export const UPLOAD_VERSION = "_upload";
export const PROP_DIGEST = "container.digest";
export const PROP_MEDIA_TYPE = "container.mediatype";
export const PROP_REPOSITORY = "container.repository";
export const PROP_TAGGED = "container.manifest.tagged";
export const PROP_MANIFEST_REFERENCE = "container.manifest.reference";

export const blobFileName = (sha256: string) => `sha256_${sha256}`;

/** The image's package, created (with its `container.repository` property) when missing. */
export function ensureImagePackage(tx: Tx, owner: UserRow, image: string): PackageRow {
  const name = image.toLowerCase();
  const found = pkgModel.getPackage(tx, owner.id, containerModel.CONTAINER, name);
  if (found) return found;
  const pkg = pkgModel.insertPackage(tx, {
    ownerId: owner.id,
    repoId: 0,
    type: containerModel.CONTAINER,
    name,
    lowerName: name,
    semverCompatible: false,
    isInternal: false,
  });
  pkgModel.insertProperty(tx, { refType: PackagePropertyRef.Package, refId: pkg.id, name: PROP_REPOSITORY, value: `${owner.lowerName}/${name}` });
  return pkg;
}

/** Gitea's getOrCreateUploadVersion: the internal version holding the image's unreferenced blobs. */
export function ensureUploadVersion(tx: Tx, owner: UserRow, image: string): PackageVersionRow {
  const pkg = ensureImagePackage(tx, owner, image);
  return (
    pkgModel.getVersion(tx, pkg.id, UPLOAD_VERSION) ??
    pkgModel.insertVersion(tx, {
      packageId: pkg.id,
      creatorId: owner.id,
      version: UPLOAD_VERSION,
      lowerVersion: UPLOAD_VERSION,
      createdUnix: nowUnix(),
      isInternal: true,
      metadataJson: "null",
    })
  );
}

/** Gitea's createFileForBlob: the blob as a file of `version` (nothing when it is there already). */
function addBlobFile(tx: Tx, version: PackageVersionRow, blob: PackageBlobRow): void {
  const name = blobFileName(blob.hashSha256);
  if (pkgModel.getFile(tx, version.id, name)) return;
  const file = pkgModel.insertFile(tx, { versionId: version.id, blobId: blob.id, name, lowerName: name, compositeKey: "", isLead: false, createdUnix: nowUnix() });
  pkgModel.insertProperty(tx, { refType: PackagePropertyRef.File, refId: file.id, name: PROP_DIGEST, value: sha256Digest(blob.hashSha256) });
}

async function stage(env: Env, data: AsyncIterable<Uint8Array>): Promise<StagedBlob> {
  try {
    return await packageBlobStore(env).stage(data, env.settings.packages.limitSize.container);
  } catch (err) {
    if (err instanceof BlobTooLarge) throw new PackageQuotaExceeded("maximum allowed package type size exceeded");
    throw err;
  }
}

/**
 * Gitea's saveAsPackageBlob: the staged bytes must have `digest` (else DIGEST_INVALID); the owner's
 * size quota is checked; the blob is recorded once by sha256 and linked to the image's upload version.
 */
async function keepStaged(env: Env, owner: UserRow, image: string, staged: StagedBlob, digest: string): Promise<string> {
  const store = packageBlobStore(env);
  try {
    const actual = sha256Digest(staged.hashes.sha256);
    if (digest !== actual) throw errDigestInvalid();
    const limits = env.settings.packages;
    writeTx(env.db, (tx) => {
      if (limits.limitTotalOwnerSize >= 0 && pkgModel.ownerUsage(tx, owner.id).bytes + staged.hashes.size > limits.limitTotalOwnerSize) {
        throw new PackageQuotaExceeded("maximum allowed package storage quota exceeded");
      }
      const h = staged.hashes;
      const blob =
        pkgModel.getBlobBySha256(tx, h.sha256) ??
        pkgModel.insertBlob(tx, { size: h.size, hashMd5: h.md5, hashSha1: h.sha1, hashSha256: h.sha256, hashSha512: h.sha512, createdUnix: nowUnix() });
      addBlobFile(tx, ensureUploadVersion(tx, owner, image), blob);
    });
    await store.commit(staged);
    return actual;
  } catch (err) {
    await store.discard(staged);
    throw err;
  }
}

/** `POST …/blobs/uploads/?digest=`: the body is the whole blob. */
export async function uploadMonolithic(env: Env, owner: UserRow, image: string, digest: string, body: AsyncIterable<Uint8Array>): Promise<string> {
  return keepStaged(env, owner, image, await stage(env, body), digest);
}

/**
 * `POST …/blobs/uploads/?mount=&from=`: Gitea's mountBlob. The blob must be in the image `from`
 * names (`owner/image`) and the doer must be able to read that owner's packages; then the image
 * gets it too (true). False: the client uploads it instead.
 */
export function mountBlob(env: Env, doer: Doer | undefined, owner: UserRow, image: string, mount: string, from: string): boolean {
  if (!isSha256Digest(mount)) return false;
  const slash = from.indexOf("/");
  if (slash <= 0) return false;
  const fromOwner = userModel.getUserByName(env.db, from.slice(0, slash));
  if (!fromOwner || packageAccessMode(env, doer, fromOwner) < AccessMode.Read) return false;
  const found = containerModel.imageFilesBySha(env.db, fromOwner.id, from.slice(slash + 1), mount.slice(7))[0];
  if (!found) return false;
  writeTx(env.db, (tx) => addBlobFile(tx, ensureUploadVersion(tx, owner, image), found.blob));
  return true;
}

/** Gitea's GetLocalBlob: the blob of `digest` in the owner's image (BLOB_UNKNOWN otherwise). */
export function findImageBlob(env: Env, owner: UserRow, image: string, digest: string): containerModel.ImageFile {
  const found = isSha256Digest(digest) ? containerModel.imageFilesBySha(env.db, owner.id, image, digest.slice(7))[0] : undefined;
  if (!found) throw errBlobUnknown();
  return found;
}

/** `DELETE …/blobs/{digest}`: Gitea's deleteBlob, every file of the image holding it. */
export function deleteImageBlob(env: Env, owner: UserRow, image: string, digest: string): void {
  if (!isSha256Digest(digest)) throw errBlobUnknown();
  for (const f of containerModel.imageFilesBySha(env.db, owner.id, image, digest.slice(7))) deleteFile(env, f.file);
}

// Chunked uploads.

const UPLOAD_ID = /^[a-f0-9]{32}$/;

function uploadPath(env: Env, id: string): string {
  return join(env.settings.packages.chunkedUploadPath, id);
}

function requireUpload(env: Env, id: string) {
  const row = UPLOAD_ID.test(id) ? containerModel.getBlobUpload(env.db, id) : undefined;
  if (!row) throw errBlobUploadUnknown();
  return row;
}

/** `POST …/blobs/uploads/`: a new, empty upload (Gitea's CreateBlobUpload). */
export function createUpload(env: Env): string {
  const id = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("hex");
  mkdirSync(env.settings.packages.chunkedUploadPath, { recursive: true });
  writeTx(env.db, (tx) => containerModel.insertBlobUpload(tx, id, nowUnix()));
  return id;
}

export function uploadStatus(env: Env, id: string): { id: string; bytesReceived: number } {
  const row = requireUpload(env, id);
  return { id: row.id, bytesReceived: row.bytesReceived };
}

async function appendTo(env: Env, id: string, body: AsyncIterable<Uint8Array>, size: number): Promise<number> {
  const limit = env.settings.packages.limitSize.container;
  const file = await open(uploadPath(env, id), "a");
  let total = size;
  try {
    for await (const chunk of body) {
      total += chunk.byteLength;
      if (limit >= 0 && total > limit) throw new PackageQuotaExceeded("maximum allowed package type size exceeded");
      let off = 0;
      while (off < chunk.byteLength) off += (await file.write(chunk, off)).bytesWritten;
    }
  } finally {
    await file.close();
  }
  writeTx(env.db, (tx) => containerModel.setBlobUploadBytes(tx, id, total, nowUnix()));
  return total;
}

/**
 * `PATCH …/blobs/uploads/{uuid}`: Gitea's UploadBlob. With `Content-Range` the chunk must start
 * where the upload stands (else 416); without one only the first write may stream.
 */
export async function appendChunk(env: Env, id: string, range: { start: number; end: number } | "invalid" | undefined, body: AsyncIterable<Uint8Array> | null): Promise<number> {
  const row = requireUpload(env, id);
  if (range === "invalid") throw errBlobUploadInvalid();
  if (range && range.start !== row.bytesReceived) throw errBlobUploadInvalid(undefined, 416);
  if (!range && row.bytesReceived !== 0) throw errBlobUploadInvalid("Stream uploads after first write are not allowed");
  return appendTo(env, id, body ?? emptyBody(), row.bytesReceived);
}

async function* emptyBody(): AsyncIterable<Uint8Array> {}

/** `PUT …/blobs/uploads/{uuid}?digest=`: the last bytes, then the whole upload hashed and kept. */
export async function finishUpload(env: Env, owner: UserRow, image: string, id: string, digest: string, body: AsyncIterable<Uint8Array> | null): Promise<string> {
  if (!digest) throw errDigestInvalid();
  const row = requireUpload(env, id);
  const path = uploadPath(env, id);
  if (body) await appendTo(env, id, body, row.bytesReceived);
  if (!existsSync(path)) await open(path, "a").then((f) => f.close());
  const staged = await stage(env, createReadStream(path));
  const kept = await keepStaged(env, owner, image, staged, digest);
  await removeUpload(env, id);
  return kept;
}

async function removeUpload(env: Env, id: string): Promise<void> {
  writeTx(env.db, (tx) => containerModel.deleteBlobUpload(tx, id));
  await rm(uploadPath(env, id), { force: true });
}

/** `DELETE …/blobs/uploads/{uuid}`: the upload and its bytes. */
export async function cancelUpload(env: Env, id: string): Promise<void> {
  requireUpload(env, id);
  await removeUpload(env, id);
}
