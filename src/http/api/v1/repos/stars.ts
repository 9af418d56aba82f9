import * as v from "valibot";
import { operation, reply, type AnyOperation } from "../../../route.ts";
import { PageQuery, UsernameParams } from "../../../../shapes/common.ts";
import { RepoParams, Repository } from "../../../../shapes/repo.ts";
import { User } from "../../../../shapes/user.ts";
import { toAPIUser } from "../../../../convert/user.ts";
import {
  isStarring,
  listStargazers,
  listStarredRepos,
  requireStarsEnabled,
  starRepo,
  unstarRepo,
} from "../../../../services/repo/stars.ts";
import { withContext } from "../../../../services/repo/list.ts";
import { NotFound } from "../../../../lib/errors.ts";
import type { RepoRow, UserRow } from "../../../../db/schema/index.ts";
import type { Env } from "../../../../services/env.ts";
import { repoFromPath, reposJson } from "./context.ts";
import { totalOnly } from "./collaborators.ts";

/** Repository JSON for a user's starred or watched list: permissions are that user's, as in Gitea. */
export function reposAsSeenBy(env: Env, user: UserRow, rows: RepoRow[]) {
  return reposJson(env, withContext(env, user, rows));
}

/** The `{username}` of /users/{username}/starred|subscriptions: an individual the doer may see (Gitea's UserAssignmentAPI). */
export const listedUser = { kind: "user", visible: true } as const;

/**
 * Gitea checks reqStarsEnabled on /user/starred before repoAssignment, so with stars disabled even
 * a repository that does not exist is a 403: a declared repository would be looked up first, so
 * these look it up themselves.
 */
const ownStar = { scope: ["user", "repository"], signIn: true } as const;

export const starOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/stargazers",
    operationId: "repoListStargazers",
    tag: "repository",
    summary: "List a repo's stargazers",
    // Gitea's reqStarsEnabled, after the repository was found.
    access: { scope: "repository", signIn: false, repo: {} },
    params: RepoParams,
    query: PageQuery,
    responses: { 200: v.array(User) },
    handler: (ctx) => {
      requireStarsEnabled(ctx.env);
      const { rows, total } = listStargazers(ctx.env, ctx.repo.repo, ctx.page());
      return totalOnly(rows.map((u) => toAPIUser(ctx.env.settings, u, ctx.doer)), total);
    },
  }),
  operation({
    method: "GET",
    path: "/user/starred",
    operationId: "userCurrentListStarred",
    tag: "user",
    summary: "The repos that the authenticated user has starred",
    access: { scope: ["user", "repository"], signIn: true },
    query: PageQuery,
    responses: { 200: v.array(Repository) },
    handler: (ctx) => {
      requireStarsEnabled(ctx.env);
      const { doer } = ctx;
      const { rows, total } = listStarredRepos(ctx.env, doer, doer, ctx.page());
      return totalOnly(reposAsSeenBy(ctx.env, doer, rows), total);
    },
  }),
  operation({
    method: "GET",
    path: "/user/starred/:owner/:repo",
    operationId: "userCurrentCheckStarring",
    tag: "user",
    summary: "Whether the authenticated is starring the repo",
    access: ownStar,
    params: RepoParams,
    responses: { 204: null },
    handler: ({ env, principal, doer, url, params }) => {
      requireStarsEnabled(env);
      const rc = repoFromPath(env, principal, url, params);
      if (!isStarring(env, doer, rc.repo)) throw new NotFound();
      return reply.noContent();
    },
  }),
  operation({
    method: "PUT",
    path: "/user/starred/:owner/:repo",
    operationId: "userCurrentPutStar",
    tag: "user",
    summary: "Star the given repo",
    access: ownStar,
    params: RepoParams,
    responses: { 204: null },
    handler: ({ env, principal, doer, url, params }) => {
      requireStarsEnabled(env);
      const rc = repoFromPath(env, principal, url, params);
      starRepo(env, doer, rc.repo);
      return reply.noContent();
    },
  }),
  operation({
    method: "DELETE",
    path: "/user/starred/:owner/:repo",
    operationId: "userCurrentDeleteStar",
    tag: "user",
    summary: "Unstar the given repo",
    access: ownStar,
    params: RepoParams,
    responses: { 204: null },
    handler: ({ env, principal, doer, url, params }) => {
      requireStarsEnabled(env);
      const rc = repoFromPath(env, principal, url, params);
      unstarRepo(env, doer, rc.repo);
      return reply.noContent();
    },
  }),
  operation({
    method: "GET",
    path: "/users/:username/starred",
    operationId: "userListStarred",
    tag: "user",
    summary: "The repos that the given user has starred",
    access: { scope: "user", signIn: true, user: listedUser },
    params: UsernameParams,
    query: PageQuery,
    responses: { 200: v.array(Repository) },
    handler: (ctx) => {
      requireStarsEnabled(ctx.env);
      const { rows, total } = listStarredRepos(ctx.env, ctx.user, ctx.doer, ctx.page());
      return totalOnly(reposAsSeenBy(ctx.env, ctx.user, rows), total);
    },
  }),
];
