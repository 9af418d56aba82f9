import type { Settings } from "../config/settings.ts";
import type { CommitStatusRow, UserRow } from "../db/schema/index.ts";
import { toRFC3339 } from "../lib/time.ts";
import { goPathEscape } from "./branch.ts";
import { repoLinks, toAPIRepo, type RepoView } from "./repo.ts";
import { toAPIUser } from "./user.ts";
import type { APICommitStatus } from "../shapes/status.ts";

/**
 * Gitea's ToCommitStatus: `id` is the status's index within its commit, the state is reported
 * under `status`, and `updated_at` repeats the creation time as Gitea does.
 */
export function toAPICommitStatus(settings: Settings, repo: RepoView, row: CommitStatusRow, creator: UserRow | undefined): APICommitStatus {
  const links = repoLinks(settings, repo.owner.name, repo.repo.name);
  return {
    id: row.index,
    status: row.state,
    target_url: row.targetUrl,
    description: row.description,
    url: `${links.url}/statuses/${goPathEscape(row.sha)}`,
    context: row.context,
    creator: creator ? toAPIUser(settings, creator, undefined) : null,
    created_at: toRFC3339(row.createdUnix),
    updated_at: toRFC3339(row.createdUnix),
  };
}

/**
 * Gitea's ToCombinedStatus for a commit: without any status Gitea leaves the state empty and the
 * statuses null. `total_count` counts the statuses of this page, as Gitea's does.
 */
export function toAPICombinedStatus(
  settings: Settings,
  repo: RepoView,
  sha: string,
  state: string | undefined,
  rows: CommitStatusRow[],
  creators: Map<number, UserRow>,
) {
  const apiRepo = toAPIRepo(settings, repo);
  return {
    state: state ?? "",
    sha,
    total_count: rows.length,
    statuses: rows.length ? rows.map((r) => toAPICommitStatus(settings, repo, r, creators.get(r.creatorId))) : null,
    repository: apiRepo,
    commit_url: `${apiRepo.url}/commits/${goPathEscape(sha)}`,
    url: `${apiRepo.url}/commits/${goPathEscape(sha)}/status`,
  };
}
