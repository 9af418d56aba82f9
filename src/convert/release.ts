import type { Settings } from "../config/settings.ts";
import type { ReleaseView } from "../services/release/releases.ts";
import { toRFC3339 } from "../lib/time.ts";
import { toAPIAttachment } from "./attachment.ts";
import { pathEscapeSegments, type RepoRef } from "./branch.ts";
import { repoLinks } from "./repo.ts";
import { toAPIUser } from "./user.ts";
import type { APIRelease } from "../shapes/release.ts";

/**
 * Gitea's ToAPIRelease: `published_at` is the creation time too, the publisher is shown as to an
 * anonymous viewer, and asset download links are `{ROOT_URL}attachments/{uuid}` (Gitea switches to
 * `/releases/download/{tag}/{name}` links when names are unique, a web route hearth does not serve).
 */
export function toAPIRelease(settings: Settings, rc: RepoRef, view: ReleaseView): APIRelease {
  const r = view.release;
  const links = repoLinks(settings, rc.owner.name, rc.repo.name);
  const url = `${links.url}/releases/${r.id}`;
  const tag = pathEscapeSegments(r.tagName);
  const created = toRFC3339(r.createdUnix);
  return {
    id: r.id,
    tag_name: r.tagName,
    target_commitish: r.target,
    name: r.title,
    body: r.note,
    url,
    html_url: `${links.html_url}/releases/tag/${tag}`,
    tarball_url: `${links.html_url}/archive/${tag}.tar.gz`,
    zipball_url: `${links.html_url}/archive/${tag}.zip`,
    upload_url: `${url}/assets`,
    draft: r.isDraft,
    prerelease: r.isPrerelease,
    created_at: created,
    published_at: created,
    author: toAPIUser(settings, view.publisher, undefined),
    assets: view.assets.map((a) => toAPIAttachment(settings, a)),
  };
}
