import * as v from "valibot";
import { operation, reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../schemas/common.ts";
import { PullParams } from "../../../schemas/pull.ts";
import {
  CreatePullReviewOptions,
  DismissPullReviewOptions,
  PullReview,
  PullReviewComment,
  PullReviewParams,
  PullReviewRequestOptions,
  SubmitPullReviewOptions,
} from "../../../schemas/review.ts";
import { toAPIPullReview, toAPIPullReviewComment, toAPIPullReviews } from "../../../../convert/review.ts";
import { Forbidden } from "../../../../lib/errors.ts";
import type { Env } from "../../../../services/env.ts";
import type { ReviewRow, UserRow } from "../../../../db/schema/index.ts";
import { pullFromPath, requirePullsReader, type PullContext } from "../../../../services/pull/lookup.ts";
import {
  createReview,
  deleteReview,
  dismissReview,
  pullReviewFromPath,
  submitPendingReview,
} from "../../../../services/pull/review.ts";
import { changeReviewRequests } from "../../../../services/pull/review-requests.ts";
import { listPullReviews, reviewCommentViews, reviewViews } from "../../../../services/pull/review-view.ts";
import { repoFromPath } from "./context.ts";
import { requireToken, totalHeaders } from "./collaborators.ts";
import { requireNotArchived } from "../issues/issues.ts";

function reviewJson(env: Env, pc: PullContext, review: ReviewRow, doer: UserRow | undefined) {
  return toAPIPullReview(env.settings, reviewViews(env, pc, [review])[0]!, doer);
}

const single = { params: PullReviewParams, tag: "repository" } as const;

export const pullReviewOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/pulls/:index/reviews",
    operationId: "repoListPullReviews",
    tag: "repository",
    summary: "List all reviews for a pull request",
    access: { scope: "repository", signIn: false },
    params: PullParams,
    query: PageQuery,
    responses: { 200: v.array(PullReview) },
    handler: ({ env, principal, url, params, page }) => {
      const pc = pullFromPath(env, repoFromPath(env, principal, url, params), params.index);
      // Gitea pages only when `page` is given; the count includes pending reviews the doer does not see.
      const { views, total } = listPullReviews(env, pc, url.searchParams.has("page") ? page() : undefined);
      return reply.ok(toAPIPullReviews(env.settings, views, principal?.user), totalHeaders(total));
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/pulls/:index/reviews",
    operationId: "repoCreatePullReview",
    tag: "repository",
    summary: "Create a review to an pull request",
    access: { scope: "repository", signIn: false },
    params: PullParams,
    body: CreatePullReviewOptions,
    responses: { 200: PullReview },
    handler: async ({ env, principal, url, params, body }) => {
      const rc = repoFromPath(env, principal, url, params);
      requireToken(principal);
      requireNotArchived(rc);
      const pc = pullFromPath(env, rc, params.index);
      const review = await createReview(env, principal.user, pc, {
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
      return reviewJson(env, pc, review, principal.user);
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/pulls/:index/reviews/:id",
    operationId: "repoGetPullReview",
    ...single,
    summary: "Get a specific review for a pull request",
    access: { scope: "repository", signIn: false },
    responses: { 200: PullReview },
    handler: ({ env, principal, url, params }) => {
      const { pc, review } = pullReviewFromPath(env, repoFromPath(env, principal, url, params), params.index, params.id, principal?.user);
      return reviewJson(env, pc, review, principal?.user);
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/pulls/:index/reviews/:id",
    operationId: "repoSubmitPullReview",
    ...single,
    summary: "Submit a pending review to an pull request",
    access: { scope: "repository", signIn: false },
    body: SubmitPullReviewOptions,
    responses: { 200: PullReview },
    handler: async ({ env, principal, url, params, body }) => {
      const rc = repoFromPath(env, principal, url, params);
      requireToken(principal);
      requireNotArchived(rc);
      const { pc, review } = pullReviewFromPath(env, rc, params.index, params.id, principal.user);
      const done = await submitPendingReview(env, principal.user, pc, review, body.event ?? "", body.body ?? "");
      return reviewJson(env, pc, done, principal.user);
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/pulls/:index/reviews/:id",
    operationId: "repoDeletePullReview",
    ...single,
    summary: "Delete a specific review from a pull request",
    access: { scope: "repository", signIn: false },
    responses: { 204: null },
    handler: ({ env, principal, url, params }) => {
      const rc = repoFromPath(env, principal, url, params);
      requireToken(principal);
      requireNotArchived(rc);
      const { pc, review } = pullReviewFromPath(env, rc, params.index, params.id, principal.user);
      deleteReview(env, principal.user, pc, review);
      return reply.noContent();
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/pulls/:index/reviews/:id/comments",
    operationId: "repoGetPullReviewComments",
    ...single,
    summary: "Get a specific review for a pull request",
    access: { scope: "repository", signIn: false },
    responses: { 200: v.array(PullReviewComment) },
    handler: ({ env, principal, url, params }) => {
      const { pc, review } = pullReviewFromPath(env, repoFromPath(env, principal, url, params), params.index, params.id, principal?.user);
      return reviewCommentViews(env, pc, review).map((c) => toAPIPullReviewComment(env.settings, c, principal?.user));
    },
  }),
  ...[true, false].map((dismiss) =>
    operation({
      method: "POST",
      path: `/repos/:owner/:repo/pulls/:index/reviews/:id/${dismiss ? "dismissals" : "undismissals"}`,
      operationId: dismiss ? "repoDismissPullReview" : "repoUnDismissPullReview",
      ...single,
      summary: dismiss ? "Dismiss a review for a pull request" : "Cancel to dismiss a review for a pull request",
      access: { scope: "repository", signIn: false },
      ...(dismiss ? { body: DismissPullReviewOptions } : {}),
      responses: { 200: PullReview },
      handler: ({ env, principal, url, params, body }) => {
        const rc = repoFromPath(env, principal, url, params);
        requireToken(principal);
        requireNotArchived(rc);
        requirePullsReader(rc);
        // Gitea checks this before it looks for the request or the review.
        if (!rc.perm.isAdmin()) throw new Forbidden("Must be repo admin");
        const { pc, review } = pullReviewFromPath(env, rc, params.index, params.id, principal.user);
        const opts = (body ?? {}) as { message?: string | null; priors?: boolean | null };
        const done = dismissReview(env, principal.user, pc, review, { dismiss, message: opts.message ?? "", priors: opts.priors ?? false });
        return reviewJson(env, pc, done, principal.user);
      },
    }),
  ),
  ...[true, false].map((add) =>
    operation({
      method: add ? "POST" : "DELETE",
      path: "/repos/:owner/:repo/pulls/:index/requested_reviewers",
      operationId: add ? "repoCreatePullReviewRequests" : "repoDeletePullReviewRequests",
      tag: "repository",
      summary: add ? "create review requests for a pull request" : "cancel review requests for a pull request",
      access: { scope: "repository", signIn: false },
      params: PullParams,
      body: PullReviewRequestOptions,
      responses: add ? { 201: v.array(PullReview) } : { 204: null },
      handler: ({ env, principal, url, params, body }) => {
        const rc = repoFromPath(env, principal, url, params);
        requireToken(principal);
        requireNotArchived(rc);
        const pc = pullFromPath(env, rc, params.index);
        const made = changeReviewRequests(env, principal.user, pc, body.reviewers ?? [], body.team_reviewers ?? [], add);
        if (!add) return reply.noContent();
        return reply.created(toAPIPullReviews(env.settings, reviewViews(env, pc, made), principal.user));
      },
    }),
  ),
];
