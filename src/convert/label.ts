import type { Settings } from "../config/settings.ts";
import type { LabelRow } from "../db/schema/index.ts";
import { repoLinks } from "./repo.ts";
import type { APILabel } from "../shapes/issue.ts";

/** Where a label lives, for its `url`: a repository (owner/name) or an organization (name). */
export type LabelHome = { owner: string; repo: string } | { org: string };

/** Gitea's convert.ToLabel: the color without its `#`, the url under the repository or organization API. */
export function toAPILabel(settings: Settings, label: LabelRow, home: LabelHome): APILabel {
  const base =
    "org" in home
      ? `${settings.server.rootUrl}api/v1/orgs/${encodeURIComponent(home.org)}`
      : repoLinks(settings, home.owner, home.repo).url;
  return {
    id: label.id,
    name: label.name,
    exclusive: label.exclusive,
    is_archived: label.archivedUnix > 0,
    color: label.color.replace(/^#/, ""),
    description: label.description,
    url: `${base}/labels/${label.id}`,
  };
}

/** A label as seen from a repository: its own labels under the repository, its organization's under the organization. */
export function toAPIRepoLabel(settings: Settings, label: LabelRow, ownerName: string, repoName: string): APILabel {
  return toAPILabel(settings, label, label.repoId > 0 ? { owner: ownerName, repo: repoName } : { org: ownerName });
}
