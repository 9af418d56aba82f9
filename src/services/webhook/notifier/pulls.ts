import type { Env } from "../../env.ts";
import type { PullEvent } from "../../events/pull-events.ts";
import type { PullRequestPayload } from "../payload-types.ts";
import { currentPullView, currentRepo, reviewHookEvent, userById } from "../sources.ts";
import { toAPIPullRequest } from "../../../convert/pull.ts";
import { repoJson, userJson, webhookSink, type PayloadSink } from "./common.ts";

/**
 * Gitea's webhook notifier for what happens to a pull request beyond its issue:
 * PullRequestSynchronized, PullRequestChangeTargetBranch, PullRequestReview and
 * PullRequestReviewRequest.
 */
export async function onPullEvent(env: Env, e: PullEvent, sink: PayloadSink = webhookSink): Promise<void> {
  // A merge reaches the hooks as the close of its issue (an issue event), as in Gitea.
  if (e.kind === "merged") return;
  const where = currentRepo(env, e.repo.id);
  if (!where) return;
  const { repo, owner } = where;
  const event =
    e.kind === "synchronized"
      ? "pull_request_sync"
      : e.kind === "retargeted"
        ? "pull_request"
        : e.kind === "reviewed"
          ? reviewHookEvent(e.review)
          : "pull_request_review_request";
  if (!event || !sink.wants(env, repo, event)) return;
  const doer = e.kind === "reviewed" ? e.reviewer : e.doer;
  const view = await currentPullView(env, repo, owner, e.issue, doer);
  if (!view) return;
  const base = {
    number: e.issue.index,
    pull_request: toAPIPullRequest(env.settings, view, doer),
    sender: userJson(env, doer),
    commit_id: "",
  };
  switch (e.kind) {
    case "synchronized": {
      const payload: PullRequestPayload = {
        action: "synchronized",
        ...base,
        requested_reviewer: null,
        repository: repoJson(env, repo, owner, "owner"),
        review: null,
      };
      // Reorder to Gitea's field order.
      return sink.deliver(env, { event: "pull_request_sync", payload: ordered(payload), repo, owner, doer });
    }
    case "retargeted": {
      const payload: PullRequestPayload = {
        action: "edited",
        number: base.number,
        changes: { ref: { from: e.oldBranch } },
        pull_request: base.pull_request,
        requested_reviewer: null,
        repository: repoJson(env, repo, owner, { doer: userById(env, e.issue.posterId) }),
        sender: base.sender,
        commit_id: "",
        review: null,
      };
      return sink.deliver(env, { event: "pull_request", payload, repo, owner, doer });
    }
    case "reviewed": {
      const payload: PullRequestPayload = {
        action: "reviewed",
        ...base,
        requested_reviewer: userJson(env, e.reviewer),
        repository: repoJson(env, repo, owner, { doer: userById(env, e.issue.posterId) }),
        review: { type: event, content: e.review.content },
      };
      return sink.deliver(env, { event, payload: ordered(payload), repo, owner, doer });
    }
    case "review-requested":
    case "review-request-removed": {
      const payload: PullRequestPayload = {
        action: e.kind === "review-requested" ? "review_requested" : "review_request_removed",
        ...base,
        requested_reviewer: userJson(env, e.reviewer),
        repository: repoJson(env, repo, owner, { doer: e.doer }),
        review: null,
      };
      return sink.deliver(env, { event: "pull_request_review_request", payload: ordered(payload), repo, owner, doer });
    }
  }
}

/** The payload's keys in Gitea's struct order (JSON keeps insertion order). */
function ordered(p: PullRequestPayload): PullRequestPayload {
  return {
    action: p.action,
    number: p.number,
    ...(p.changes ? { changes: p.changes } : {}),
    pull_request: p.pull_request,
    requested_reviewer: p.requested_reviewer,
    repository: p.repository,
    sender: p.sender,
    commit_id: p.commit_id,
    review: p.review,
  };
}
