import type { Env } from "../../env.ts";
import type { PackageBlobRow, PackageFileRow, PackageVersionRow, UserRow } from "../../../db/schema/index.ts";
import { html, join } from "../../../lib/html.ts";
import { canonicalName } from "../../../lib/pypi.ts";
import { NotFound } from "../../../lib/errors.ts";
import { findFile, findPackage, findVersion, listPackageVersions, versionFiles } from "../lookup.ts";
import { parseMetadata } from "./metadata.ts";

/** The registry's root URL for an owner, as Gitea's template gets it. */
export function registryUrl(env: Env, owner: UserRow): string {
  return `${env.settings.server.rootUrl}api/packages/${owner.name}/pypi`;
}

/** Go's strings.Compare on two versions: Gitea orders the simple page by the versions' bytes. */
function byVersionText(a: PackageVersionRow, b: PackageVersionRow): number {
  return a.version < b.version ? -1 : a.version > b.version ? 1 : 0;
}

/**
 * PEP 503's project page (`/simple/{id}/`) as Gitea's template writes it: every file of every
 * version, oldest version text first, linked to its download with `#sha256=` and the version's
 * `data-requires-python`. `id` is found by its normalised name; a project without versions is 404.
 */
export function simpleProjectPage(env: Env, owner: UserRow, id: string): string {
  const pkg = findPackage(env, owner, "pypi", canonicalName(id));
  const versions = listPackageVersions(env, pkg).rows.sort(byVersionText);
  if (!versions.length) throw new NotFound("package does not exist");
  const base = registryUrl(env, owner);
  const links = versions.flatMap((v) => {
    const requiresPython = parseMetadata(v.metadataJson).requires_python;
    return versionFiles(env, v).map(({ file, blob }) => {
      const href = `${base}/files/${encodeURIComponent(pkg.lowerName)}/${encodeURIComponent(v.version)}/${encodeURIComponent(file.name)}#sha256=${blob.hashSha256}`;
      return html`\t\t<a href="${href}"${requiresPython ? html` data-requires-python="${requiresPython}"` : ""}>${file.name}</a><br>\n`;
    });
  });
  return html`<!DOCTYPE html>
<html>
\t<head>
\t\t<title>Links for ${pkg.name}</title>
\t</head>
\t<body>
\t\t<h1>Links for ${pkg.name}</h1>
${join(links)}\t</body>
</html>
`.value;
}

/** A file of a version for download (`/files/{id}/{version}/{filename}`), the project found by its normalised name. */
export function findDistribution(
  env: Env,
  owner: UserRow,
  id: string,
  version: string,
  filename: string,
): { version: PackageVersionRow; file: PackageFileRow; blob: PackageBlobRow } {
  const v = findVersion(env, findPackage(env, owner, "pypi", canonicalName(id)), version);
  return { version: v, ...findFile(env, v, filename) };
}
