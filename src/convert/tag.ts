import type { Settings } from "../config/settings.ts";
import type { TagInfo } from "../services/repo/tags.ts";
import type { AnnotatedTagView } from "../services/repo/tags.ts";
import type { RefEntry } from "../git/reflist.ts";
import { repoLinks } from "./repo.ts";
import { type RepoRef, gitTimeRFC3339, gitTimeUTC, goPathEscape, pathEscapeSegments, unsignedVerification } from "./branch.ts";
import type { APIAnnotatedTag, APIReference, APITag } from "../shapes/branch.ts";

/**
 * Gitea's ToTag. Quirks kept: `commit.url` names the tag's own id (the tag object for an
 * annotated tag), `commit.created` is the tagger's time, and a lightweight tag's message is its
 * commit's message.
 */
export function toAPITag(settings: Settings, rc: RepoRef, tag: TagInfo): APITag {
  const links = repoLinks(settings, rc.owner.name, rc.repo.name);
  return {
    name: tag.name,
    message: tag.message.trim(),
    id: tag.id,
    commit: {
      url: `${links.url}/git/commits/${tag.id}`,
      sha: tag.object,
      created: gitTimeRFC3339(tag.tagger),
    },
    zipball_url: `${links.html_url}/archive/${goPathEscape(`${tag.name}.zip`)}`,
    tarball_url: `${links.html_url}/archive/${goPathEscape(`${tag.name}.tar.gz`)}`,
  };
}

/** Gitea's ToAnnotatedTag: the tag object, the commit it leads to, the tagger's date in UTC. */
export function toAPIAnnotatedTag(settings: Settings, rc: RepoRef, view: AnnotatedTagView): APIAnnotatedTag {
  const links = repoLinks(settings, rc.owner.name, rc.repo.name);
  const t = view.tag;
  return {
    tag: view.name,
    sha: t.sha,
    url: `${links.url}/git/tags/${t.sha}`,
    message: t.message,
    tagger: {
      name: t.tagger?.name ?? "",
      email: t.tagger?.email ?? "",
      date: gitTimeUTC(t.tagger),
    },
    object: {
      type: "commit",
      url: `${links.url}/git/commits/${view.commit.id}`,
      sha: view.commit.id,
    },
    verification: unsignedVerification(),
  };
}

/** Gitea's Reference: the ref, its API URL, and the object it points at. */
export function toAPIReference(settings: Settings, rc: RepoRef, ref: RefEntry): APIReference {
  const api = repoLinks(settings, rc.owner.name, rc.repo.name).url;
  return {
    ref: ref.name,
    url: `${api}/git/${pathEscapeSegments(ref.name)}`,
    object: {
      type: ref.type,
      sha: ref.sha,
      url: `${api}/git/${ref.type}s/${ref.sha}`,
    },
  };
}
