import * as v from "valibot";
import { operation, reply, Reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../schemas/common.ts";
import { RepoParams } from "../../../schemas/repo.ts";
import { CreatePushMirrorOption, PushMirror, PushMirrorParams } from "../../../schemas/push-mirror.ts";
import type { Env } from "../../../../services/env.ts";
import type { Principal } from "../../../../auth/principal.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import { HearthError } from "../../../../lib/errors.ts";
import { createPushMirror, deletePushMirror, getPushMirror, listPushMirrors, requireMirrorsEnabled } from "../../../../services/mirror/push-mirrors.ts";
import { syncRepoPushMirrors } from "../../../../services/mirror/sync.ts";
import { toAPIPushMirror } from "../../../../convert/push-mirror.ts";
import { repoFromPath } from "./context.ts";
import { requireRepoAdmin } from "./repo.ts";

/** Gitea's reqAdmin and reqToken on the push mirror routes, then mustNotBeArchived where it writes. */
function adminRepo(
  env: Env,
  principal: Principal | undefined,
  url: URL,
  params: { owner: string; repo: string },
  writes: boolean,
): RepoContext {
  const rc = repoFromPath(env, principal, url, params);
  requireRepoAdmin(principal, rc.perm.isAdmin());
  if (writes && rc.repo.isArchived) throw new HearthError(423, `${rc.owner.name}/${rc.repo.name} is archived`);
  return rc;
}

const access = { scope: "repository", signIn: true } as const;

export const pushMirrorOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/push_mirrors",
    operationId: "repoListPushMirrors",
    tag: "repository",
    summary: "Get all push mirrors of the repository",
    access,
    params: RepoParams,
    query: PageQuery,
    responses: { 200: v.array(PushMirror) },
    handler: (ctx) => {
      const rc = adminRepo(ctx.env, ctx.principal, ctx.url, ctx.params, false);
      const page = ctx.page();
      const { items, total } = listPushMirrors(ctx.env, rc.repo.id, page);
      return ctx.list(
        items.map((m) => toAPIPushMirror(m, rc.repo.name)),
        total,
        page,
      );
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/push_mirrors",
    operationId: "repoAddPushMirror",
    tag: "repository",
    summary: "add a push mirror to the repository",
    access,
    params: RepoParams,
    body: CreatePushMirrorOption,
    responses: { 200: PushMirror },
    handler: async (ctx) => {
      const rc = adminRepo(ctx.env, ctx.principal, ctx.url, ctx.params, true);
      const b = ctx.body;
      const m = await createPushMirror(ctx.env, rc.repo.id, {
        remoteAddress: b.remote_address ?? "",
        remoteUsername: b.remote_username ?? "",
        remotePassword: b.remote_password ?? "",
        interval: b.interval ?? "",
        syncOnCommit: b.sync_on_commit ?? false,
      });
      return toAPIPushMirror(m, rc.repo.name);
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/push_mirrors-sync",
    operationId: "repoPushMirrorSync",
    tag: "repository",
    summary: "Sync all push mirrored repository",
    access,
    params: RepoParams,
    responses: { 200: null },
    handler: (ctx) => {
      const rc = adminRepo(ctx.env, ctx.principal, ctx.url, ctx.params, true);
      requireMirrorsEnabled(ctx.env);
      // Queued, not awaited: the answer does not wait for the remotes (see README).
      syncRepoPushMirrors(ctx.env, rc.repo.id);
      return new Reply(200);
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/push_mirrors/:name",
    operationId: "repoGetPushMirrorByRemoteName",
    tag: "repository",
    summary: "Get push mirror of the repository by remoteName",
    access,
    params: PushMirrorParams,
    responses: { 200: PushMirror },
    handler: (ctx) => {
      const rc = adminRepo(ctx.env, ctx.principal, ctx.url, ctx.params, false);
      return toAPIPushMirror(getPushMirror(ctx.env, rc.repo.id, ctx.params.name), rc.repo.name);
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/push_mirrors/:name",
    operationId: "repoDeletePushMirror",
    tag: "repository",
    summary: "deletes a push mirror from a repository by remoteName",
    access,
    params: PushMirrorParams,
    responses: { 204: null },
    handler: (ctx) => {
      const rc = adminRepo(ctx.env, ctx.principal, ctx.url, ctx.params, true);
      deletePushMirror(ctx.env, rc.repo.id, ctx.params.name);
      return reply.noContent();
    },
  }),
];
