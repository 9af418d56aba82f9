import type { Env } from "../../env.ts";
import type { PackageBlobRow, PackageFileRow, PackageVersionRow, UserRow } from "../../../db/schema/index.ts";
import { writeTx } from "../../../db/client.ts";
import * as pkgModel from "../../../models/package.ts";
import { BadRequest, NotFound } from "../../../lib/errors.ts";
import { artifactMetadataXml, mavenPackageName, type ChecksumKind, type MavenMetadata, type MavenPath } from "../../../lib/maven.ts";
import type { Doer } from "../../access/permission.ts";
import { storePackageFile } from "../store.ts";

/**
 * Gitea's maven registry over the package core: versions in the order they were created, files
 * found by name in a version, the generated artifact-level maven-metadata.xml, uploads (a pom's
 * metadata becomes the version's) and the checksum files clients upload after each file.
 */

/** Gitea's ErrPackageNotExist, which it also answers for a version that does not exist. */
const noPackage = () => new NotFound("package does not exist");

/** The public versions of the package named by `path`, oldest first (Maven orders by creation, not by version string). */
export function mavenVersions(env: Env, owner: UserRow, path: Pick<MavenPath, "groupId" | "artifactId">): PackageVersionRow[] {
  const pkg = pkgModel.getPackage(env.db, owner.id, "maven", mavenPackageName(path));
  if (!pkg || pkg.isInternal) return [];
  return pkgModel.listVersions(env.db, pkg.id).rows.toReversed();
}

/** The artifact-level maven-metadata.xml and when its newest version was made; 404 for a package with no versions. */
export function mavenArtifactMetadata(env: Env, owner: UserRow, path: MavenPath): { xml: string; lastModifiedUnix: number } {
  const versions = mavenVersions(env, owner, path);
  if (!versions.length) throw noPackage();
  return {
    xml: artifactMetadataXml(
      path.groupId,
      path.artifactId,
      versions.map((v) => v.version),
    ),
    lastModifiedUnix: versions.at(-1)!.createdUnix,
  };
}

export interface MavenFile {
  version: PackageVersionRow;
  file: PackageFileRow;
  blob: PackageBlobRow;
}

/** The file `filename` of the path's version: 404 "package does not exist" or "package file does not exist". */
export function findMavenFile(env: Env, owner: UserRow, path: MavenPath, filename: string): MavenFile {
  const pkg = pkgModel.getPackage(env.db, owner.id, "maven", mavenPackageName(path));
  const version = pkg && !pkg.isInternal ? pkgModel.getVersion(env.db, pkg.id, path.version) : undefined;
  if (!version || version.isInternal) throw noPackage();
  const file = pkgModel.getFile(env.db, version.id, filename);
  const blob = file && pkgModel.getBlobById(env.db, file.blobId);
  if (!file || !blob) throw new NotFound("package file does not exist");
  return { version, file, blob };
}

/** The digest of a stored blob that a checksum file of that kind holds. */
export function blobChecksum(blob: PackageBlobRow, kind: ChecksumKind): string {
  return { md5: blob.hashMd5, sha1: blob.hashSha1, sha256: blob.hashSha256, sha512: blob.hashSha512 }[kind];
}

/**
 * A client's upload of `{file}.{md5|sha1|sha256|sha512}`: nothing is stored, the value must be
 * the stored file's digest (400 "hash mismatch"; 404 for a file that is not there). `given`
 * undefined: a body too long to be any digest.
 */
export function verifyMavenChecksum(env: Env, owner: UserRow, path: MavenPath, of: string, kind: ChecksumKind, given: string | undefined): void {
  const { blob } = findMavenFile(env, owner, path, of);
  if (blobChecksum(blob, kind) !== given) throw new BadRequest("hash mismatch");
}

export interface MavenUpload {
  owner: UserRow;
  creator: Doer;
  path: MavenPath;
  data: AsyncIterable<Uint8Array>;
  /** The parsed pom, for a `.pom` (which is then the version's lead file). */
  pom?: MavenMetadata;
}

/**
 * Gitea's UploadPackageFile: the file is added to its version (made on the first file); a file
 * already there is a 409, except a SNAPSHOT version's maven-metadata.xml, which each deploy
 * replaces. A pom's metadata becomes the version's, also for a version that exists already.
 */
export async function uploadMavenFile(env: Env, input: MavenUpload): Promise<void> {
  const stored = await storePackageFile(env, {
    owner: input.owner,
    creator: input.creator,
    type: "maven",
    name: mavenPackageName(input.path),
    version: input.path.version,
    semverCompatible: false,
    metadata: input.pom,
    existingVersion: "add",
    file: {
      name: input.path.filename,
      isLead: input.pom !== undefined,
      data: input.data,
      existing: input.path.isMeta ? "replace" : "refuse",
    },
  });
  if (input.pom && !stored.createdVersion) {
    const json = JSON.stringify(input.pom);
    writeTx(env.db, (tx) => pkgModel.setVersionMetadata(tx, stored.version.id, json));
  }
}
