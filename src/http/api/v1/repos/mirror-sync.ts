import { operation, Reply, type AnyOperation } from "../../../route.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import { syncPullMirrorNow } from "../../../../services/mirror/pull-mirror-admin.ts";

export const mirrorSyncOperations: AnyOperation[] = [
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/mirror-sync",
    operationId: "repoMirrorSync",
    tag: "repository",
    summary: "Sync a mirrored repository",
    // Gitea's reqToken, reqRepoWriter(unit.TypeCode), mustNotBeArchived.
    access: { scope: "repository", signIn: false, repo: { write: "code", notArchived: true } },
    params: RepoParams,
    // 400: the mirror feature is off, or the repository is not a mirror.
    responses: { 200: null, 400: null },
    handler: ({ env, repo: rc }) => {
      // Queued, not awaited: the answer does not wait for the remote.
      syncPullMirrorNow(env, rc);
      return new Reply(200);
    },
  }),
];
