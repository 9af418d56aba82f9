import * as v from "valibot";
import { named } from "./registry.ts";
import { dateTime, maxString, opt, requiredString } from "./common.ts";
import { User } from "./user.ts";

export const Label = named(
  "Label",
  v.object({
    id: v.number(),
    name: v.string(),
    exclusive: v.boolean(),
    is_archived: v.boolean(),
    color: v.string(),
    description: v.string(),
    url: v.string(),
  }),
);

export const Milestone = named(
  "Milestone",
  v.object({
    id: v.number(),
    title: v.string(),
    description: v.string(),
    state: v.picklist(["open", "closed"]),
    open_issues: v.number(),
    closed_issues: v.number(),
    created_at: v.string(),
    updated_at: v.nullable(v.string()),
    closed_at: v.nullable(v.string()),
    due_on: v.nullable(v.string()),
  }),
);

export const Attachment = named(
  "Attachment",
  v.object({
    id: v.number(),
    name: v.string(),
    size: v.number(),
    download_count: v.number(),
    created_at: v.string(),
    uuid: v.string(),
    browser_download_url: v.string(),
  }),
);

export const Issue = named(
  "Issue",
  v.object({
    id: v.number(),
    url: v.string(),
    html_url: v.string(),
    number: v.number(),
    user: User,
    original_author: v.string(),
    original_author_id: v.number(),
    title: v.string(),
    body: v.string(),
    ref: v.string(),
    assets: v.array(Attachment),
    labels: v.array(Label),
    milestone: v.nullable(Milestone),
    assignee: v.nullable(User),
    assignees: v.nullable(v.array(User)),
    state: v.picklist(["open", "closed"]),
    is_locked: v.boolean(),
    comments: v.number(),
    created_at: v.string(),
    updated_at: v.string(),
    closed_at: v.nullable(v.string()),
    due_date: v.nullable(v.string()),
    time_estimate: v.number(),
    pull_request: v.nullable(
      v.object({ merged: v.boolean(), merged_at: v.nullable(v.string()), draft: v.boolean(), html_url: v.string() }),
    ),
    repository: v.object({ id: v.number(), name: v.string(), owner: v.string(), full_name: v.string() }),
    pin_order: v.number(),
  }),
);

export const CreateIssueOption = named(
  "CreateIssueOption",
  v.object({
    title: requiredString(255),
    body: opt(v.string()),
    ref: opt(v.string()),
    assignee: opt(v.string()),
    assignees: opt(v.array(v.string())),
    due_date: opt(dateTime),
    milestone: opt(v.pipe(v.number(), v.integer())),
    labels: opt(v.array(v.pipe(v.number(), v.integer()))),
    closed: opt(v.boolean()),
  }),
);

export const EditIssueOption = named(
  "EditIssueOption",
  v.object({
    title: opt(maxString(255)),
    body: opt(v.string()),
    ref: opt(v.string()),
    assignee: opt(v.string()),
    assignees: opt(v.array(v.string())),
    milestone: opt(v.pipe(v.number(), v.integer())),
    state: opt(v.string()),
    due_date: opt(dateTime),
    unset_due_date: opt(v.boolean()),
  }),
);

export const EditDeadlineOption = named("EditDeadlineOption", v.object({ due_date: dateTime }));
export const IssueDeadline = named("IssueDeadline", v.object({ due_date: v.nullable(v.string()) }));

export const IssueParams = v.object({ owner: v.string(), repo: v.string(), index: v.string() });

export type APILabel = v.InferOutput<typeof Label>;
export type APIMilestone = v.InferOutput<typeof Milestone>;
export type APIAttachment = v.InferOutput<typeof Attachment>;
export type APIIssue = v.InferOutput<typeof Issue>;
