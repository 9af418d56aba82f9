import type { Env } from "../../env.ts";
import type { RepoRow, UserRow } from "../../../db/schema/index.ts";
import { writeTx } from "../../../db/client.ts";
import * as pkgModel from "../../../models/package.ts";
import * as repoModel from "../../../models/repo.ts";
import * as userModel from "../../../models/user.ts";
import { BadRequest, Forbidden, NotFound } from "../../../lib/errors.ts";
import { base64Chunks, repositoryOfUrl, type NpmPublish } from "../../../lib/npm-package.ts";
import { repoPermission, type Doer } from "../../access/permission.ts";
import { storePackageFile } from "../store.ts";
import { deleteVersion } from "../lookup.ts";
import { checkNpmTag, setNpmTags } from "./tags.ts";

/**
 * The repository of this site the manifest's `repository.url` names, which the package will be
 * linked to: the doer must own it or be able to write its packages (Gitea's 403 otherwise).
 */
function repositoryToLink(env: Env, doer: Doer, url: string): RepoRow | undefined {
  const path = repositoryOfUrl(url, env.settings.server.rootUrl);
  const repoOwner = path && userModel.getUserByName(env.db, path.owner);
  const repo = path && repoOwner && repoModel.getRepoByOwner(env.db, repoOwner.id, path.repo);
  if (!repo || !repoOwner) return undefined;
  if (repo.ownerId !== doer.id && !repoPermission(env, doer, repo, repoOwner).canWrite("packages")) {
    throw new Forbidden("no permission to upload this package");
  }
  return repo;
}

/**
 * Gitea's npm UploadPackage: the version with its metadata and its tarball, decoded from base64 a
 * slice at a time into the blob store and kept only when it matches the integrity the client
 * claims (400 "failed to validate integrity"); then its dist-tags point at it, and the package is
 * linked to the repository of this site its manifest names. A version that exists already is
 * refused (409), as is a tarball over LIMIT_SIZE_NPM (403). Tags are checked before anything is
 * stored.
 */
export async function publishNpmPackage(env: Env, owner: UserRow, doer: Doer, upload: NpmPublish): Promise<void> {
  for (const tag of upload.distTags) checkNpmTag(tag);
  const repo = repositoryToLink(env, doer, upload.metadata.repository.url);
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
  if (repo) writeTx(env.db, (tx) => pkgModel.setPackageRepo(tx, stored.pkg.id, repo.id));
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
