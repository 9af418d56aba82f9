import type { Env } from "../env.ts";
import { ReviewType, type CommentRow, type IssueRow, type RepoRow, type ReviewRow, type TeamRow, type TeamUnitRow, type UserRow } from "../../db/schema/index.ts";
import * as reviewModel from "../../models/review.ts";
import * as users from "../../models/user.ts";
import { getTeamById, unitsOfTeams } from "../../models/team.ts";
import { ghostUser } from "../user/profile.ts";

/** Gitea's ReviewStateType names; `""` is an unknown type's. */
export type ReviewStateName = "APPROVED" | "REQUEST_CHANGES" | "COMMENT" | "PENDING" | "REQUEST_REVIEW" | "";

const STATES: Record<number, ReviewStateName> = {
  [ReviewType.Approve]: "APPROVED",
  [ReviewType.Reject]: "REQUEST_CHANGES",
  [ReviewType.Comment]: "COMMENT",
  [ReviewType.Pending]: "PENDING",
  [ReviewType.Request]: "REQUEST_REVIEW",
};

/** Gitea's ReviewStateType of a review type (empty for an unknown one). */
export const reviewStateName = (type: number): ReviewStateName => STATES[type] ?? "";

export const isPendingReview = (r: Pick<ReviewRow, "type">): boolean => r.type === ReviewType.Pending;

/** The request a review belongs to, for its URLs. */
export interface ReviewPlace {
  repo: RepoRow;
  owner: UserRow;
  issue: IssueRow;
}

/** A review with everything its JSON shows. */
export interface ReviewView {
  review: ReviewRow;
  place: ReviewPlace;
  /** The reviewer (the Ghost user when deleted); undefined for a team's request. */
  reviewer: UserRow | undefined;
  team: { team: TeamRow; units: TeamUnitRow[]; org: UserRow } | undefined;
  codeComments: number;
  /** The review's timeline entry, which its `html_url` points at (none while pending). */
  timelineCommentId: number | undefined;
}

export function reviewViews(env: Env, place: ReviewPlace, rows: ReviewRow[]): ReviewView[] {
  const ids = rows.map((r) => r.id);
  const counts = reviewModel.codeCommentCountsOfReviews(env.db, ids);
  const anchors = reviewModel.timelineCommentIdsOfReviews(env.db, ids);
  const people = new Map(users.getUsersByIds(env.db, [...new Set(rows.map((r) => r.reviewerId).filter((id) => id > 0))]).map((u) => [u.id, u]));
  const teamIds = [...new Set(rows.map((r) => r.reviewerTeamId).filter((id) => id > 0))];
  const units = unitsOfTeams(env.db, teamIds);
  const teams = new Map<number, ReviewView["team"]>();
  for (const id of teamIds) {
    const team = getTeamById(env.db, id);
    const org = team && users.getUserById(env.db, team.orgId);
    if (team && org) teams.set(id, { team, units: units.get(id) ?? [], org });
  }
  return rows.map((review) => ({
    review,
    place,
    reviewer: review.reviewerId > 0 ? (people.get(review.reviewerId) ?? ghostUser()) : review.reviewerTeamId > 0 ? undefined : ghostUser(),
    team: teams.get(review.reviewerTeamId),
    codeComments: counts.get(review.id) ?? 0,
    timelineCommentId: anchors.get(review.id),
  }));
}

/** A code comment of a review with what its JSON shows. */
export interface ReviewCommentView {
  comment: CommentRow;
  review: ReviewRow;
  place: ReviewPlace;
  poster: UserRow;
}

/** Gitea's ToPullReviewCommentList: the review's code comments still standing (invalidated ones left out). */
export function reviewCommentViews(env: Env, place: ReviewPlace, review: ReviewRow): ReviewCommentView[] {
  const rows = reviewModel.codeCommentsOfReview(env.db, review.issueId, review.id);
  const people = new Map(users.getUsersByIds(env.db, [...new Set(rows.map((c) => c.posterId))]).map((u) => [u.id, u]));
  return rows.map((comment) => ({ comment, review, place, poster: people.get(comment.posterId) ?? ghostUser() }));
}

/** Gitea's FindReviews and CountReviews for a request: every review, oldest first, paged when asked. */
export function listPullReviews(env: Env, place: ReviewPlace, page?: { offset: number; limit: number }): { views: ReviewView[]; total: number } {
  const { rows, total } = reviewModel.listReviews(env.db, place.issue.id, page);
  return { views: reviewViews(env, place, rows), total };
}
