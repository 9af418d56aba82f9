import * as v from "valibot";
import { named } from "./registry.ts";
import { maxString, opt, requiredString } from "./common.ts";
import { User } from "./user.ts";

const Permission = named("Permission", v.object({ admin: v.boolean(), push: v.boolean(), pull: v.boolean() }));
const InternalTracker = named(
  "InternalTracker",
  v.object({
    enable_time_tracker: v.boolean(),
    allow_only_contributors_to_track_time: v.boolean(),
    enable_issue_dependencies: v.boolean(),
  }),
);
const ExternalTracker = named(
  "ExternalTracker",
  v.object({
    external_tracker_url: v.string(),
    external_tracker_format: v.string(),
    external_tracker_style: v.string(),
    external_tracker_regexp_pattern: v.string(),
  }),
);
const ExternalWiki = named("ExternalWiki", v.object({ external_wiki_url: v.string() }));
const RepoTransfer = named(
  "RepoTransfer",
  v.object({ doer: User, recipient: User, teams: v.array(v.object({ id: v.number(), name: v.string() })) }),
);

const repositoryEntries = {
  id: v.number(),
  owner: User,
  name: v.string(),
  full_name: v.string(),
  description: v.string(),
  empty: v.boolean(),
  private: v.boolean(),
  fork: v.boolean(),
  template: v.boolean(),
  parent: v.optional(v.object({ id: v.number(), full_name: v.string() })),
  mirror: v.boolean(),
  size: v.number(),
  language: v.string(),
  languages_url: v.string(),
  html_url: v.string(),
  url: v.string(),
  link: v.string(),
  ssh_url: v.string(),
  clone_url: v.string(),
  original_url: v.string(),
  website: v.string(),
  stars_count: v.number(),
  forks_count: v.number(),
  watchers_count: v.number(),
  open_issues_count: v.number(),
  open_pr_counter: v.number(),
  release_counter: v.number(),
  default_branch: v.string(),
  archived: v.boolean(),
  created_at: v.string(),
  updated_at: v.string(),
  archived_at: v.string(),
  permissions: Permission,
  has_code: v.boolean(),
  has_issues: v.boolean(),
  internal_tracker: v.optional(InternalTracker),
  external_tracker: v.optional(ExternalTracker),
  has_wiki: v.boolean(),
  external_wiki: v.optional(ExternalWiki),
  has_pull_requests: v.boolean(),
  has_projects: v.boolean(),
  projects_mode: v.string(),
  has_releases: v.boolean(),
  has_packages: v.boolean(),
  has_actions: v.boolean(),
  ignore_whitespace_conflicts: v.boolean(),
  allow_merge_commits: v.boolean(),
  allow_rebase: v.boolean(),
  allow_rebase_explicit: v.boolean(),
  allow_squash_merge: v.boolean(),
  allow_fast_forward_only_merge: v.boolean(),
  allow_rebase_update: v.boolean(),
  allow_manual_merge: v.boolean(),
  autodetect_manual_merge: v.boolean(),
  default_delete_branch_after_merge: v.boolean(),
  default_merge_style: v.string(),
  default_allow_maintainer_edit: v.boolean(),
  avatar_url: v.string(),
  internal: v.boolean(),
  mirror_interval: v.string(),
  object_format_name: v.string(),
  mirror_updated: v.string(),
  repo_transfer: v.optional(RepoTransfer),
  topics: v.array(v.string()),
  licenses: v.array(v.string()),
};

export const Repository = named("Repository", v.object(repositoryEntries));

export const SearchResults = named("SearchResults", v.object({ ok: v.boolean(), data: v.array(Repository) }));

export const CreateRepoOption = named(
  "CreateRepoOption",
  v.object({
    name: requiredString(100),
    description: opt(maxString(2048)),
    private: opt(v.boolean()),
    template: opt(v.boolean()),
    auto_init: opt(v.boolean()),
    gitignores: opt(v.string()),
    license: opt(v.string()),
    readme: opt(v.string()),
    issue_labels: opt(v.string()),
    default_branch: opt(v.string()),
    trust_model: opt(v.string()),
    object_format_name: opt(v.picklist(["", "sha1", "sha256"], "In")),
  }),
);

const webUrl = v.union([v.literal(""), v.pipe(v.string(), v.url("Url"), v.maxLength(1024, "MaxSize"))], "Url");

export const EditRepoOption = named(
  "EditRepoOption",
  v.object({
    name: opt(v.pipe(v.string(), v.nonEmpty("Required"), v.maxLength(100, "MaxSize"))),
    description: opt(maxString(2048)),
    website: opt(webUrl),
    private: opt(v.boolean()),
    template: opt(v.boolean()),
    has_code: opt(v.boolean()),
    has_issues: opt(v.boolean()),
    internal_tracker: opt(
      v.object({
        enable_time_tracker: opt(v.boolean()),
        allow_only_contributors_to_track_time: opt(v.boolean()),
        enable_issue_dependencies: opt(v.boolean()),
      }),
    ),
    external_tracker: opt(
      v.object({
        external_tracker_url: v.string(),
        external_tracker_format: opt(v.string()),
        external_tracker_style: opt(v.string()),
        external_tracker_regexp_pattern: opt(v.string()),
      }),
    ),
    has_wiki: opt(v.boolean()),
    external_wiki: opt(v.object({ external_wiki_url: v.string() })),
    default_branch: opt(v.string()),
    has_pull_requests: opt(v.boolean()),
    has_projects: opt(v.boolean()),
    projects_mode: opt(v.picklist(["repo", "owner", "all"], "In")),
    has_releases: opt(v.boolean()),
    has_packages: opt(v.boolean()),
    has_actions: opt(v.boolean()),
    ignore_whitespace_conflicts: opt(v.boolean()),
    allow_merge_commits: opt(v.boolean()),
    allow_rebase: opt(v.boolean()),
    allow_rebase_explicit: opt(v.boolean()),
    allow_squash_merge: opt(v.boolean()),
    allow_fast_forward_only_merge: opt(v.boolean()),
    allow_manual_merge: opt(v.boolean()),
    autodetect_manual_merge: opt(v.boolean()),
    allow_rebase_update: opt(v.boolean()),
    default_delete_branch_after_merge: opt(v.boolean()),
    default_merge_style: opt(v.picklist(["merge", "rebase", "rebase-merge", "squash", "fast-forward-only", "manually-merged"], "In")),
    default_allow_maintainer_edit: opt(v.boolean()),
    archived: opt(v.boolean()),
    mirror_interval: opt(v.string()),
    enable_prune: opt(v.boolean()),
  }),
);

export const RepoParams = v.object({ owner: v.string(), repo: v.string() });

export type APIRepository = v.InferOutput<typeof Repository>;
