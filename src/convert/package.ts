import type { Settings } from "../config/settings.ts";
import type { UserRow } from "../db/schema/index.ts";
import type { LinkedRepoView, PackageFileView, PackageView } from "../services/packages/api.ts";
import { toRFC3339 } from "../lib/time.ts";
import { goPathEscape } from "./branch.ts";
import { toAPIRepo } from "./repo.ts";
import { toAPIUser } from "./user.ts";
import type { APIPackage, APIPackageFile } from "../shapes/package.ts";
import type { APIRepository } from "../shapes/repo.ts";

/**
 * Gitea's PackageDescriptor.VersionHTMLURL: `{ROOT_URL}{owner}/-/packages/{type}/{name}/{version}`,
 * with the lower-cased name and version, each one escaped path segment.
 */
export function packageVersionHtmlUrl(settings: Settings, owner: Pick<UserRow, "name">, view: Pick<PackageView, "pkg" | "version">): string {
  const base = `${settings.server.rootUrl}${goPathEscape(owner.name)}/-/packages/${view.pkg.type}/${goPathEscape(view.pkg.lowerName)}`;
  return `${base}/${goPathEscape(view.version.lowerVersion)}`;
}

function repoJson(settings: Settings, linked: LinkedRepoView): APIRepository {
  const { rc, topics, parent } = linked;
  // Gitea renders a fork's parent with the fork's permission.
  const parentJson = parent && toAPIRepo(settings, { ...parent.rc, perm: rc.perm, topics: parent.topics });
  return toAPIRepo(settings, { ...rc, topics, ...(parentJson ? { parent: parentJson } : {}) });
}

/**
 * Gitea's convert.ToPackage: a package version as `viewer` sees it. The id is the version's; the
 * repository is shown only to a viewer with access to it (the view leaves it out otherwise).
 */
export function toAPIPackage(settings: Settings, view: PackageView, viewer: UserRow | undefined): APIPackage {
  return {
    id: view.version.id,
    owner: toAPIUser(settings, view.owner, viewer),
    repository: view.repo ? repoJson(settings, view.repo) : null,
    creator: toAPIUser(settings, view.creator, viewer),
    type: view.pkg.type,
    name: view.pkg.name,
    version: view.version.version,
    html_url: packageVersionHtmlUrl(settings, view.owner, view),
    created_at: toRFC3339(view.version.createdUnix),
  };
}

/** Gitea's convert.ToPackageFile: the file's name, its blob's size and hashes. */
export function toAPIPackageFile(view: PackageFileView): APIPackageFile {
  const { file, blob } = view;
  return {
    id: file.id,
    size: blob.size,
    name: file.name,
    md5: blob.hashMd5,
    sha1: blob.hashSha1,
    sha256: blob.hashSha256,
    sha512: blob.hashSha512,
  };
}
