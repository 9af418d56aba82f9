import { existsSync } from "node:fs";
import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import type { NewRepoRow } from "../../db/schema/index.ts";
import * as repos from "../../models/repo.ts";
import * as branchModel from "../../models/branch.ts";
import { clearRepoStars } from "../../models/star.ts";
import { Invalid } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { moveRepo, setHead } from "../../git/repo-init.ts";
import { repoNameProblem } from "./names.ts";
import { gitDirOf } from "./lookup.ts";
import type { Administers } from "../access/repo-access.ts";

export interface EditRepoInput {
  name?: string | null;
  description?: string | null;
  website?: string | null;
  private?: boolean | null;
  template?: boolean | null;
  has_code?: boolean | null;
  has_issues?: boolean | null;
  internal_tracker?: {
    enable_time_tracker?: boolean | null;
    allow_only_contributors_to_track_time?: boolean | null;
    enable_issue_dependencies?: boolean | null;
  } | null;
  external_tracker?: {
    external_tracker_url: string;
    external_tracker_format?: string | null;
    external_tracker_style?: string | null;
    external_tracker_regexp_pattern?: string | null;
  } | null;
  has_wiki?: boolean | null;
  external_wiki?: { external_wiki_url: string } | null;
  default_branch?: string | null;
  has_pull_requests?: boolean | null;
  has_projects?: boolean | null;
  projects_mode?: string | null;
  has_releases?: boolean | null;
  has_packages?: boolean | null;
  has_actions?: boolean | null;
  ignore_whitespace_conflicts?: boolean | null;
  allow_merge_commits?: boolean | null;
  allow_rebase?: boolean | null;
  allow_rebase_explicit?: boolean | null;
  allow_squash_merge?: boolean | null;
  allow_fast_forward_only_merge?: boolean | null;
  allow_manual_merge?: boolean | null;
  autodetect_manual_merge?: boolean | null;
  allow_rebase_update?: boolean | null;
  default_delete_branch_after_merge?: boolean | null;
  default_merge_style?: string | null;
  default_allow_maintainer_edit?: boolean | null;
  archived?: boolean | null;
}

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

/** Gitea's placeholders for an external tracker's issue link. */
function validTrackerFormat(format: string): boolean {
  const placeholders = format.match(/\{[^}]*\}/g) ?? [];
  return placeholders.every((p) => ["{user}", "{repo}", "{index}"].includes(p));
}

const given = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null;

/**
 * Gitea's repository edit: only given fields change. Unlike Gitea, the database changes land in
 * one transaction, so a request refused half-way (a taken name, an invalid tracker URL) changes
 * nothing; a rename also moves the git directory and leaves a redirect from the old name.
 */
export async function editRepo(env: Env, rc: Administers, input: EditRepoInput): Promise<void> {
  const { repo, owner } = rc;
  const patch: Partial<NewRepoRow> = { updatedUnix: nowUnix() };

  let rename: string | undefined;
  if (given(input.name) && input.name !== repo.name) {
    const problem = repoNameProblem(input.name);
    if (problem) throw new Invalid(problem);
    if (input.name.toLowerCase() !== repo.lowerName) rename = input.name;
    patch.name = input.name;
    patch.lowerName = input.name.toLowerCase();
  }
  if (given(input.description)) patch.description = input.description;
  if (given(input.website)) patch.website = input.website;
  if (given(input.private)) {
    // A fork keeps its base repository's visibility, as in Gitea.
    const base = repo.isFork && repo.forkId ? repos.getRepoById(env.db, repo.forkId) : undefined;
    patch.isPrivate = base ? base.isPrivate : input.private;
  }
  if (given(input.template)) patch.isTemplate = input.template;

  if (given(input.default_branch) && input.default_branch !== repo.defaultBranch) {
    // Gitea only moves the default branch to a branch that exists (or anywhere while empty).
    if (repo.isEmpty || branchModel.getBranch(env.db, repo.id, input.default_branch)) {
      patch.defaultBranch = input.default_branch;
    }
  }

  if (given(input.has_issues)) {
    patch.hasIssues = input.has_issues;
    if (input.has_issues && given(input.external_tracker)) {
      const t = input.external_tracker;
      if (!isHttpUrl(t.external_tracker_url)) throw new Invalid("External tracker URL not valid");
      if (t.external_tracker_format && !validTrackerFormat(t.external_tracker_format)) {
        throw new Invalid("External tracker URL format not valid");
      }
      patch.externalTrackerUrl = t.external_tracker_url;
      patch.externalTrackerFormat = t.external_tracker_format ?? "";
      patch.externalTrackerStyle = t.external_tracker_style ?? "numeric";
      patch.externalTrackerRegexpPattern = t.external_tracker_regexp_pattern ?? "";
    } else if (input.has_issues) {
      patch.externalTrackerUrl = "";
      const it = input.internal_tracker;
      if (it) {
        if (given(it.enable_time_tracker)) patch.enableTimeTracker = it.enable_time_tracker;
        if (given(it.allow_only_contributors_to_track_time)) {
          patch.allowOnlyContributorsToTrackTime = it.allow_only_contributors_to_track_time;
        }
        if (given(it.enable_issue_dependencies)) patch.enableIssueDependencies = it.enable_issue_dependencies;
      }
    } else {
      patch.externalTrackerUrl = "";
    }
  }
  if (given(input.has_wiki)) {
    patch.hasWiki = input.has_wiki;
    if (input.has_wiki && given(input.external_wiki)) {
      if (!isHttpUrl(input.external_wiki.external_wiki_url)) throw new Invalid("Invalid external wiki URL");
      patch.externalWikiUrl = input.external_wiki.external_wiki_url;
    } else {
      patch.externalWikiUrl = "";
    }
  }
  if (given(input.has_code)) patch.hasCode = input.has_code;
  if (given(input.has_projects)) {
    patch.hasProjects = input.has_projects;
    if (given(input.projects_mode)) patch.projectsMode = input.projects_mode;
  }
  if (given(input.has_releases)) patch.hasReleases = input.has_releases;
  if (given(input.has_packages)) patch.hasPackages = input.has_packages;
  if (given(input.has_actions)) patch.hasActions = input.has_actions;
  if (given(input.has_pull_requests)) {
    patch.hasPullRequests = input.has_pull_requests;
    // Gitea applies the pull request settings only together with has_pull_requests = true.
    if (input.has_pull_requests) {
      const pr: [keyof EditRepoInput, keyof NewRepoRow][] = [
        ["ignore_whitespace_conflicts", "ignoreWhitespaceConflicts"],
        ["allow_merge_commits", "allowMergeCommits"],
        ["allow_rebase", "allowRebase"],
        ["allow_rebase_explicit", "allowRebaseExplicit"],
        ["allow_squash_merge", "allowSquashMerge"],
        ["allow_fast_forward_only_merge", "allowFastForwardOnlyMerge"],
        ["allow_manual_merge", "allowManualMerge"],
        ["autodetect_manual_merge", "autodetectManualMerge"],
        ["allow_rebase_update", "allowRebaseUpdate"],
        ["default_delete_branch_after_merge", "defaultDeleteBranchAfterMerge"],
        ["default_allow_maintainer_edit", "defaultAllowMaintainerEdit"],
      ];
      for (const [from, to] of pr) {
        const value = input[from];
        if (typeof value === "boolean") (patch as Record<string, unknown>)[to] = value;
      }
      if (given(input.default_merge_style)) patch.defaultMergeStyle = input.default_merge_style;
    }
  }
  if (given(input.archived) && input.archived !== repo.isArchived) {
    patch.isArchived = input.archived;
    patch.archivedUnix = input.archived ? nowUnix() : 0;
  }

  const oldPath = gitDirOf(env, owner, repo);
  const newPath = rename ? gitDirOf(env, owner, { name: rename }) : oldPath;
  if (rename) {
    if (repos.getRepoByOwner(env.db, owner.id, rename) || existsSync(newPath)) {
      throw new Invalid(`repository already exists [uname: ${owner.name}, name: ${rename.toLowerCase()}]`);
    }
    moveRepo(oldPath, newPath);
  }
  try {
    writeTx(env.db, (tx) => {
      if (rename && repos.getRepoByOwner(tx, owner.id, rename)) {
        throw new Invalid(`repository already exists [uname: ${owner.name}, name: ${rename.toLowerCase()}]`);
      }
      repos.updateRepo(tx, repo.id, patch);
      // Gitea clears the stars of a repository that becomes private.
      if (patch.isPrivate && !repo.isPrivate) clearRepoStars(tx, repo.id);
      if (rename) {
        repos.dropRedirect(tx, owner.id, rename);
        repos.putRedirect(tx, owner.id, repo.name, repo.id);
      }
    });
  } catch (err) {
    if (rename) moveRepo(newPath, oldPath);
    throw err;
  }
  if (patch.defaultBranch) await setHead(newPath, patch.defaultBranch);
}
