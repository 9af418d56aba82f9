import * as v from "valibot";
import { operation, Reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../../shapes/common.ts";
import { IssueParams } from "../../../../shapes/issue.ts";
import { IssueUserParams } from "../../../../shapes/issue-extras.ts";
import { WatchInfo } from "../../../../shapes/repo-social.ts";
import { User } from "../../../../shapes/user.ts";
import { repoLinks } from "../../../../convert/repo.ts";
import { toAPIUser } from "../../../../convert/user.ts";
import { isSubscribed, listSubscribers, setSubscription } from "../../../../services/issue/subscriptions.ts";
import { toRFC3339 } from "../../../../lib/time.ts";
import { totalOnly } from "../repos/collaborators.ts";

/** Listing: Gitea's mustEnableIssuesOrPulls, then the issue. */
const read = { scope: "issue", signIn: false, repo: { read: "tracker" }, issue: true } as const;
/** Checking or changing a subscription: mustEnableIssuesOrPulls, reqToken, then the issue. */
const subscriber = { scope: "issue", signIn: false, repo: { read: "tracker", doer: true }, issue: true } as const;

/** Gitea's setIssueSubscription: 201 when the state changed, 200 (no body) when it already was so. */
const changedReply = (changed: boolean) => (changed ? new Reply(201) : new Reply(200));

export const subscriptionOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/:index/subscriptions",
    operationId: "issueSubscriptions",
    tag: "issue",
    summary: "Get users who subscribed on an issue.",
    access: read,
    params: IssueParams,
    query: PageQuery,
    responses: { 200: v.array(User) },
    handler: (ctx) => {
      const { env, doer } = ctx;
      const { rows, total } = listSubscribers(env, ctx.issue, ctx.page());
      return totalOnly(rows.map((u) => toAPIUser(env.settings, u, doer)), total);
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/:index/subscriptions/check",
    operationId: "issueCheckSubscription",
    tag: "issue",
    summary: "Check if user is subscribed to an issue",
    access: subscriber,
    params: IssueParams,
    responses: { 200: WatchInfo },
    handler: ({ env, doer, issue: ic }) => {
      const subscribed = isSubscribed(env, doer, ic);
      const api = repoLinks(env.settings, ic.owner.name, ic.repo.name).url;
      // Gitea's WatchInfo for an issue: created_at is the issue's creation time.
      return {
        subscribed,
        ignored: !subscribed,
        reason: null,
        created_at: toRFC3339(ic.issue.createdUnix),
        url: `${api}/issues/${ic.issue.index}/subscriptions`,
        repository_url: api,
      };
    },
  }),
  operation({
    method: "PUT",
    path: "/repos/:owner/:repo/issues/:index/subscriptions/:user",
    operationId: "issueAddSubscription",
    tag: "issue",
    summary: "Subscribe user to issue",
    access: subscriber,
    params: IssueUserParams,
    responses: { 200: null, 201: null },
    handler: ({ env, doer, issue, params }) => changedReply(setSubscription(env, doer, issue, params.user, true)),
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/:index/subscriptions/:user",
    operationId: "issueDeleteSubscription",
    tag: "issue",
    summary: "Unsubscribe user from issue",
    access: subscriber,
    params: IssueUserParams,
    responses: { 200: null, 201: null },
    handler: ({ env, doer, issue, params }) => changedReply(setSubscription(env, doer, issue, params.user, false)),
  }),
];
