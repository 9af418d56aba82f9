import * as v from "valibot";
import { operation, reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../../shapes/common.ts";
import { PullParams } from "../../../../shapes/pull.ts";
import {
  CreatePullReviewOptions,
  DismissPullReviewOptions,
  PullReview,
  PullReviewComment,
  PullReviewParams,
  PullReviewRequestOptions,
  SubmitPullReviewOptions,
} from "../../../../shapes/review.ts";
import { toAPIPullReview, toAPIPullReviewComment, toAPIPullReviews } from "../../../../convert/review.ts";
import type { Env } from "../../../../services/env.ts";
import type { ReviewRow, UserRow } from "../../../../db/schema/index.ts";
import { requirePullsReader, type PullContext } from "../../../../services/pull/lookup.ts";
import {
  createReview,
  deleteReview,
  dismissReview,
  pullReviewFromPath,
  requireReviewDismisser,
  reviewFromPath,
  submitPendingReview,
} from "../../../../services/pull/review.ts";
import { changeReviewRequests } from "../../../../services/pull/review-requests.ts";
import { listPullReviews, reviewCommentViews, reviewViews } from "../../../../services/pull/review-view.ts";
import { totalHeaders } from "./collaborators.ts";

function reviewJson(env: Env, pc: PullContext, review: ReviewRow, doer: UserRow | undefined) {
  return toAPIPullReview(env.settings, reviewViews(env, pc, [review])[0]!, doer);
}

const single = { params: PullReviewParams, tag: "repository" } as const;

/** Reading reviews: the pull request of `:index`, under the `/pulls` group's mustAllowPulls and reqRepoReader(Code). */
const readPull = { scope: "repository", signIn: false, repo: { read: "pulls" }, pull: true } as const;
/**
 * Reviewing, and asking for reviews: reqToken, then mustNotBeArchived (hearth's, before the group's
 * guards as it has always answered), then the pull request of `:index` with the group's guards.
 */
const reviewPull = { scope: "repository", signIn: false, repo: { doer: true, notArchived: true }, pull: true } as const;
/**
 * Dismissing a review: reqToken and mustNotBeArchived, then the group's guards and the administrator
 * asked by the handler, before the pull request or the review is looked up (a missing one is a 403
 * for anyone else), which a declaration cannot order.
 */
const dismissal = { scope: "repository", signIn: false, repo: { doer: true, notArchived: true } } as const;

export const pullReviewOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/pulls/:index/reviews",
    operationId: "repoListPullReviews",
    tag: "repository",
    summary: "List all reviews for a pull request",
    access: readPull,
    params: PullParams,
    query: PageQuery,
    responses: { 200: v.array(PullReview) },
    handler: ({ env, pull: pc, doer, url, page }) => {
      // Gitea pages only when `page` is given; the count includes pending reviews the doer does not see.
      const { views, total } = listPullReviews(env, pc, url.searchParams.has("page") ? page() : undefined);
      return reply.ok(toAPIPullReviews(env.settings, views, doer), totalHeaders(total));
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/pulls/:index/reviews",
    operationId: "repoCreatePullReview",
    tag: "repository",
    summary: "Create a review to an pull request",
    access: reviewPull,
    params: PullParams,
    body: CreatePullReviewOptions,
    responses: { 200: PullReview },
    handler: async ({ env, pull: pc, doer, body }) => {
      const review = await createReview(env, doer, pc, {
        event: body.event ?? "",
        body: body.body ?? "",
        commitId: body.commit_id ?? "",
        comments: (body.comments ?? []).map((c) => ({
          treePath: c.path ?? "",
          content: c.body ?? "",
          // Gitea: an old-side position wins, stored as a negative line.
          line: (c.old_position ?? 0) > 0 ? -(c.old_position ?? 0) : (c.new_position ?? 0),
        })),
      });
      return reviewJson(env, pc, review, doer);
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/pulls/:index/reviews/:id",
    operationId: "repoGetPullReview",
    ...single,
    summary: "Get a specific review for a pull request",
    access: readPull,
    responses: { 200: PullReview },
    handler: ({ env, pull: pc, doer, params }) => reviewJson(env, pc, reviewFromPath(env, pc, params.id, doer), doer),
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/pulls/:index/reviews/:id",
    operationId: "repoSubmitPullReview",
    ...single,
    summary: "Submit a pending review to an pull request",
    access: reviewPull,
    body: SubmitPullReviewOptions,
    responses: { 200: PullReview },
    handler: async ({ env, pull: pc, doer, params, body }) => {
      const review = reviewFromPath(env, pc, params.id, doer);
      const done = await submitPendingReview(env, doer, pc, review, body.event ?? "", body.body ?? "");
      return reviewJson(env, pc, done, doer);
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/pulls/:index/reviews/:id",
    operationId: "repoDeletePullReview",
    ...single,
    summary: "Delete a specific review from a pull request",
    access: reviewPull,
    responses: { 204: null },
    handler: ({ env, pull: pc, doer, params }) => {
      deleteReview(env, doer, pc, reviewFromPath(env, pc, params.id, doer));
      return reply.noContent();
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/pulls/:index/reviews/:id/comments",
    operationId: "repoGetPullReviewComments",
    ...single,
    summary: "Get a specific review for a pull request",
    access: readPull,
    responses: { 200: v.array(PullReviewComment) },
    handler: ({ env, pull: pc, doer, params }) => {
      const review = reviewFromPath(env, pc, params.id, doer);
      return reviewCommentViews(env, pc, review).map((c) => toAPIPullReviewComment(env.settings, c, doer));
    },
  }),
  ...[true, false].map((dismiss) =>
    operation({
      method: "POST",
      path: `/repos/:owner/:repo/pulls/:index/reviews/:id/${dismiss ? "dismissals" : "undismissals"}`,
      operationId: dismiss ? "repoDismissPullReview" : "repoUnDismissPullReview",
      ...single,
      summary: dismiss ? "Dismiss a review for a pull request" : "Cancel to dismiss a review for a pull request",
      access: dismissal,
      ...(dismiss ? { body: DismissPullReviewOptions } : {}),
      responses: { 200: PullReview },
      handler: ({ env, repo: rc, doer, params, body }) => {
        // The group's guards and the administrator, before the request and the review (see dismissal).
        requirePullsReader(rc);
        requireReviewDismisser(rc);
        const { pc, review } = pullReviewFromPath(env, rc, params.index, params.id, doer);
        const opts = (body ?? {}) as { message?: string | null; priors?: boolean | null };
        const done = dismissReview(env, doer, pc, review, { dismiss, message: opts.message ?? "", priors: opts.priors ?? false });
        return reviewJson(env, pc, done, doer);
      },
    }),
  ),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/pulls/:index/requested_reviewers",
    operationId: "repoCreatePullReviewRequests",
    tag: "repository",
    summary: "create review requests for a pull request",
    access: reviewPull,
    params: PullParams,
    body: PullReviewRequestOptions,
    responses: { 201: v.array(PullReview) },
    handler: ({ env, pull: pc, doer, body }) => {
      const made = changeReviewRequests(env, doer, pc, body.reviewers ?? [], body.team_reviewers ?? [], true);
      return reply.created(toAPIPullReviews(env.settings, reviewViews(env, pc, made), doer));
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/pulls/:index/requested_reviewers",
    operationId: "repoDeletePullReviewRequests",
    tag: "repository",
    summary: "cancel review requests for a pull request",
    access: reviewPull,
    params: PullParams,
    body: PullReviewRequestOptions,
    responses: { 204: null },
    handler: ({ env, pull: pc, doer, body }) => {
      changeReviewRequests(env, doer, pc, body.reviewers ?? [], body.team_reviewers ?? [], false);
      return reply.noContent();
    },
  }),
];
