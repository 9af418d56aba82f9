import type { Settings } from "../config/settings.ts";
import type { UserRow } from "../db/schema/index.ts";
import type { PullBranchView, PullView } from "../services/pull/view.ts";
import type { ChangedPath } from "../git/pull-diff.ts";
import { toRFC3339 } from "../lib/time.ts";
import { toAPIIssue } from "./issue.ts";
import { repoLinks, toAPIRepo } from "./repo.ts";
import { toAPIUser } from "./user.ts";
import { toAPITeam } from "./team.ts";
import type { APIChangedFile, APIPRBranchInfo, APIPullRequest } from "../shapes/pull.ts";

/**
 * A page of pull requests shares its base (and mostly its head) repository: the view gives each
 * side once per page, so its JSON is built once per side, not twice per request.
 */
const repoJson = new WeakMap<NonNullable<PullBranchView["side"]>, ReturnType<typeof toAPIRepo>>();
function sideRepo(settings: Settings, side: NonNullable<PullBranchView["side"]>) {
  let json = repoJson.get(side);
  if (!json) repoJson.set(side, (json = toAPIRepo(settings, side)));
  return json;
}

function branchInfo(settings: Settings, b: PullBranchView): APIPRBranchInfo {
  return {
    label: b.branch,
    ref: b.ref,
    sha: b.sha,
    // Gitea leaves -1 when the head repository is gone.
    repo_id: b.side ? b.side.repo.id : -1,
    repo: b.side ? sideRepo(settings, b.side) : null,
  };
}

/**
 * Gitea's convert.ToAPIPullRequest. `url` is the web page, as Gitea has it; additions, deletions
 * and changed_files are filled for a single request only (null in lists, as Gitea).
 */
export function toAPIPullRequest(settings: Settings, v: PullView, doer: UserRow | undefined): APIPullRequest {
  const issue = toAPIIssue(settings, v.issue, doer);
  const { pull } = v;
  const page = `${repoLinks(settings, v.issue.owner.name, v.issue.repo.name).html_url}/pulls/${pull.index}`;
  return {
    id: pull.id,
    url: page,
    number: pull.index,
    user: issue.user,
    title: issue.title,
    body: issue.body,
    labels: issue.labels,
    milestone: issue.milestone,
    assignee: issue.assignee,
    assignees: issue.assignees ?? [],
    requested_reviewers: v.requestedReviewers.map((u) => toAPIUser(settings, u, undefined)),
    requested_reviewers_teams: v.requestedTeams.map((t) => toAPITeam(settings, t.team, t.units, t.org)),
    state: issue.state,
    draft: v.draft,
    is_locked: issue.is_locked,
    comments: issue.comments,
    review_comments: v.reviewComments,
    additions: v.stats ? v.stats.additions : null,
    deletions: v.stats ? v.stats.deletions : null,
    changed_files: v.stats ? v.stats.changedFiles : null,
    html_url: page,
    diff_url: `${page}.diff`,
    patch_url: `${page}.patch`,
    mergeable: v.mergeable,
    merged: pull.hasMerged,
    merged_at: pull.hasMerged ? toRFC3339(pull.mergedUnix) : null,
    merge_commit_sha: pull.hasMerged ? pull.mergedCommitId : null,
    merged_by: v.merger ? toAPIUser(settings, v.merger, undefined) : null,
    allow_maintainer_edit: pull.allowMaintainerEdit,
    base: branchInfo(settings, v.base),
    head: branchInfo(settings, v.head),
    merge_base: pull.mergeBase,
    due_date: issue.due_date,
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    closed_at: issue.closed_at,
    pin_order: issue.pin_order,
  };
}

const escapePath = (p: string) => p.split("/").map(encodeURIComponent).join("/");

/** Gitea's convert.ToChangedFile: links point at the head repository at the head commit. */
export function toAPIChangedFile(settings: Settings, f: ChangedPath, head: { owner: string; repo: string }, commit: string): APIChangedFile {
  let status = "changed";
  let previous = "";
  if (f.status === "D") status = "deleted";
  else if (f.status === "A") status = "added";
  else if (f.status === "C") status = "copied";
  else if (f.status === "R") {
    status = "renamed";
    previous = f.oldPath ?? "";
  } else if (f.additions === 0 && f.deletions === 0) status = "unchanged";
  const links = repoLinks(settings, head.owner, head.repo);
  const path = escapePath(f.path);
  return {
    filename: f.path,
    // omitempty in Gitea.
    ...(previous ? { previous_filename: previous } : {}),
    status,
    additions: f.additions,
    deletions: f.deletions,
    changes: f.additions + f.deletions,
    html_url: `${links.html_url}/src/commit/${commit}/${path}`,
    contents_url: `${links.url}/contents/${path}?ref=${commit}`,
    raw_url: `${links.html_url}/raw/commit/${commit}/${path}`,
  };
}
