import * as v from "valibot";
import { named } from "./registry.ts";
import { opt, requiredString } from "./common.ts";
import { User } from "./user.ts";
import { Attachment } from "./issue.ts";

export const Comment = named(
  "Comment",
  v.object({
    id: v.number(),
    html_url: v.string(),
    pull_request_url: v.string(),
    issue_url: v.string(),
    user: User,
    original_author: v.string(),
    original_author_id: v.number(),
    body: v.string(),
    assets: v.array(Attachment),
    created_at: v.string(),
    updated_at: v.string(),
  }),
);

export const Reaction = named(
  "Reaction",
  v.object({
    user: User,
    content: v.string(),
    created_at: v.string(),
  }),
);

export const CreateIssueCommentOption = named("CreateIssueCommentOption", v.object({ body: requiredString() }));
export const EditIssueCommentOption = named("EditIssueCommentOption", v.object({ body: requiredString() }));
export const EditReactionOption = named("EditReactionOption", v.object({ content: opt(v.string()) }));
export const EditAttachmentOptions = named("EditAttachmentOptions", v.object({ name: opt(v.string()) }));

/** `/repos/{owner}/{repo}/issues/comments/{id}`. */
export const CommentParams = v.object({ owner: v.string(), repo: v.string(), id: v.string() });
/** The deprecated `/repos/{owner}/{repo}/issues/{index}/comments/{id}` (the index is ignored). */
export const IssueCommentParams = v.object({ owner: v.string(), repo: v.string(), index: v.string(), id: v.string() });
export const IssueAttachmentParams = v.object({ owner: v.string(), repo: v.string(), index: v.string(), attachment_id: v.string() });
export const CommentAttachmentParams = v.object({ owner: v.string(), repo: v.string(), id: v.string(), attachment_id: v.string() });

export type APIComment = v.InferOutput<typeof Comment>;
export type APIReaction = v.InferOutput<typeof Reaction>;
