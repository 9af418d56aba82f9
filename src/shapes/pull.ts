import * as v from "valibot";
import { named } from "./registry.ts";
import { dateTime, intQuery, opt, PageQuery, requiredString } from "./common.ts";
import { User } from "./user.ts";
import { Label, Milestone } from "./issue.ts";
import { Repository } from "./repo.ts";
import { Team } from "./team.ts";

export const PRBranchInfo = named(
  "PRBranchInfo",
  v.object({
    label: v.string(),
    ref: v.string(),
    sha: v.string(),
    repo_id: v.number(),
    repo: v.nullable(Repository),
  }),
);

export const PullRequest = named(
  "PullRequest",
  v.object({
    id: v.number(),
    url: v.string(),
    number: v.number(),
    user: User,
    title: v.string(),
    body: v.string(),
    labels: v.array(Label),
    milestone: v.nullable(Milestone),
    assignee: v.nullable(User),
    assignees: v.array(User),
    requested_reviewers: v.array(User),
    requested_reviewers_teams: v.array(Team),
    state: v.picklist(["open", "closed"]),
    draft: v.boolean(),
    is_locked: v.boolean(),
    comments: v.number(),
    review_comments: v.number(),
    additions: v.nullable(v.number()),
    deletions: v.nullable(v.number()),
    changed_files: v.nullable(v.number()),
    html_url: v.string(),
    diff_url: v.string(),
    patch_url: v.string(),
    mergeable: v.boolean(),
    merged: v.boolean(),
    merged_at: v.nullable(v.string()),
    merge_commit_sha: v.nullable(v.string()),
    merged_by: v.nullable(User),
    allow_maintainer_edit: v.boolean(),
    base: PRBranchInfo,
    head: PRBranchInfo,
    merge_base: v.string(),
    due_date: v.nullable(v.string()),
    created_at: v.string(),
    updated_at: v.string(),
    closed_at: v.nullable(v.string()),
    pin_order: v.number(),
  }),
);

export const ChangedFile = named(
  "ChangedFile",
  v.object({
    filename: v.string(),
    previous_filename: v.optional(v.string()),
    status: v.string(),
    additions: v.number(),
    deletions: v.number(),
    changes: v.number(),
    html_url: v.string(),
    contents_url: v.string(),
    raw_url: v.string(),
  }),
);

export const CreatePullRequestOption = named(
  "CreatePullRequestOption",
  v.object({
    head: requiredString(),
    base: requiredString(),
    title: requiredString(),
    body: opt(v.string()),
    assignee: opt(v.string()),
    assignees: opt(v.array(v.string())),
    reviewers: opt(v.array(v.string())),
    team_reviewers: opt(v.array(v.string())),
    milestone: opt(v.pipe(v.number(), v.integer())),
    labels: opt(v.array(v.pipe(v.number(), v.integer()))),
    due_date: opt(dateTime),
  }),
);

export const EditPullRequestOption = named(
  "EditPullRequestOption",
  v.object({
    title: opt(v.string()),
    body: opt(v.string()),
    base: opt(v.string()),
    assignee: opt(v.string()),
    assignees: opt(v.array(v.string())),
    milestone: opt(v.pipe(v.number(), v.integer())),
    labels: opt(v.array(v.pipe(v.number(), v.integer()))),
    state: opt(v.string()),
    due_date: opt(dateTime),
    unset_due_date: opt(v.boolean()),
    allow_maintainer_edit: opt(v.boolean()),
  }),
);

const boolQuery = v.pipe(v.string(), v.metadata({ format: "boolean" }));

export const PullListQuery = v.object({
  ...PageQuery.entries,
  state: v.optional(v.string()),
  sort: v.optional(v.string()),
  milestone: v.optional(intQuery),
  labels: v.optional(v.union([v.string(), v.array(v.string())])),
  poster: v.optional(v.string()),
  base_branch: v.optional(v.string()),
});

export const PullFilesQuery = v.object({
  ...PageQuery.entries,
  "skip-to": v.optional(v.string()),
  whitespace: v.optional(v.string()),
});

export const PullCommitsQuery = v.object({
  ...PageQuery.entries,
  verification: v.optional(boolQuery),
  files: v.optional(boolQuery),
});

/** `binary` belongs to GET /pulls/{index}.{diff|patch}, which the same route serves (see pulls.ts). */
export const PullGetQuery = v.object({ binary: v.optional(boolQuery) });

export const PullParams = v.object({ owner: v.string(), repo: v.string(), index: v.string() });

export type APIPullRequest = v.InferOutput<typeof PullRequest>;
export type APIPRBranchInfo = v.InferOutput<typeof PRBranchInfo>;
export type APIChangedFile = v.InferOutput<typeof ChangedFile>;
