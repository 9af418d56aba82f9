/**
 * pull_request.yml and reviews/{n}.yml have no schema among Gitea's (modules/migration/schemas has
 * none for them), so they are checked against Gitea's PullRequest, PullRequestBranch, Review and
 * ReviewComment structs (modules/migration/pullrequest.go, review.go), field by field, under their
 * yaml names. Labels and reactions inside use Gitea's label.json and reaction.json, as issue.json
 * does. Required are the fields a restore cannot do without: the number, poster, title, state,
 * times and both branches of a pull request; the pull request, reviewer, state and time of a
 * review; the file, line and text of a code comment.
 */

const dateTime = { type: "string", format: "date-time" };
const orNull = (schema: object) => ({ anyOf: [schema, { type: "null" }] });
const reactions = orNull({ type: "array", items: { $ref: "reaction.json" } });

const branchSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    clone_url: { type: "string" },
    ref: { type: "string" },
    sha: { type: "string" },
    repo_name: { type: "string" },
    owner_name: { type: "string" },
  },
  required: ["ref"],
};

export const pullRequestFileSchema = {
  $schema: "http://json-schema.org/draft-04/schema#",
  type: "array",
  items: {
    type: "object",
    additionalProperties: false,
    properties: {
      number: { type: "integer", minimum: 1 },
      title: { type: "string", minLength: 1 },
      poster_name: { type: "string" },
      poster_id: { type: "integer" },
      poster_email: { type: "string" },
      content: { type: "string" },
      milestone: { type: "string" },
      state: { type: "string", enum: ["open", "closed"] },
      created: dateTime,
      updated: dateTime,
      closed: orNull(dateTime),
      labels: orNull({ type: "array", items: { $ref: "label.json" } }),
      patch_url: { type: "string" },
      merged: { type: "boolean" },
      merged_time: orNull(dateTime),
      merge_commit_sha: { type: "string" },
      head: branchSchema,
      base: branchSchema,
      assignees: orNull({ type: "array", items: { type: "string" } }),
      is_locked: { type: "boolean" },
      reactions,
      foreignindex: { type: "integer" },
      ensured_safe: { type: "boolean" },
      is_draft: { type: "boolean" },
    },
    required: ["number", "title", "poster_name", "poster_id", "state", "created", "updated", "head", "base"],
  },
};

const reviewCommentSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    id: { type: "integer" },
    in_reply_to: { type: "integer" },
    content: { type: "string" },
    tree_path: { type: "string", minLength: 1 },
    diff_hunk: { type: "string" },
    position: { type: "integer" },
    line: { type: "integer" },
    commit_id: { type: "string" },
    poster_id: { type: "integer" },
    reactions,
    created_at: dateTime,
    updated_at: dateTime,
  },
  required: ["content", "tree_path", "line", "poster_id", "created_at"],
};

export const reviewFileSchema = {
  $schema: "http://json-schema.org/draft-04/schema#",
  type: "array",
  items: {
    type: "object",
    additionalProperties: false,
    properties: {
      id: { type: "integer" },
      issue_index: { type: "integer" },
      reviewer_id: { type: "integer" },
      reviewer_name: { type: "string" },
      official: { type: "boolean" },
      commit_id: { type: "string" },
      content: { type: "string" },
      created_at: dateTime,
      state: { type: "string", enum: ["PENDING", "APPROVED", "COMMENTED", "CHANGES_REQUESTED", "REQUEST_REVIEW"] },
      comments: orNull({ type: "array", items: reviewCommentSchema }),
    },
    required: ["issue_index", "reviewer_id", "reviewer_name", "state", "created_at"],
  },
};
