import type { Env } from "../../env.ts";
import type { UserRow } from "../../../db/schema/index.ts";
import * as pkgModel from "../../../models/package.ts";
import { BadRequest, NotFound } from "../../../lib/errors.ts";
import { base64Chunks, type NpmPublish } from "../../../lib/npm-package.ts";
import type { Doer } from "../../access/permission.ts";
import { storePackageFile } from "../store.ts";
import { deleteVersion } from "../lookup.ts";
import { checkNpmTag, setNpmTags } from "./tags.ts";

/**
 * Gitea's npm UploadPackage: the version with its metadata and its tarball, decoded from base64 a
 * slice at a time into the blob store and kept only when it matches the integrity the client
 * claims (400 "failed to validate integrity"); then its dist-tags point at it. A version that
 * exists already is refused (409), as is a tarball over LIMIT_SIZE_NPM (403). Tags are checked
 * before anything is stored.
 */
export async function publishNpmPackage(env: Env, owner: UserRow, doer: Doer, upload: NpmPublish): Promise<void> {
  for (const tag of upload.distTags) checkNpmTag(tag);
  const stored = await storePackageFile(env, {
    owner,
    creator: doer,
    type: "npm",
    name: upload.name,
    version: upload.version,
    semverCompatible: true,
    metadata: upload.metadata,
    existingVersion: "refuse",
    file: { name: upload.filename, isLead: true, data: base64Chunks(upload.data) },
    verify(hashes) {
      const actual = upload.integrity.algorithm === "sha1" ? hashes.sha1 : hashes.sha512;
      if (actual !== upload.integrity.hex) throw new BadRequest("failed to validate integrity");
    },
  });
  setNpmTags(env, stored.pkg, stored.version, upload.distTags);
}

/** Gitea's DeletePackageVersion (npm unpublish of one version): 404 when it is not there. */
export function unpublishNpmVersion(env: Env, owner: UserRow, doer: Doer, name: string, version: string): void {
  const pkg = pkgModel.getPackage(env.db, owner.id, "npm", name);
  const v = pkg && !pkg.isInternal ? pkgModel.getVersion(env.db, pkg.id, version) : undefined;
  if (!v || v.isInternal) throw new NotFound("package does not exist");
  deleteVersion(env, v, doer);
}

/** Gitea's DeletePackage (npm unpublish of a whole package): every version; 404 without any. */
export function unpublishNpmPackage(env: Env, owner: UserRow, doer: Doer, name: string): void {
  const pkg = pkgModel.getPackage(env.db, owner.id, "npm", name);
  const versions = pkg && !pkg.isInternal ? pkgModel.listVersions(env.db, pkg.id).rows : [];
  if (!versions.length) throw new NotFound("package does not exist");
  for (const v of versions) deleteVersion(env, v, doer);
}
