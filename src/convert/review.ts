import type { Settings } from "../config/settings.ts";
import type { UserRow } from "../db/schema/index.ts";
import { isPendingReview, reviewStateName, type ReviewCommentView, type ReviewPlace, type ReviewView } from "../services/pull/review-view.ts";
import { patchToDiffHunk } from "../services/pull/review-patch.ts";
import { toRFC3339 } from "../lib/time.ts";
import { repoLinks } from "./repo.ts";
import { toAPITeam } from "./team.ts";
import { toAPIUser } from "./user.ts";
import type { APIPullReview, APIPullReviewComment } from "../shapes/review.ts";

const pullPage = (settings: Settings, p: ReviewPlace) => `${repoLinks(settings, p.owner.name, p.repo.name).html_url}/pulls/${p.issue.index}`;

/**
 * Gitea's convert.ToPullReview. `html_url` points at the review's timeline entry (empty while it
 * has none: pending reviews and requests), `submitted_at` is the creation time, as in Gitea.
 */
export function toAPIPullReview(settings: Settings, v: ReviewView, doer: UserRow | undefined): APIPullReview {
  const { review } = v;
  const page = pullPage(settings, v.place);
  return {
    id: review.id,
    user: v.reviewer ? toAPIUser(settings, v.reviewer, doer) : null,
    team: v.team ? toAPITeam(settings, v.team.team, v.team.units, v.team.org) : null,
    state: reviewStateName(review.type),
    body: review.content,
    commit_id: review.commitId,
    stale: review.stale,
    official: review.official,
    dismissed: review.dismissed,
    comments_count: v.codeComments,
    submitted_at: toRFC3339(review.createdUnix),
    updated_at: toRFC3339(review.updatedUnix),
    html_url: v.timelineCommentId !== undefined ? `${page}#issuecomment-${v.timelineCommentId}` : "",
    pull_request_url: page,
  };
}

/** Gitea's ToPullReviewList: pending reviews only for their reviewer and site admins. */
export function toAPIPullReviews(settings: Settings, views: ReviewView[], doer: UserRow | undefined): APIPullReview[] {
  return views
    .filter((v) => !isPendingReview(v.review) || (doer && (doer.isAdmin || doer.id === v.review.reviewerId)))
    .map((v) => toAPIPullReview(settings, v, doer));
}

/**
 * Gitea's ToPullReviewCommentList entry. A comment of a pending review links to the files page,
 * as Gitea's Comment.HTMLURL; `position` is the new-side line, `original_position` the old-side one.
 */
export function toAPIPullReviewComment(settings: Settings, v: ReviewCommentView, doer: UserRow | undefined): APIPullReviewComment {
  const { comment } = v;
  const page = pullPage(settings, v.place);
  const anchor = `issuecomment-${comment.id}`;
  return {
    id: comment.id,
    body: comment.content,
    user: toAPIUser(settings, v.poster, doer),
    // Resolving conversations is not kept by hearth.
    resolver: null,
    pull_request_review_id: v.review.id,
    created_at: toRFC3339(comment.createdUnix),
    updated_at: toRFC3339(comment.updatedUnix),
    path: comment.treePath,
    commit_id: comment.commitSha,
    original_commit_id: comment.oldRef,
    diff_hunk: patchToDiffHunk(comment.patch),
    position: comment.line > 0 ? comment.line : 0,
    original_position: comment.line < 0 ? -comment.line : 0,
    html_url: isPendingReview(v.review) ? `${page}/files#${anchor}` : `${page}#${anchor}`,
    pull_request_url: page,
  };
}
