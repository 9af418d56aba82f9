import type { Env } from "../../env.ts";
import type { UserRow } from "../../../db/schema/index.ts";
import type { Doer } from "../../access/permission.ts";
import { BadRequest } from "../../../lib/errors.ts";
import { condaFileName, CondaProperty, type CondaPackage } from "../../../lib/conda.ts";
import { packageBlobStore, stageUpload, storeStagedFile } from "../store.ts";
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

/**
 * Gitea's conda UploadPackageFile: the upload is streamed to a staged blob (never held in
 * memory), its `info/index.json` (and `about.json`) read from the staged file, then the file is
 * stored as `{name}-{version}-{build}.conda|.tar.bz2` in the version of package
 * `[{channel}/]{name}`, keyed by its subdir; a file already there is a 409.
 */
export async function uploadCondaPackage(env: Env, upload: CondaUpload): Promise<void> {
  const staged = await stageUpload(env, "conda", upload.body);
  try {
    let pkg: CondaPackage;
    if (upload.filename.endsWith(".tar.bz2")) {
      pkg = await parseTarBz2File(staged.tempPath);
    } else if (upload.filename.endsWith(".conda")) {
      pkg = await parseCondaFile(staged.tempPath);
    } else {
      throw new BadRequest("invalid conda package file name");
    }
    await storeStagedFile(
      env,
      {
        owner: upload.owner,
        creator: upload.creator,
        type: "conda",
        name: upload.channel ? `${upload.channel}/${pkg.name}` : pkg.name,
        version: pkg.version,
        semverCompatible: false,
        metadata: pkg.versionMetadata,
        existingVersion: "add",
        // Gitea's package properties of a conda package: its name without the channel, and the channel.
        packageProperties: [
          [CondaProperty.name, pkg.name],
          [CondaProperty.channel, upload.channel],
        ],
        file: {
          name: condaFileName(pkg),
          compositeKey: pkg.subdir,
          isLead: true,
          properties: [
            [CondaProperty.subdir, pkg.subdir],
            [CondaProperty.metadata, JSON.stringify(pkg.fileMetadata)],
          ],
        },
      },
      staged,
    );
  } catch (err) {
    await packageBlobStore(env).discard(staged);
    throw err;
  }
}
