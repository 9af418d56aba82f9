import * as v from "valibot";
import { named } from "./registry.ts";
import { dateTime, opt } from "./common.ts";
import { User } from "./user.ts";
import { Issue, Label, Milestone } from "./issue.ts";
import { Comment } from "./comment.ts";
import { Team } from "./team.ts";

/** Schemas of the issue tracker's extras: pins, locks, dependencies, subscriptions, time tracking, timeline, templates. */

export const IssuePinParams = v.object({ owner: v.string(), repo: v.string(), index: v.string(), position: v.string() });
export const IssueUserParams = v.object({ owner: v.string(), repo: v.string(), index: v.string(), user: v.string() });
export const IssueTimeParams = v.object({ owner: v.string(), repo: v.string(), index: v.string(), id: v.string() });
export const RepoUserParams = v.object({ owner: v.string(), repo: v.string(), user: v.string() });

export const NewIssuePinsAllowed = named("NewIssuePinsAllowed", v.object({ issues: v.boolean(), pull_requests: v.boolean() }));

export const LockIssueOption = named("LockIssueOption", v.object({ lock_reason: opt(v.string()) }));

/** An issue by repository owner, repository name and number (the body of dependency operations). */
export const IssueMeta = named(
  "IssueMeta",
  v.object({ index: opt(v.pipe(v.number(), v.integer())), owner: opt(v.string()), repo: opt(v.string()) }),
);

export const TrackedTime = named(
  "TrackedTime",
  v.object({
    id: v.number(),
    created: v.string(),
    time: v.number(),
    user_id: v.number(),
    user_name: v.string(),
    issue_id: v.number(),
    issue: v.nullable(Issue),
  }),
);

export const AddTimeOption = named(
  "AddTimeOption",
  v.object({
    // Gitea's binding:"Required" on a number refuses 0 as missing.
    time: v.pipe(v.number(), v.integer(), v.check((n) => n !== 0, "Required")),
    created: opt(dateTime),
    user_name: opt(v.string()),
  }),
);

export const StopWatch = named(
  "StopWatch",
  v.object({
    created: v.string(),
    seconds: v.number(),
    duration: v.string(),
    issue_index: v.number(),
    issue_title: v.string(),
    repo_owner_name: v.string(),
    repo_name: v.string(),
  }),
);

export const TimelineComment = named(
  "TimelineComment",
  v.object({
    id: v.number(),
    type: v.string(),
    html_url: v.string(),
    pull_request_url: v.string(),
    issue_url: v.string(),
    user: User,
    body: v.string(),
    created_at: v.string(),
    updated_at: v.string(),
    old_project_id: v.number(),
    project_id: v.number(),
    old_milestone: v.nullable(Milestone),
    milestone: v.nullable(Milestone),
    tracked_time: v.nullable(TrackedTime),
    old_title: v.string(),
    new_title: v.string(),
    old_ref: v.string(),
    new_ref: v.string(),
    ref_issue: v.nullable(Issue),
    ref_comment: v.nullable(Comment),
    ref_action: v.string(),
    ref_commit_sha: v.string(),
    review_id: v.number(),
    label: v.nullable(Label),
    assignee: v.nullable(User),
    assignee_team: v.nullable(Team),
    removed_assignee: v.boolean(),
    resolve_doer: v.nullable(User),
    dependent_issue: v.nullable(Issue),
  }),
);

export const IssueFormField = named(
  "IssueFormField",
  v.object({
    type: v.string(),
    id: v.string(),
    // Genuinely open: a form field's attributes and validations are whatever the template's YAML says.
    attributes: v.nullable(v.record(v.string(), v.unknown())),
    validations: v.nullable(v.record(v.string(), v.unknown())),
    visible: v.optional(v.array(v.string())),
  }),
);

export const IssueTemplate = named(
  "IssueTemplate",
  v.object({
    name: v.string(),
    title: v.string(),
    about: v.string(),
    labels: v.nullable(v.array(v.string())),
    assignees: v.nullable(v.array(v.string())),
    ref: v.string(),
    content: v.string(),
    body: v.nullable(v.array(IssueFormField)),
    file_name: v.string(),
  }),
);

export const IssueConfigContactLink = named(
  "IssueConfigContactLink",
  v.object({ name: v.string(), url: v.string(), about: v.string() }),
);

export const IssueConfig = named(
  "IssueConfig",
  v.object({ blank_issues_enabled: v.boolean(), contact_links: v.array(IssueConfigContactLink) }),
);

export const IssueConfigValidation = named("IssueConfigValidation", v.object({ valid: v.boolean(), message: v.string() }));

export type APITrackedTime = v.InferOutput<typeof TrackedTime>;
export type APIStopWatch = v.InferOutput<typeof StopWatch>;
export type APITimelineComment = v.InferOutput<typeof TimelineComment>;
export type APIIssueFormField = v.InferOutput<typeof IssueFormField>;
export type APIIssueTemplate = v.InferOutput<typeof IssueTemplate>;
export type APIIssueConfig = v.InferOutput<typeof IssueConfig>;
