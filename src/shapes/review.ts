import * as v from "valibot";
import { named } from "./registry.ts";
import { opt } from "./common.ts";
import { User } from "./user.ts";
import { Team } from "./team.ts";

export const ReviewStateType = named("ReviewStateType", v.string());

export const PullReview = named(
  "PullReview",
  v.object({
    id: v.number(),
    user: v.nullable(User),
    team: v.nullable(Team),
    state: v.picklist(["APPROVED", "PENDING", "COMMENT", "REQUEST_CHANGES", "REQUEST_REVIEW", ""]),
    body: v.string(),
    commit_id: v.string(),
    stale: v.boolean(),
    official: v.boolean(),
    dismissed: v.boolean(),
    comments_count: v.number(),
    submitted_at: v.string(),
    updated_at: v.string(),
    html_url: v.string(),
    pull_request_url: v.string(),
  }),
);

export const PullReviewComment = named(
  "PullReviewComment",
  v.object({
    id: v.number(),
    body: v.string(),
    user: User,
    resolver: v.nullable(User),
    pull_request_review_id: v.number(),
    created_at: v.string(),
    updated_at: v.string(),
    path: v.string(),
    commit_id: v.string(),
    original_commit_id: v.string(),
    diff_hunk: v.string(),
    position: v.number(),
    original_position: v.number(),
    html_url: v.string(),
    pull_request_url: v.string(),
  }),
);

const int = v.pipe(v.number(), v.integer());

export const CreatePullReviewComment = named(
  "CreatePullReviewComment",
  v.object({
    path: opt(v.string()),
    body: opt(v.string()),
    old_position: opt(int),
    new_position: opt(int),
  }),
);

export const CreatePullReviewOptions = named(
  "CreatePullReviewOptions",
  v.object({
    event: opt(v.string()),
    body: opt(v.string()),
    commit_id: opt(v.string()),
    comments: opt(v.array(CreatePullReviewComment)),
  }),
);

export const SubmitPullReviewOptions = named("SubmitPullReviewOptions", v.object({ event: opt(v.string()), body: opt(v.string()) }));

export const DismissPullReviewOptions = named("DismissPullReviewOptions", v.object({ message: opt(v.string()), priors: opt(v.boolean()) }));

export const PullReviewRequestOptions = named(
  "PullReviewRequestOptions",
  v.object({ reviewers: opt(v.array(v.string())), team_reviewers: opt(v.array(v.string())) }),
);

export const PullReviewParams = v.object({ owner: v.string(), repo: v.string(), index: v.string(), id: v.string() });

export type APIPullReview = v.InferOutput<typeof PullReview>;
export type APIPullReviewComment = v.InferOutput<typeof PullReviewComment>;
