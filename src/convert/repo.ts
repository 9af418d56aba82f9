import type { Settings } from "../config/settings.ts";
import type { PullMirrorRow, RepoRow, UserRow } from "../db/schema/index.ts";
import { visibilityName } from "../services/user/visibility.ts";
import type { RepoPermission } from "../services/access/permission.ts";
import { toRFC3339 } from "../lib/time.ts";
import { formatGoDuration } from "../config/go-duration.ts";
import { toAPIUser, toAPIUserWithAccess } from "./user.ts";
import type { APIRepository } from "../shapes/repo.ts";
import type { APIUser } from "../shapes/user.ts";

export interface RepoView {
  repo: RepoRow;
  owner: UserRow;
  perm: RepoPermission;
  topics: string[];
  /** The fork's parent, already converted (Gitea nests it one level). */
  parent?: APIRepository;
  /** A transfer waiting for its recipient (Gitea's `repo_transfer`, only while pending). */
  transfer?: { doer: UserRow; recipient: UserRow };
  /** A pull mirror's row (only for a repository that is one): its interval and last sync. */
  mirror?: Pick<PullMirrorRow, "intervalNs" | "updatedUnix">;
}

const GO_ZERO_TIME = "0001-01-01T00:00:00Z";

export function repoLinks(settings: Settings, ownerName: string, name: string) {
  const root = settings.server.rootUrl;
  const path = `${encodeURIComponent(ownerName)}/${encodeURIComponent(name)}`;
  return {
    html_url: `${root}${path}`,
    clone_url: `${root}${path}.git`,
    url: `${root}api/v1/repos/${path}`,
    languages_url: `${root}api/v1/repos/${path}/languages`,
  };
}

/** Gitea's convert.ToRepo: one shape for every endpoint that returns a Repository. */
export function toAPIRepo(settings: Settings, view: RepoView): APIRepository {
  const { repo, owner, perm } = view;
  const links = repoLinks(settings, owner.name, repo.name);
  const hasExternalTracker = repo.hasIssues && repo.externalTrackerUrl !== "";
  const hasExternalWiki = repo.hasWiki && repo.externalWikiUrl !== "";
  const ownerJson: APIUser = toAPIUserWithAccess(settings, owner, perm.hasAccess());
  return {
    id: repo.id,
    owner: ownerJson,
    name: repo.name,
    full_name: `${owner.name}/${repo.name}`,
    description: repo.description,
    empty: repo.isEmpty,
    private: repo.isPrivate,
    fork: repo.isFork,
    template: repo.isTemplate,
    ...(view.parent ? { parent: view.parent } : {}),
    mirror: repo.isMirror,
    size: Math.ceil(repo.size / 1024),
    language: "",
    languages_url: links.languages_url,
    html_url: links.html_url,
    url: links.url,
    link: "",
    ssh_url: "",
    clone_url: links.clone_url,
    original_url: repo.originalUrl,
    website: repo.website,
    stars_count: repo.numStars,
    forks_count: repo.numForks,
    watchers_count: repo.numWatches,
    open_issues_count: repo.numIssues - repo.numClosedIssues,
    open_pr_counter: repo.numPulls - repo.numClosedPulls,
    release_counter: repo.numReleases,
    default_branch: repo.defaultBranch,
    archived: repo.isArchived,
    created_at: toRFC3339(repo.createdUnix),
    updated_at: toRFC3339(repo.updatedUnix),
    archived_at: toRFC3339(repo.archivedUnix),
    permissions: { admin: perm.isAdmin(), push: perm.canWrite("code"), pull: perm.canRead("code") },
    has_code: repo.hasCode,
    has_issues: repo.hasIssues,
    ...(repo.hasIssues && !hasExternalTracker
      ? {
          internal_tracker: {
            enable_time_tracker: repo.enableTimeTracker,
            allow_only_contributors_to_track_time: repo.allowOnlyContributorsToTrackTime,
            enable_issue_dependencies: repo.enableIssueDependencies,
          },
        }
      : {}),
    ...(hasExternalTracker
      ? {
          external_tracker: {
            external_tracker_url: repo.externalTrackerUrl,
            external_tracker_format: repo.externalTrackerFormat,
            external_tracker_style: repo.externalTrackerStyle,
            external_tracker_regexp_pattern: repo.externalTrackerRegexpPattern,
          },
        }
      : {}),
    has_wiki: repo.hasWiki,
    ...(hasExternalWiki ? { external_wiki: { external_wiki_url: repo.externalWikiUrl } } : {}),
    has_pull_requests: repo.hasPullRequests,
    has_projects: repo.hasProjects,
    projects_mode: repo.projectsMode,
    has_releases: repo.hasReleases,
    has_packages: repo.hasPackages,
    has_actions: repo.hasActions,
    ignore_whitespace_conflicts: repo.ignoreWhitespaceConflicts,
    allow_merge_commits: repo.allowMergeCommits,
    allow_rebase: repo.allowRebase,
    allow_rebase_explicit: repo.allowRebaseExplicit,
    allow_squash_merge: repo.allowSquashMerge,
    allow_fast_forward_only_merge: repo.allowFastForwardOnlyMerge,
    allow_rebase_update: repo.allowRebaseUpdate,
    allow_manual_merge: repo.allowManualMerge,
    autodetect_manual_merge: repo.autodetectManualMerge,
    default_delete_branch_after_merge: repo.defaultDeleteBranchAfterMerge,
    default_merge_style: repo.defaultMergeStyle,
    default_allow_maintainer_edit: repo.defaultAllowMaintainerEdit,
    // Gitea's AvatarLink with the default fallback ("none"): empty until one is uploaded.
    avatar_url: repo.avatar ? `${settings.server.rootUrl}repo-avatars/${encodeURIComponent(repo.avatar)}` : "",
    // Gitea: a public repository whose owner is private is "internal" (visible to the owner's members only).
    internal: !repo.isPrivate && visibilityName(owner.visibility) === "private",
    // Gitea's Duration.String() ("8h0m0s") and the last sync, for a pull mirror only.
    mirror_interval: repo.isMirror && view.mirror ? formatGoDuration(view.mirror.intervalNs) : "",
    object_format_name: repo.objectFormat,
    mirror_updated: repo.isMirror && view.mirror ? toRFC3339(view.mirror.updatedUnix) : GO_ZERO_TIME,
    // Gitea shows the transfer's users as an anonymous caller would see them; no teams without organizations.
    ...(view.transfer
      ? {
          repo_transfer: {
            doer: toAPIUser(settings, view.transfer.doer, undefined),
            recipient: toAPIUser(settings, view.transfer.recipient, undefined),
            teams: [] as { id: number; name: string }[],
          },
        }
      : {}),
    topics: view.topics,
    licenses: [] as string[],
  };
}
