import type { Env } from "../../env.ts";
import type { PackageBlobRow, PackageFileRow, PackageVersionRow, UserRow } from "../../../db/schema/index.ts";
import { PackagePropertyRef } from "../../../db/schema/index.ts";
import * as pkgModel from "../../../models/package.ts";
import { NotFound } from "../../../lib/errors.ts";
import { CondaProperty, type CondaFileMetadata, type CondaVersionMetadata } from "../../../lib/conda.ts";

/** One package file's entry in repodata.json (Gitea's PackageInfo, its field order). */
export interface CondaPackageInfo {
  name: string;
  version: string;
  noarch: string;
  subdir: string;
  timestamp: number;
  build: string;
  build_number: number;
  depends: string[];
  license: string;
  license_family: string;
  md5: string;
  sha256: string;
  size: number;
}

export interface CondaRepoData {
  info: { subdir: string };
  packages: Record<string, CondaPackageInfo>;
  "packages.conda": Record<string, CondaPackageInfo>;
  removed: Record<string, CondaPackageInfo>;
}

function parse<T>(json: string | undefined, fallback: T): T {
  try {
    return json ? (JSON.parse(json) as T) : fallback;
  } catch {
    return fallback;
  }
}

/**
 * Gitea's EnumeratePackages: every file of the owner's conda packages in `channel` and `subdir`,
 * `.tar.bz2` ones under `packages` and `.conda` ones under `packages.conda`, keyed by file name.
 * A subdir without files is a 404. `depends` is a list even when the package declares none (Go
 * would write null, which conda's solver does not take).
 */
export function condaRepoData(env: Env, owner: UserRow, channel: string, subdir: string): CondaRepoData {
  const files = pkgModel.searchCondaFiles(env.db, { ownerId: owner.id, channel, subdir });
  if (!files.length) throw new NotFound("");
  const repo: CondaRepoData = { info: { subdir }, packages: {}, "packages.conda": {}, removed: {} };
  const names = new Map<number, string>();
  for (const { file, blob, version } of files) {
    let name = names.get(version.packageId);
    if (name === undefined) {
      name = pkgModel.listProperties(env.db, PackagePropertyRef.Package, version.packageId).find((p) => p.name === CondaProperty.name)?.value ?? "";
      names.set(version.packageId, name);
    }
    const fileMeta = parse<CondaFileMetadata>(
      pkgModel.listProperties(env.db, PackagePropertyRef.File, file.id).find((p) => p.name === CondaProperty.metadata)?.value,
      { is_conda: file.name.endsWith(".conda") },
    );
    const versionMeta = parse<CondaVersionMetadata>(version.metadataJson, {});
    const info: CondaPackageInfo = {
      name,
      version: version.version,
      noarch: fileMeta.noarch ?? "",
      subdir,
      timestamp: fileMeta.timestamp ?? 0,
      build: fileMeta.build ?? "",
      build_number: fileMeta.build_number ?? 0,
      depends: fileMeta.dependencies ?? [],
      license: versionMeta.license ?? "",
      license_family: versionMeta.license_family ?? "",
      md5: blob.hashMd5,
      sha256: blob.hashSha256,
      size: blob.size,
    };
    (fileMeta.is_conda ? repo["packages.conda"] : repo.packages)[file.name] = info;
  }
  return repo;
}

/** Gitea's conda DownloadPackageFile lookup: exactly one file of that name in the channel and subdir, else 404. */
export function findCondaFile(
  env: Env,
  owner: UserRow,
  channel: string,
  subdir: string,
  filename: string,
): { file: PackageFileRow; blob: PackageBlobRow; version: PackageVersionRow } {
  const files = pkgModel.searchCondaFiles(env.db, { ownerId: owner.id, channel, subdir, filename });
  if (files.length !== 1) throw new NotFound("");
  return files[0]!;
}
