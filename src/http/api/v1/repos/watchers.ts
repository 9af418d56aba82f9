import * as v from "valibot";
import { operation, reply, type AnyOperation } from "../../../route.ts";
import { PageQuery, UsernameParams } from "../../../../shapes/common.ts";
import { RepoParams, Repository } from "../../../../shapes/repo.ts";
import { User } from "../../../../shapes/user.ts";
import { WatchInfo } from "../../../../shapes/repo-social.ts";
import { repoLinks } from "../../../../convert/repo.ts";
import { toAPIUser } from "../../../../convert/user.ts";
import { isWatching, listWatchedRepos, listWatchers, unwatchRepo, watchRepo } from "../../../../services/repo/watch.ts";
import { NotFound } from "../../../../lib/errors.ts";
import { toRFC3339 } from "../../../../lib/time.ts";
import type { Env } from "../../../../services/env.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import { totalOnly } from "./collaborators.ts";
import { listedUser, reposAsSeenBy } from "./stars.ts";

/** Gitea's WatchInfo: `created_at` is the repository's creation time, not the watch's. */
function watchInfo(env: Env, rc: RepoContext) {
  const api = repoLinks(env.settings, rc.owner.name, rc.repo.name).url;
  return {
    subscribed: true,
    ignored: false,
    reason: null,
    created_at: toRFC3339(rc.repo.createdUnix),
    url: `${api}/subscription`,
    repository_url: api,
  };
}

/** Watching: Gitea's reqToken, after the repository was found. */
const subscription = { scope: "repository", signIn: false, repo: { doer: true } } as const;

export const watchOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/subscribers",
    operationId: "repoListSubscribers",
    tag: "repository",
    summary: "List a repo's watchers",
    access: { scope: "repository", signIn: false, repo: {} },
    params: RepoParams,
    query: PageQuery,
    responses: { 200: v.array(User) },
    handler: (ctx) => {
      const { rows, total } = listWatchers(ctx.env, ctx.repo.repo, ctx.page());
      return totalOnly(rows.map((u) => toAPIUser(ctx.env.settings, u, ctx.doer)), total);
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/subscription",
    operationId: "userCurrentCheckSubscription",
    tag: "repository",
    summary: "Check if the current user is watching a repo",
    access: subscription,
    params: RepoParams,
    responses: { 200: WatchInfo },
    handler: ({ env, repo: rc, doer }) => {
      if (!isWatching(env, doer, rc.repo)) throw new NotFound();
      return watchInfo(env, rc);
    },
  }),
  operation({
    method: "PUT",
    path: "/repos/:owner/:repo/subscription",
    operationId: "userCurrentPutSubscription",
    tag: "repository",
    summary: "Watch a repo",
    access: subscription,
    params: RepoParams,
    responses: { 200: WatchInfo },
    handler: ({ env, repo: rc, doer }) => {
      watchRepo(env, doer.id, rc.repo.id);
      return watchInfo(env, rc);
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/subscription",
    operationId: "userCurrentDeleteSubscription",
    tag: "repository",
    summary: "Unwatch a repo",
    access: subscription,
    params: RepoParams,
    responses: { 204: null },
    handler: ({ env, repo: rc, doer }) => {
      unwatchRepo(env, doer.id, rc.repo.id);
      return reply.noContent();
    },
  }),
  operation({
    method: "GET",
    path: "/user/subscriptions",
    operationId: "userCurrentListSubscriptions",
    tag: "user",
    summary: "List repositories watched by the authenticated user",
    access: { scope: "user", signIn: true },
    query: PageQuery,
    responses: { 200: v.array(Repository) },
    handler: (ctx) => {
      const { doer } = ctx;
      const { rows, total } = listWatchedRepos(ctx.env, doer, doer, ctx.page());
      return totalOnly(reposAsSeenBy(ctx.env, doer, rows), total);
    },
  }),
  operation({
    method: "GET",
    path: "/users/:username/subscriptions",
    operationId: "userListSubscriptions",
    tag: "user",
    summary: "List the repositories watched by a user",
    access: { scope: "user", signIn: true, user: listedUser },
    params: UsernameParams,
    query: PageQuery,
    responses: { 200: v.array(Repository) },
    handler: (ctx) => {
      const { rows, total } = listWatchedRepos(ctx.env, ctx.user, ctx.doer, ctx.page());
      return totalOnly(reposAsSeenBy(ctx.env, ctx.user, rows), total);
    },
  }),
];
