import type { Env } from "../../env.ts";
import { PackagePropertyRef, type PackageBlobRow, type PackageFileRow, type PackageRow, type PackageVersionRow, type UserRow } from "../../../db/schema/index.ts";
import * as pkgModel from "../../../models/package.ts";
import { NotFound } from "../../../lib/errors.ts";
import type { NpmMetadata } from "../../../lib/npm-package.ts";
import { compareVersions, parseSemver, type NpmVersion } from "../../../lib/npm-version.ts";
import { toRFC3339 } from "../../../lib/time.ts";

/** Gitea's npm.TagProperty: a version property per dist-tag pointing at it. */
export const NPM_TAG_PROPERTY = "npm.tag";

/** A published version with what its documents show: metadata, tags, and its tarball. */
export interface NpmVersionView {
  pkg: PackageRow;
  version: PackageVersionRow;
  semver: NpmVersion;
  metadata: NpmMetadata;
  tags: string[];
  file: { file: PackageFileRow; blob: PackageBlobRow } | undefined;
}

function metadataOf(version: PackageVersionRow): NpmMetadata {
  try {
    const m = JSON.parse(version.metadataJson || "{}") as NpmMetadata;
    return { ...m, repository: m.repository ?? { type: "", url: "" } };
  } catch {
    return { repository: { type: "", url: "" } };
  }
}

/**
 * Gitea's GetPackageDescriptors for an npm package: every public version with its metadata, its
 * dist-tags and its lead file, loaded in a constant number of queries, sorted by semantic version
 * (oldest first). Empty when the package does not exist.
 */
export function npmVersionViews(env: Env, owner: UserRow, name: string): NpmVersionView[] {
  const pkg = pkgModel.getPackage(env.db, owner.id, "npm", name);
  if (!pkg || pkg.isInternal) return [];
  const versions = pkgModel.listVersions(env.db, pkg.id).rows;
  return viewsOf(env, versions.map((version) => ({ pkg, version })));
}

function viewsOf(env: Env, rows: { pkg: PackageRow; version: PackageVersionRow }[]): NpmVersionView[] {
  const ids = rows.map((r) => r.version.id);
  const tags = new Map<number, string[]>();
  for (const p of pkgModel.listPropertiesOf(env.db, PackagePropertyRef.Version, ids)) {
    if (p.name === NPM_TAG_PROPERTY) tags.set(p.refId, [...(tags.get(p.refId) ?? []), p.value]);
  }
  const files = new Map<number, { file: PackageFileRow; blob: PackageBlobRow }>();
  for (const f of pkgModel.listFilesOf(env.db, ids)) {
    const seen = files.get(f.file.versionId);
    if (!seen || (f.file.isLead && !seen.file.isLead)) files.set(f.file.versionId, f);
  }
  const zero = parseSemver("0.0.0")!;
  return rows
    .map(({ pkg, version }) => ({
      pkg,
      version,
      semver: parseSemver(version.version) ?? zero,
      metadata: metadataOf(version),
      tags: tags.get(version.id) ?? [],
      file: files.get(version.id),
    }))
    .sort((a, b) => compareVersions(a.semver, b.semver) || a.version.id - b.version.id);
}

/** `{AppURL}api/packages/{owner}/npm`: the registry's root, as the documents name it. */
export function npmRegistryUrl(env: Env, owner: UserRow): string {
  return `${env.settings.server.rootUrl}api/packages/${owner.name}/npm`;
}

const utc = (unix: number) => new Date(unix * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");

/**
 * Gitea's createPackageMetadataVersion: one version's manifest as npm installs it, with `dist`
 * (sha1 `shasum`, sha512 `integrity` in base64, the tarball's URL under this registry).
 */
export function npmVersionDocument(registryUrl: string, owner: UserRow, v: NpmVersionView): Record<string, unknown> {
  const m = v.metadata;
  const name = v.pkg.name;
  const doc: Record<string, unknown> = {
    _id: `${name}@${v.version.version}`,
    name,
    version: v.version.version,
    description: m.description ?? "",
    author: { name: m.author ?? "" },
    homepage: m.project_url,
    license: m.license,
    repository: m.repository,
    keywords: m.keywords,
    dependencies: m.dependencies,
    bundleDependencies: m.bundleDependencies,
    devDependencies: m.development_dependencies,
    peerDependencies: m.peer_dependencies,
    peerDependenciesMeta: m.peer_dependencies_meta,
    optionalDependencies: m.optional_dependencies,
    bin: m.bin,
    hasInstallScript: m.has_install_script,
    engines: m.engines,
    cpu: m.cpu,
    os: m.os,
    libc: m.libc,
    directories: m.directories,
    funding: m.funding,
    deprecated: m.deprecated,
    maintainers: [{ name: owner.name }],
  };
  if (v.file) {
    const { file, blob } = v.file;
    doc.dist = {
      integrity: `sha512-${Buffer.from(blob.hashSha512, "hex").toString("base64")}`,
      shasum: blob.hashSha1,
      tarball: `${registryUrl}/${encodeURIComponent(name)}/-/${encodeURIComponent(v.version.version)}/${encodeURIComponent(file.lowerName)}`,
    };
  }
  for (const k of Object.keys(doc)) if (doc[k] === undefined) delete doc[k];
  return doc;
}

/**
 * Gitea's createPackageMetadataResponse: the package document (packument) of every version, its
 * dist-tags (`latest` made up from the highest release when no version carries it, as yarn and pnpm
 * need one), publication times, and the description of the `latest` version. 404 without versions.
 */
export function npmPackument(env: Env, owner: UserRow, name: string): Record<string, unknown> {
  const views = npmVersionViews(env, owner, name);
  if (!views.length) throw new NotFound("package does not exist");
  const registryUrl = npmRegistryUrl(env, owner);
  const versions: Record<string, unknown> = {};
  const distTags: Record<string, string> = {};
  const time: Record<string, string> = {};
  let latest: NpmVersionView | undefined;
  let first = views[0]!.version.createdUnix;
  let last = first;
  for (const v of views) {
    versions[v.version.version] = npmVersionDocument(registryUrl, owner, v);
    time[v.version.version] = utc(v.version.createdUnix);
    first = Math.min(first, v.version.createdUnix);
    last = Math.max(last, v.version.createdUnix);
    for (const tag of v.tags) {
      distTags[tag] = v.version.version;
      if (tag === "latest") latest = v;
    }
  }
  time.created = utc(first);
  time.modified = utc(last);
  if (!latest) {
    latest = [...views].reverse().find((v) => !v.semver.prerelease) ?? views[views.length - 1]!;
    distTags.latest = latest.version.version;
  }
  const m = latest.metadata;
  const doc: Record<string, unknown> = {
    _id: latest.pkg.name,
    name: latest.pkg.name,
    description: m.description ?? "",
    "dist-tags": distTags,
    versions,
    readme: m.readme || undefined,
    maintainers: [{ name: owner.name }],
    time,
    homepage: m.project_url,
    keywords: m.keywords,
    repository: m.repository,
    author: { name: m.author ?? "" },
    license: m.license,
  };
  for (const k of Object.keys(doc)) if (doc[k] === undefined) delete doc[k];
  return doc;
}

/** One version's manifest (`GET {pkg}/{version}`), the version named or the one a dist-tag points at. */
export function npmVersionManifest(env: Env, owner: UserRow, name: string, versionOrTag: string): Record<string, unknown> {
  const views = npmVersionViews(env, owner, name);
  const wanted = parseSemver(versionOrTag)?.text;
  const v =
    views.find((x) => x.version.version === (wanted ?? versionOrTag)) ??
    views.find((x) => x.tags.includes(versionOrTag)) ??
    (versionOrTag === "latest" ? ([...views].reverse().find((x) => !x.semver.prerelease) ?? views[views.length - 1]) : undefined);
  if (!v) throw new NotFound("package version does not exist");
  return npmVersionDocument(npmRegistryUrl(env, owner), owner, v);
}

/**
 * Gitea's PackageSearch (`-/v1/search`): the newest version of each package whose name contains
 * `text`, from `from`, `size` at a time (the API's default and maximum page sizes).
 */
export function npmSearch(env: Env, owner: UserRow, q: { text: string; from: number; size: number }): { objects: unknown[]; total: number } {
  const { defaultPagingNum, maxResponseItems } = env.settings.api;
  const limit = q.size <= 0 ? defaultPagingNum : Math.min(q.size, maxResponseItems);
  const found = pkgModel.searchLatestVersions(env.db, { ownerId: owner.id, type: "npm", query: q.text, offset: Math.max(0, q.from), limit });
  const objects = found.rows.map(({ pkg, version }) => {
    const m = metadataOf(version);
    return {
      package: {
        scope: m.scope || "unscoped",
        name: m.name ?? pkg.name,
        version: version.version,
        date: toRFC3339(version.createdUnix),
        description: m.description ?? "",
        author: { name: m.author ?? "" },
        publisher: { name: owner.name },
        maintainers: [],
        ...(m.keywords ? { keywords: m.keywords } : {}),
        links: {
          npm: `${env.settings.server.rootUrl}${owner.name}/-/packages/npm/${encodeURIComponent(pkg.name)}/${encodeURIComponent(version.version)}`,
          ...(m.project_url ? { homepage: m.project_url } : {}),
        },
      },
    };
  });
  return { objects, total: found.total };
}
