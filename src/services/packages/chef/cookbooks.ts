import type { Env } from "../../env.ts";
import type { PackageBlobRow, PackageFileRow, PackageRow, PackageVersionRow, UserRow } from "../../../db/schema/index.ts";
import type { Doer } from "../../access/permission.ts";
import type { FormPart } from "../../../lib/multipart-stream.ts";
import * as pkgModel from "../../../models/package.ts";
import { BadRequest, NotFound } from "../../../lib/errors.ts";
import { tarEntries } from "../../../lib/tar-entries.ts";
import { compareChefVersions, isCookbookMetadataPath, parseChefMetadata, type ChefCookbook, type ChefMetadata } from "../../../lib/chef-metadata.ts";
import { BlobTooLarge, type StagedBlob } from "../../../storage/package-blobs.ts";
import { PackageQuotaExceeded } from "../errors.ts";
import { packageBlobStore, storePackageFile } from "../store.ts";
import { deleteVersion, findFile, findPackage, findVersion, listPackageVersions, versionFiles } from "../lookup.ts";

/** The most decompressed bytes read looking for metadata.json (Gitea's MaxMetadataScanSize). */
export const METADATA_SCAN_LIMIT = 64 << 20;
/** The most bytes metadata.json may have. */
const METADATA_LIMIT = 4 << 20;

/** A version's stored metadata; rows written by something else read as empty. */
export function chefMetadataOf(version: PackageVersionRow): ChefMetadata {
  try {
    const parsed: unknown = version.metadataJson ? JSON.parse(version.metadataJson) : {};
    return parsed && typeof parsed === "object" ? (parsed as ChefMetadata) : {};
  } catch {
    return {};
  }
}

/** Decompressed bytes, stopped (a 400) past `limit`. */
async function* bounded(source: AsyncIterable<Uint8Array>, limit: number): AsyncGenerator<Uint8Array> {
  let seen = 0;
  for await (const chunk of source) {
    seen += chunk.byteLength;
    if (seen > limit) throw new BadRequest("metadata.json file is missing");
    yield chunk;
  }
}

/**
 * Gitea's chef ParsePackage over a stored tar.gz: the first regular file `<dir>/metadata.json`
 * of the archive, read as the archive is decompressed (never the whole archive in memory).
 */
export async function readCookbook(file: Blob): Promise<ChefCookbook> {
  const gunzipped = file.stream().pipeThrough(new DecompressionStream("gzip"));
  try {
    for await (const entry of tarEntries(bounded(gunzipped, METADATA_SCAN_LIMIT))) {
      if (entry.type !== "0" || !isCookbookMetadataPath(entry.name)) continue;
      return parseChefMetadata(await entry.text(METADATA_LIMIT));
    }
  } catch (err) {
    if (err instanceof BadRequest) throw err;
    // The decompressor's own failures (not gzip, truncated).
    throw new BadRequest(`invalid cookbook archive: ${(err as Error).message}`);
  }
  throw new BadRequest("metadata.json file is missing");
}

export interface CookbookUpload {
  owner: UserRow;
  creator: Doer;
  /** knife's `supermarket share` form: the `tarball` file part. */
  parts: AsyncIterable<FormPart>;
  /** Called once the whole form was read, before anything is kept (a signed body's check). */
  beforeStore?: () => void | Promise<void>;
}

/**
 * Gitea's chef UploadPackage: the form's `tarball` streams to a staged blob, its metadata.json
 * is read from there, and the cookbook's version is made with the archive as its one file
 * (`{version}.tar.gz`); a version already there is a 409. Returns the new version.
 */
export async function uploadCookbook(env: Env, upload: CookbookUpload): Promise<PackageVersionRow> {
  const blobs = packageBlobStore(env);
  const parts = upload.parts[Symbol.asyncIterator]();
  let staged: StagedBlob | undefined;
  try {
    for (let next = await parts.next(); !next.done; next = await parts.next()) {
      const part = next.value;
      if (part.name !== "tarball" || part.filename === undefined) continue;
      try {
        staged = await blobs.stage(part.chunks(), env.settings.packages.limitSize.chef ?? -1);
      } catch (err) {
        if (err instanceof BlobTooLarge) throw new PackageQuotaExceeded("maximum allowed package type size exceeded");
        throw err;
      }
      break; // Go's FormFile: the first file of the field
    }
    // The rest of the form (knife sends nothing after the file) is read to its end.
    for (let next = await parts.next(); !next.done; next = await parts.next()) {
      for await (const _ of next.value.chunks());
    }
    if (!staged) throw new BadRequest("http: no such file");
    await upload.beforeStore?.();
    const cookbook = await readCookbook(Bun.file(staged.tempPath));
    const stored = await storePackageFile(env, {
      owner: upload.owner,
      creator: upload.creator,
      type: "chef",
      name: cookbook.name,
      version: cookbook.version,
      semverCompatible: true,
      metadata: cookbook.metadata,
      existingVersion: "refuse",
      file: { name: `${cookbook.version}.tar.gz`.toLowerCase(), isLead: true, data: Bun.file(staged.tempPath).stream() },
    });
    return stored.version;
  } finally {
    if (staged) await blobs.discard(staged);
    await parts.return?.(undefined);
  }
}

/** The registry's root for an owner (Gitea's baseURL). */
export function chefApiUrl(env: Env, owner: UserRow): string {
  return `${env.settings.server.rootUrl}api/packages/${owner.name}/chef/api/v1`;
}

/** Every public cookbook version of the owner, with its package (Gitea's SearchVersions). */
export function allCookbookVersions(env: Env, owner: UserRow): { version: PackageVersionRow; pkg: PackageRow }[] {
  return pkgModel.searchVersions(env.db, { ownerId: owner.id, type: "chef", offset: 0, limit: -1 }).rows;
}

export interface CookbookSearch {
  query: string;
  /** `recently_updated` and `recently_added` sort newest first; anything else by name. */
  order: string;
  start: number;
  items: number;
}

/** Gitea's EnumeratePackages: the latest version of each matching cookbook, one page, and how many match. */
export function searchCookbooks(env: Env, owner: UserRow, s: CookbookSearch): { rows: { version: PackageVersionRow; pkg: PackageRow }[]; total: number } {
  const recent = s.order === "recently_updated" || s.order === "recently_added";
  const search = { ownerId: owner.id, type: "chef", query: s.query || undefined };
  if (recent) return pkgModel.searchLatestVersions(env.db, { ...search, offset: s.start, limit: s.items });
  const all = pkgModel.searchLatestVersions(env.db, { ...search, offset: 0, limit: -1 });
  const byName = all.rows.sort((a, b) => (a.pkg.name < b.pkg.name ? -1 : a.pkg.name > b.pkg.name ? 1 : 0));
  return { rows: byName.slice(s.start, s.start + s.items), total: all.total };
}

/** A cookbook's versions, oldest first by version (Gitea sorts them by semver); 404 for none. */
export function cookbookVersions(env: Env, owner: UserRow, name: string): { pkg: PackageRow; versions: PackageVersionRow[] } {
  const pkg = findPackage(env, owner, "chef", name);
  const versions = listPackageVersions(env, pkg).rows.filter((v) => !v.isInternal);
  if (!versions.length) throw new NotFound("package does not exist");
  return { pkg, versions: versions.sort((a, b) => compareChefVersions(a.version, b.version)) };
}

/** One version of a cookbook and its archive. */
export function cookbookVersion(
  env: Env,
  owner: UserRow,
  name: string,
  version: string,
): { pkg: PackageRow; version: PackageVersionRow; file: PackageFileRow; blob: PackageBlobRow } {
  const pkg = findPackage(env, owner, "chef", name);
  const v = findVersion(env, pkg, version);
  const lead = versionFiles(env, v)[0];
  if (!lead) throw new NotFound("package file does not exist");
  return { pkg, version: v, ...findFile(env, v, lead.file.name, lead.file.compositeKey) };
}

/** Gitea's DeletePackageVersion (404 when there is no such version). */
export function deleteCookbookVersion(env: Env, owner: UserRow, name: string, version: string, doer: Doer): void {
  deleteVersion(env, findVersion(env, findPackage(env, owner, "chef", name), version), doer);
}

/** Gitea's DeletePackage: every version of the cookbook (404 for none). */
export function deleteCookbook(env: Env, owner: UserRow, name: string, doer: Doer): void {
  for (const v of cookbookVersions(env, owner, name).versions) deleteVersion(env, v, doer);
}
