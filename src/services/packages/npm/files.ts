import type { Env } from "../../env.ts";
import type { PackageBlobRow, PackageFileRow, PackageVersionRow, UserRow } from "../../../db/schema/index.ts";
import { NotFound } from "../../../lib/errors.ts";
import { parseSemver } from "../../../lib/npm-version.ts";
import { findFile, findPackage, findVersion } from "../lookup.ts";
import { npmVersionViews } from "./documents.ts";

export interface NpmTarball {
  version: PackageVersionRow;
  file: PackageFileRow;
  blob: PackageBlobRow;
}

/**
 * The tarball a client asks for: by version and file name (Gitea's DownloadPackageFile), or by file
 * name alone (DownloadPackageFileByName: the one version holding a file of that name).
 */
export function findNpmTarball(env: Env, owner: UserRow, name: string, version: string | undefined, filename: string): NpmTarball {
  if (version !== undefined) {
    const v = findVersion(env, findPackage(env, owner, "npm", name), parseSemver(version)?.text ?? version);
    return { version: v, ...findFile(env, v, filename) };
  }
  const lower = filename.toLowerCase();
  const holders = npmVersionViews(env, owner, name).filter((v) => v.file?.file.lowerName === lower);
  const only = holders.length === 1 ? holders[0] : undefined;
  if (!only?.file) throw new NotFound("package file does not exist");
  return { version: only.version, ...only.file };
}
