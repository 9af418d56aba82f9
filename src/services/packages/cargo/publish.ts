import type { Env } from "../../env.ts";
import type { UserRow } from "../../../db/schema/index.ts";
import type { Doer } from "../../access/permission.ts";
import { BadRequest } from "../../../lib/errors.ts";
import { CARGO_YANKED, CargoFormatError, FrameReader, parseCargoMetadata } from "../../../lib/cargo.ts";
import { deleteVersion } from "../lookup.ts";
import { storePackageFile } from "../store.ts";
import { crateFileName } from "./index.ts";
import { updateCargoGitIndexIfExists } from "./git-index.ts";

/** The most the metadata JSON of a publish may be (it is read into memory; the .crate never is). */
const MAX_METADATA = 10 << 20;

/**
 * Gitea's cargo UploadPackage: the body's metadata frame is read (bounded) and parsed, the .crate
 * frame streams into the blob store and must have the declared size; a version already there is
 * a 409. The git index repository, when the owner has one, gets the crate's new index file; if
 * that fails the version is removed again (as Gitea rolls back).
 */
export async function publishCrate(env: Env, owner: UserRow, doer: Doer, body: AsyncIterable<Uint8Array>): Promise<void> {
  const reader = new FrameReader(body);
  try {
    let crate: ReturnType<typeof parseCargoMetadata>;
    let size: number;
    try {
      crate = parseCargoMetadata(new TextDecoder().decode(await reader.readFrame(MAX_METADATA)));
      size = await reader.frameLength();
    } catch (err) {
      if (err instanceof CargoFormatError) throw new BadRequest(err.message);
      throw err;
    }
    const stored = await storePackageFile(env, {
      owner,
      creator: doer,
      type: "cargo",
      name: crate.name,
      version: crate.version,
      semverCompatible: true,
      metadata: crate.metadata,
      versionProperties: [[CARGO_YANKED, "false"]],
      existingVersion: "refuse",
      file: { name: crateFileName(crate.name, crate.version), isLead: true, data: reader.take(size) },
      verify: (hashes) => {
        if (hashes.size !== size) throw new BadRequest("invalid content size");
      },
    });
    try {
      await updateCargoGitIndexIfExists(env, doer, owner, stored.pkg.id);
    } catch (err) {
      deleteVersion(env, stored.version);
      throw err;
    }
  } finally {
    await reader.close();
  }
}
