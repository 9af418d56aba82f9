import * as v from "valibot";
import { operation, reply, Reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../../shapes/common.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import { CreatePushMirrorOption, PushMirror, PushMirrorParams } from "../../../../shapes/push-mirror.ts";
import { createPushMirror, deletePushMirror, getPushMirror, listPushMirrors, requireMirrorsEnabled } from "../../../../services/mirror/push-mirrors.ts";
import { syncRepoPushMirrors } from "../../../../services/mirror/sync.ts";
import { toAPIPushMirror } from "../../../../convert/push-mirror.ts";

/** Reading push mirrors: Gitea's reqAdmin and reqToken on the push mirror routes (hearth asks for the sign-in first). */
const read = { scope: "repository", signIn: true, repo: { admin: true } } as const;
/** Adding, deleting and syncing them: the same, then mustNotBeArchived. */
const write = { scope: "repository", signIn: true, repo: { admin: true, notArchived: true } } as const;

export const pushMirrorOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/push_mirrors",
    operationId: "repoListPushMirrors",
    tag: "repository",
    summary: "Get all push mirrors of the repository",
    access: read,
    params: RepoParams,
    query: PageQuery,
    responses: { 200: v.array(PushMirror) },
    handler: ({ env, repo: rc, page: pageOf, list }) => {
      const page = pageOf();
      const { items, total } = listPushMirrors(env, rc.repo.id, page);
      return list(
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
    access: write,
    params: RepoParams,
    body: CreatePushMirrorOption,
    responses: { 200: PushMirror },
    handler: async ({ env, repo: rc, body: b }) => {
      const m = await createPushMirror(env, rc, {
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
    access: write,
    params: RepoParams,
    responses: { 200: null },
    handler: ({ env, repo: rc }) => {
      requireMirrorsEnabled(env);
      // Queued, not awaited: the answer does not wait for the remotes (see README).
      syncRepoPushMirrors(env, rc);
      return new Reply(200);
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/push_mirrors/:name",
    operationId: "repoGetPushMirrorByRemoteName",
    tag: "repository",
    summary: "Get push mirror of the repository by remoteName",
    access: read,
    params: PushMirrorParams,
    responses: { 200: PushMirror },
    handler: ({ env, repo: rc, params }) => toAPIPushMirror(getPushMirror(env, rc.repo.id, params.name), rc.repo.name),
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/push_mirrors/:name",
    operationId: "repoDeletePushMirror",
    tag: "repository",
    summary: "deletes a push mirror from a repository by remoteName",
    access: write,
    params: PushMirrorParams,
    responses: { 204: null },
    handler: ({ env, repo: rc, params }) => {
      deletePushMirror(env, rc, params.name);
      return reply.noContent();
    },
  }),
];
