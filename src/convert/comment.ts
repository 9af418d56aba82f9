import type { Settings } from "../config/settings.ts";
import type { CommentView } from "../services/issue/comments.ts";
import { toRFC3339 } from "../lib/time.ts";
import { toAPIAttachment } from "./attachment.ts";
import { repoLinks } from "./repo.ts";
import { toAPIUser } from "./user.ts";
import type { APIComment } from "../shapes/comment.ts";

/**
 * Gitea's convert.ToAPIComment. The poster is rendered as for an anonymous viewer (Gitea passes no
 * doer), `issue_url` and `pull_request_url` are the web pages of the issue or pull request (the
 * other one empty), and `html_url` points at the comment on that page.
 */
export function toAPIComment(settings: Settings, v: CommentView): APIComment {
  const { comment, issue } = v;
  const page = `${repoLinks(settings, v.owner.name, v.repo.name).html_url}/${issue.isPull ? "pulls" : "issues"}/${issue.index}`;
  return {
    id: comment.id,
    html_url: `${page}#issuecomment-${comment.id}`,
    pull_request_url: issue.isPull ? page : "",
    issue_url: issue.isPull ? "" : page,
    user: toAPIUser(settings, v.poster, undefined),
    original_author: comment.originalAuthor,
    original_author_id: comment.originalAuthorId,
    body: comment.content,
    assets: v.attachments.map((a) => toAPIAttachment(settings, a)),
    created_at: toRFC3339(comment.createdUnix),
    updated_at: toRFC3339(comment.updatedUnix),
  };
}
