import * as v from "valibot";
import { operation, Reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../schemas/common.ts";
import { IssueParams } from "../../../schemas/issue.ts";
import { IssueUserParams } from "../../../schemas/issue-extras.ts";
import { WatchInfo } from "../../../schemas/repo-social.ts";
import { User } from "../../../schemas/user.ts";
import { repoLinks } from "../../../../convert/repo.ts";
import { toAPIUser } from "../../../../convert/user.ts";
import { issueFromPath, requireTrackerReader } from "../../../../services/issue/lookup.ts";
import { isSubscribed, listSubscribers, setSubscription } from "../../../../services/issue/subscriptions.ts";
import { toRFC3339 } from "../../../../lib/time.ts";
import type { Principal } from "../../../../auth/principal.ts";
import type { Env } from "../../../../services/env.ts";
import { repoFromPath } from "../repos/context.ts";
import { requireToken, totalOnly } from "../repos/collaborators.ts";

type Ctx = { env: Env; principal: Principal | undefined; url: URL; params: { owner: string; repo: string; index: string; user: string } };

/** Gitea's setIssueSubscription: 201 when the state changed, 200 (no body) when it already was so. */
function subscribe(ctx: Ctx, watch: boolean): Reply {
  const { env, principal, url, params } = ctx;
  const rc = repoFromPath(env, principal, url, params);
  requireTrackerReader(rc);
  requireToken(principal);
  const changed = setSubscription(env, principal.user, issueFromPath(env, rc, params.index), params.user, watch);
  return new Reply(changed ? 201 : 200);
}

export const subscriptionOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/:index/subscriptions",
    operationId: "issueSubscriptions",
    tag: "issue",
    summary: "Get users who subscribed on an issue.",
    access: { scope: "issue", signIn: false },
    params: IssueParams,
    query: PageQuery,
    responses: { 200: v.array(User) },
    handler: (ctx) => {
      const { env, principal } = ctx;
      const rc = repoFromPath(env, principal, ctx.url, ctx.params);
      requireTrackerReader(rc);
      const { rows, total } = listSubscribers(env, issueFromPath(env, rc, ctx.params.index), ctx.page());
      return totalOnly(rows.map((u) => toAPIUser(env.settings, u, principal?.user)), total);
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/:index/subscriptions/check",
    operationId: "issueCheckSubscription",
    tag: "issue",
    summary: "Check if user is subscribed to an issue",
    access: { scope: "issue", signIn: false },
    params: IssueParams,
    responses: { 200: WatchInfo },
    handler: ({ env, principal, url, params }) => {
      const rc = repoFromPath(env, principal, url, params);
      requireTrackerReader(rc);
      requireToken(principal);
      const ic = issueFromPath(env, rc, params.index);
      const subscribed = isSubscribed(env, principal.user, ic);
      const api = repoLinks(env.settings, rc.owner.name, rc.repo.name).url;
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
    access: { scope: "issue", signIn: false },
    params: IssueUserParams,
    responses: { 200: null, 201: null },
    handler: (ctx) => subscribe(ctx, true),
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/:index/subscriptions/:user",
    operationId: "issueDeleteSubscription",
    tag: "issue",
    summary: "Unsubscribe user from issue",
    access: { scope: "issue", signIn: false },
    params: IssueUserParams,
    responses: { 200: null, 201: null },
    handler: (ctx) => subscribe(ctx, false),
  }),
];
