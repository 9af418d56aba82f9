import { operation, type AnyOperation } from "../../../route.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import { MergeUpstreamRequest, MergeUpstreamResponse } from "../../../../shapes/merge-upstream.ts";
import { mergeUpstream } from "../../../../services/repo/merge-upstream.ts";

export const mergeUpstreamOperations: AnyOperation[] = [
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/merge-upstream",
    operationId: "repoMergeUpstream",
    tag: "repository",
    summary: "Merge a branch from upstream",
    // Gitea's mustNotBeArchived and reqRepoWriter(unit.TypeCode) under write:repository.
    access: { scope: "repository", signIn: false, repo: { read: "code", write: "code", notArchived: true } },
    params: RepoParams,
    body: MergeUpstreamRequest,
    // 409: a merge with conflicts or unrelated histories, or a branch that moved meanwhile (Gitea
    // answers those with a 500); 403: the branch's protection refuses the update.
    responses: { 200: MergeUpstreamResponse, 400: null, 403: null, 404: null, 409: null },
    handler: async ({ env, repo: rc, doer, body }) => {
      const mergeType = await mergeUpstream(env, rc, doer, body.branch ?? "", body.ff_only ?? false);
      return { merge_type: mergeType };
    },
  }),
];
