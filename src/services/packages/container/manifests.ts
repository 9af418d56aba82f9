import type { Env } from "../../env.ts";
import { PackagePropertyRef, type PackageBlobRow, type PackageVersionRow, type UserRow } from "../../../db/schema/index.ts";
import { writeTx } from "../../../db/client.ts";
import * as pkgModel from "../../../models/package.ts";
import * as containerModel from "../../../models/package-container.ts";
import { nowUnix } from "../../../lib/time.ts";
import { isSha256Digest, isTag, ManifestError, parseManifest, platformOf, sha256Digest, type Descriptor } from "../../../lib/oci.ts";
import type { Doer } from "../../access/permission.ts";
import { canSeeOwner } from "../../access/permission.ts";
import { packageEvents, userOfDoer } from "../../events/package-events.ts";
import { deleteFile, deleteVersion } from "../lookup.ts";
import { packageBlobStore } from "../store.ts";
import { PackageQuotaExceeded } from "../errors.ts";
import { ensureImagePackage, PROP_DIGEST, PROP_MANIFEST_REFERENCE, PROP_MEDIA_TYPE, PROP_TAGGED, UPLOAD_VERSION, blobFileName } from "./blobs.ts";
import {
  ContainerError,
  errBlobUnknown,
  errDigestInvalid,
  errManifestBlobUnknown,
  errManifestInvalid,
  errManifestUnknown,
  errNameUnknown,
  errSizeInvalid,
} from "./errors.ts";

/**
 * The container registry's manifests (Gitea's routers/api/packages/container/manifest.go): a
 * manifest pushed by tag is the version of that tag (marked tagged), one pushed by digest an
 * untagged version named by its digest; the manifest is the version's lead file `manifest.json`,
 * and the blobs an image manifest names become files of the version too (leaving the upload
 * version), so they live as long as a manifest needs them.
 */

/** Gitea's MaxManifestSize. */
export const MAX_MANIFEST_SIZE = 10 * 1024 * 1024;

async function readLimited(body: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > MAX_MANIFEST_SIZE) throw errManifestInvalid("Manifest exceeds maximum size", 413);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

interface BlobRef {
  desc: Descriptor;
  blob: PackageBlobRow;
  /** The file in the image's upload version, which the manifest's version takes over. */
  uploadFileId?: number;
}

/**
 * `PUT …/manifests/{reference}`: Gitea's UploadManifest/processManifest. Returns the manifest's
 * digest. The blobs (of an image manifest) or manifests (of an index) it names must be in the
 * image already: BLOB_UNKNOWN / MANIFEST_BLOB_UNKNOWN, SIZE_INVALID for a size that differs.
 */
export async function putManifest(
  env: Env,
  owner: UserRow,
  creator: Doer,
  image: string,
  reference: string,
  contentType: string,
  body: AsyncIterable<Uint8Array>,
): Promise<{ digest: string; reference: string }> {
  const tagged = !isSha256Digest(reference);
  if (tagged && !isTag(reference)) throw errManifestInvalid("Tag is invalid");
  const bytes = await readLimited(body);
  let parsed;
  try {
    parsed = parseManifest(bytes, contentType);
  } catch (err) {
    if (err instanceof ManifestError) throw err.code === "UNSUPPORTED" ? new ContainerError("UNSUPPORTED", 405, err.message) : errManifestInvalid(err.message);
    throw err;
  }
  const store = packageBlobStore(env);
  const staged = await store.stage((async function* () {
    yield bytes;
  })());
  const digest = sha256Digest(staged.hashes.sha256);
  try {
    if (!tagged && reference !== digest) throw errDigestInvalid();
    const limits = env.settings.packages;
    const result = writeTx(env.db, (tx) => {
      const refs: BlobRef[] = [];
      const metadata: Record<string, unknown> = { type: "oci", isTagged: tagged };
      if (parsed.kind === "image") {
        for (const desc of [parsed.config, ...parsed.layers]) {
          const found = isSha256Digest(desc.digest) ? containerModel.imageFilesBySha(tx, owner.id, image, desc.digest.slice(7)) : [];
          if (!found.length) throw errBlobUnknown();
          if (desc.size >= 0 && found[0]!.blob.size !== desc.size) throw errSizeInvalid();
          const upload = found.find((f) => f.version.isInternal && f.version.lowerVersion === UPLOAD_VERSION);
          refs.push({ desc, blob: found[0]!.blob, uploadFileId: upload?.file.id });
        }
        metadata.layers = parsed.layers.map((l) => l.digest);
      } else {
        const manifests: { platform: string; digest: string; size: number }[] = [];
        for (const desc of parsed.manifests) {
          const found = isSha256Digest(desc.digest) ? containerModel.imageFilesBySha(tx, owner.id, image, desc.digest.slice(7), true)[0] : undefined;
          if (!found) throw errManifestBlobUnknown();
          const size = pkgModel.listFiles(tx, found.version.id).reduce((n, f) => n + f.blob.size, 0);
          manifests.push({ platform: platformOf(desc), digest: desc.digest, size });
        }
        metadata.manifests = manifests;
      }
      const pkg = ensureImagePackage(tx, owner, image);
      const name = reference.toLowerCase();
      let version = pkgModel.getVersion(tx, pkg.id, name);
      const replaced: number[] = [];
      if (version) {
        // Gitea's DeletePackageVersionAndReferences: the tag now names another manifest.
        for (const { file } of pkgModel.listFiles(tx, version.id)) {
          pkgModel.deleteProperties(tx, PackagePropertyRef.File, file.id);
          pkgModel.deleteFileRow(tx, file.id);
          replaced.push(file.blobId);
        }
        pkgModel.deleteProperties(tx, PackagePropertyRef.Version, version.id);
        pkgModel.setVersionMetadata(tx, version.id, JSON.stringify(metadata));
      } else {
        if (limits.limitTotalOwnerCount >= 0 && pkgModel.ownerUsage(tx, owner.id).versions >= limits.limitTotalOwnerCount) {
          throw new PackageQuotaExceeded("maximum allowed package count exceeded");
        }
        version = pkgModel.insertVersion(tx, {
          packageId: pkg.id,
          creatorId: creator.id,
          version: name,
          lowerVersion: name,
          createdUnix: nowUnix(),
          isInternal: false,
          metadataJson: JSON.stringify(metadata),
        });
      }
      if (tagged) pkgModel.insertProperty(tx, { refType: PackagePropertyRef.Version, refId: version.id, name: PROP_TAGGED, value: "" });
      if (parsed.kind === "index") {
        for (const m of parsed.manifests) pkgModel.insertProperty(tx, { refType: PackagePropertyRef.Version, refId: version.id, name: PROP_MANIFEST_REFERENCE, value: m.digest });
      }
      const now = nowUnix();
      const addFile = (blob: PackageBlobRow, fileName: string, mediaType: string, fileDigest: string, isLead: boolean) => {
        if (pkgModel.getFile(tx, version!.id, fileName)) return; // the same layer named twice
        const file = pkgModel.insertFile(tx, { versionId: version!.id, blobId: blob.id, name: fileName, lowerName: fileName, compositeKey: "", isLead, createdUnix: now });
        pkgModel.insertProperty(tx, { refType: PackagePropertyRef.File, refId: file.id, name: PROP_MEDIA_TYPE, value: mediaType });
        pkgModel.insertProperty(tx, { refType: PackagePropertyRef.File, refId: file.id, name: PROP_DIGEST, value: fileDigest });
      };
      for (const ref of refs) {
        addFile(ref.blob, blobFileName(ref.blob.hashSha256), ref.desc.mediaType, ref.desc.digest, false);
        if (ref.uploadFileId !== undefined && pkgModel.getFileById(tx, ref.uploadFileId)) {
          pkgModel.deleteProperties(tx, PackagePropertyRef.File, ref.uploadFileId);
          pkgModel.deleteFileRow(tx, ref.uploadFileId);
        }
      }
      const h = staged.hashes;
      const manifestBlob =
        pkgModel.getBlobBySha256(tx, h.sha256) ??
        pkgModel.insertBlob(tx, { size: h.size, hashMd5: h.md5, hashSha1: h.sha1, hashSha256: h.sha256, hashSha512: h.sha512, createdUnix: now });
      addFile(manifestBlob, containerModel.MANIFEST_FILE, parsed.mediaType, digest, true);
      // Gitea's notifyPackageCreate: every push of a manifest.
      packageEvents.emit(tx, env, { kind: "created", pkg, version, owner, doer: userOfDoer(creator) });
      const orphans = pkgModel.unreferencedBlobs(tx, replaced);
      for (const b of orphans) pkgModel.deleteBlobRow(tx, b.id);
      return { orphans };
    });
    await store.commit(staged);
    for (const b of result.orphans) if (b.hashSha256 !== staged.hashes.sha256) store.remove(b.hashSha256);
    return { digest, reference: tagged ? reference.toLowerCase() : digest };
  } catch (err) {
    await store.discard(staged);
    throw err;
  }
}

export interface FoundManifest {
  blob: PackageBlobRow;
  version: PackageVersionRow;
  digest: string;
  mediaType: string;
}

/** Gitea's GetLocalManifest: by tag (the tag's version) or by digest (any version holding it). */
export function findManifest(env: Env, owner: UserRow, image: string, reference: string): FoundManifest {
  let found: containerModel.ImageFile | undefined;
  if (isSha256Digest(reference)) {
    found = containerModel.imageFilesBySha(env.db, owner.id, image, reference.slice(7), true)[0];
  } else if (isTag(reference)) {
    const pkg = pkgModel.getPackage(env.db, owner.id, containerModel.CONTAINER, image);
    const version = pkg && pkgModel.getVersion(env.db, pkg.id, reference);
    const file = version && !version.isInternal ? pkgModel.getFile(env.db, version.id, containerModel.MANIFEST_FILE) : undefined;
    const blob = file && pkgModel.getBlobById(env.db, file.blobId);
    if (version && file && blob) found = { file, blob, version };
  }
  if (!found) throw errManifestUnknown();
  const props = new Map(pkgModel.listProperties(env.db, PackagePropertyRef.File, found.file.id).map((p) => [p.name, p.value]));
  return {
    blob: found.blob,
    version: found.version,
    digest: props.get(PROP_DIGEST) ?? sha256Digest(found.blob.hashSha256),
    mediaType: props.get(PROP_MEDIA_TYPE) ?? "",
  };
}

/** `DELETE …/manifests/{reference}`: Gitea's DeleteManifest, every version holding the manifest. */
export function deleteManifest(env: Env, doer: Doer, owner: UserRow, image: string, reference: string): void {
  let versions: PackageVersionRow[] = [];
  if (isSha256Digest(reference)) {
    versions = containerModel.imageFilesBySha(env.db, owner.id, image, reference.slice(7), true).map((f) => f.version);
  } else if (isTag(reference)) {
    const pkg = pkgModel.getPackage(env.db, owner.id, containerModel.CONTAINER, image);
    const v = pkg && pkgModel.getVersion(env.db, pkg.id, reference);
    if (v && !v.isInternal) versions = [v];
  } else throw errManifestUnknown();
  const unique = [...new Map(versions.filter((v) => !v.isInternal).map((v) => [v.id, v])).values()];
  if (!unique.length) throw errManifestUnknown();
  // The core removes the package with its last public version, and with it the internal upload
  // version: its files go first, through the core, so their blobs do not stay behind.
  const pkgId = unique[0]!.packageId;
  if (pkgModel.listVersions(env.db, pkgId).total <= unique.length) {
    const upload = pkgModel.getVersion(env.db, pkgId, UPLOAD_VERSION);
    if (upload) for (const { file } of pkgModel.listFiles(env.db, upload.id)) deleteFile(env, file);
  }
  for (const v of unique) deleteVersion(env, v, doer);
}

/** `GET …/tags/list?n=&last=`: Gitea's GetTagList (n absent: all tags). */
export function listTags(env: Env, owner: UserRow, image: string, n: number, last: string): string[] {
  const pkg = pkgModel.getPackage(env.db, owner.id, containerModel.CONTAINER, image);
  if (!pkg || pkg.isInternal) throw errNameUnknown();
  return containerModel.imageTags(env.db, pkg.id, last, n);
}

/** `GET /v2/_catalog?n=&last=`: Gitea's GetRepositories, the images of owners the doer may see. */
export function listRepositories(env: Env, doer: Doer | undefined, n: number, last: string): string[] {
  const out: string[] = [];
  let after = last;
  for (;;) {
    const rows = containerModel.containerRepositories(env.db, after, Math.max(n, 50));
    for (const r of rows) {
      if (canSeeOwner(env, r.owner, doer)) out.push(r.name);
      if (out.length === n) return out;
    }
    if (rows.length < Math.max(n, 50)) return out;
    after = rows[rows.length - 1]!.name;
  }
}

