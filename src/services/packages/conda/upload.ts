import type { Env } from "../../env.ts";
import type { UserRow } from "../../../db/schema/index.ts";
import { PackagePropertyRef } from "../../../db/schema/index.ts";
import type { Doer } from "../../access/permission.ts";
import { writeTx } from "../../../db/client.ts";
import * as pkgModel from "../../../models/package.ts";
import { BadRequest } from "../../../lib/errors.ts";
import { condaFileName, CondaProperty, type CondaPackage } from "../../../lib/conda.ts";
import { BlobTooLarge, type StagedBlob } from "../../../storage/package-blobs.ts";
import { PackageQuotaExceeded } from "../errors.ts";
import { packageBlobStore, storePackageFile } from "../store.ts";
import { parseCondaFile, parseTarBz2File } from "./parse.ts";

export interface CondaUpload {
  owner: UserRow;
  creator: Doer;
  /** The path's channel ("" for none). */
  channel: string;
  /** The path's file name (`.conda` or `.tar.bz2`): says how the bytes are read. */
  filename: string;
  body: AsyncIterable<Uint8Array>;
}

/** Gitea's package properties of a conda package: its name without the channel, and the channel. */
function addPackageProperties(env: Env, packageId: number, pkg: CondaPackage, channel: string): void {
  writeTx(env.db, (tx) => {
    const have = new Set(pkgModel.listProperties(tx, PackagePropertyRef.Package, packageId).map((p) => p.name));
    if (!have.has(CondaProperty.name)) pkgModel.insertProperty(tx, { refType: PackagePropertyRef.Package, refId: packageId, name: CondaProperty.name, value: pkg.name });
    if (!have.has(CondaProperty.channel)) pkgModel.insertProperty(tx, { refType: PackagePropertyRef.Package, refId: packageId, name: CondaProperty.channel, value: channel });
  });
}

/**
 * Gitea's conda UploadPackageFile: the upload is streamed to a staged blob (never held in
 * memory), its `info/index.json` (and `about.json`) read from the staged file, then the file is
 * stored as `{name}-{version}-{build}.conda|.tar.bz2` in the version of package
 * `[{channel}/]{name}`, keyed by its subdir; a file already there is a 409.
 */
export async function uploadCondaPackage(env: Env, upload: CondaUpload): Promise<void> {
  const store = packageBlobStore(env);
  let staged: StagedBlob;
  try {
    staged = await store.stage(upload.body, env.settings.packages.limitSize.conda);
  } catch (err) {
    if (err instanceof BlobTooLarge) throw new PackageQuotaExceeded("maximum allowed package type size exceeded");
    throw err;
  }
  try {
    let pkg: CondaPackage;
    if (upload.filename.endsWith(".tar.bz2")) {
      pkg = await parseTarBz2File(staged.tempPath);
    } else if (upload.filename.endsWith(".conda")) {
      pkg = await parseCondaFile(staged.tempPath);
    } else {
      throw new BadRequest("invalid conda package file name");
    }
    const stored = await storePackageFile(env, {
      owner: upload.owner,
      creator: upload.creator,
      type: "conda",
      name: upload.channel ? `${upload.channel}/${pkg.name}` : pkg.name,
      version: pkg.version,
      semverCompatible: false,
      metadata: pkg.versionMetadata,
      existingVersion: "add",
      file: {
        name: condaFileName(pkg),
        compositeKey: pkg.subdir,
        isLead: true,
        data: Bun.file(staged.tempPath).stream(),
        properties: [
          [CondaProperty.subdir, pkg.subdir],
          [CondaProperty.metadata, JSON.stringify(pkg.fileMetadata)],
        ],
      },
    });
    addPackageProperties(env, stored.pkg.id, pkg, upload.channel);
  } finally {
    await store.discard(staged);
  }
}
