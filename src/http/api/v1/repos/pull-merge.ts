import * as v from "valibot";
import { operation, reply, Reply, type AnyOperation } from "../../../route.ts";
import { named } from "../../../../shapes/registry.ts";
import { PullParams, PullRequest } from "../../../../shapes/pull.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import { toAPIPullRequest } from "../../../../convert/pull.ts";
import { pullView } from "../../../../services/pull/view.ts";
import { pullMergedAs } from "../../../../services/pull/list.ts";
import { mergePullRequest } from "../../../../services/pull/merge-request.ts";
import { cancelAutoMerge } from "../../../../services/pull/automerge.ts";
import { updatePullBranch } from "../../../../services/pull/update.ts";
import { MERGE_STYLES } from "../../../../services/pull/merge-styles.ts";
import { NotFound } from "../../../../lib/errors.ts";

/** The merged pull request of a commit: the `/pulls` group's mustAllowPulls and reqRepoReader(Code). */
const readPulls = { scope: "repository", signIn: false, repo: { read: "pulls" } } as const;
/** The pull request of `:index`, under the same guards. */
const readPull = { scope: "repository", signIn: false, repo: { read: "pulls" }, pull: true } as const;
/**
 * Merging, cancelling an auto merge, updating the head: signed in before the repository is looked up
 * (as hearth has always answered), then mustNotBeArchived, then the pull request of `:index` with the
 * group's guards.
 */
const changePull = { scope: "repository", signIn: true, repo: { notArchived: true }, pull: true } as const;

const MergePullRequestOption = named(
  "MergePullRequestOption",
  v.object({
    Do: v.picklist(MERGE_STYLES),
    MergeCommitID: v.optional(v.nullable(v.string())),
    MergeMessageField: v.optional(v.nullable(v.string())),
    MergeTitleField: v.optional(v.nullable(v.string())),
    delete_branch_after_merge: v.optional(v.nullable(v.boolean())),
    force_merge: v.optional(v.nullable(v.boolean())),
    head_commit_id: v.optional(v.nullable(v.string())),
    merge_when_checks_succeed: v.optional(v.nullable(v.boolean())),
  }),
);

const UpdateQuery = v.object({ style: v.optional(v.picklist(["merge", "rebase"])) });

export const pullMergeOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/commits/:ref/pull",
    docNames: { ref: "sha" },
    operationId: "repoGetCommitPullRequest",
    tag: "repository",
    summary: "Get the merged pull request of the commit",
    access: readPulls,
    params: v.object({ ...RepoParams.entries, ref: v.string() }),
    responses: { 200: PullRequest, 404: null },
    handler: async ({ env, repo: rc, doer, params }) => {
      const found = pullMergedAs(env, rc, params.ref);
      return toAPIPullRequest(env.settings, await pullView(env, doer, rc, found.pull, found.issue), doer);
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/pulls/:index/merge",
    operationId: "repoPullRequestIsMerged",
    tag: "repository",
    summary: "Check if a pull request has been merged",
    access: readPull,
    params: PullParams,
    responses: { 204: null, 404: null },
    handler: ({ pull: pc }) => {
      if (!pc.pull.hasMerged) throw new NotFound();
      return reply.noContent();
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/pulls/:index/merge",
    operationId: "repoMergePullRequest",
    tag: "repository",
    summary: "Merge a pull request",
    access: changePull,
    params: PullParams,
    body: MergePullRequestOption,
    responses: { 200: null, 201: null, 404: null, 405: null, 409: null, 423: null },
    handler: async ({ env, doer, pull: pc, body: b }) => {
      const outcome = await mergePullRequest(env, doer, pc, {
        style: b.Do,
        title: b.MergeTitleField ?? undefined,
        message: b.MergeMessageField ?? undefined,
        mergeCommitId: b.MergeCommitID ?? undefined,
        headCommitId: b.head_commit_id ?? undefined,
        forceMerge: b.force_merge ?? false,
        deleteBranchAfterMerge: b.delete_branch_after_merge ?? undefined,
        mergeWhenChecksSucceed: b.merge_when_checks_succeed ?? false,
      });
      // Gitea: 201 when the merge was scheduled for when the checks pass, 200 when done.
      return new Reply(outcome === "scheduled" ? 201 : 200);
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/pulls/:index/merge",
    operationId: "repoCancelScheduledAutoMerge",
    tag: "repository",
    summary: "Cancel the scheduled auto merge for the given pull request",
    access: changePull,
    params: PullParams,
    responses: { 204: null, 403: null, 404: null, 423: null },
    handler: ({ env, doer, pull: pc }) => {
      cancelAutoMerge(env, doer, pc);
      return reply.noContent();
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/pulls/:index/update",
    operationId: "repoUpdatePullRequest",
    tag: "repository",
    summary: "Merge PR's baseBranch into headBranch",
    access: changePull,
    params: PullParams,
    query: UpdateQuery,
    responses: { 200: null, 403: null, 404: null, 409: null, 422: null },
    handler: async ({ env, doer, pull: pc, query }) => {
      await updatePullBranch(env, doer, pc, query.style ?? "merge");
      return new Reply(200);
    },
  }),
];
