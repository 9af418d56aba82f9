import * as v from "valibot";
import type { AnyOperation } from "../../../route.ts";
import { operation, Reply } from "../../../route.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import { Commit, CommitList, CommitListQuery, CommitOptionsQuery, optionOn } from "../../../../shapes/commit.ts";
import { paginationHeaders } from "../../../pagination.ts";
import { getCommit, commitDiffOrPatch, listCommits, type CommitOptions } from "../../../../services/repo/commits.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import type { Env } from "../../../../services/env.ts";
import { repoAddress, toAPICommit } from "../../../../convert/commit.ts";

export function commitOptions(q: { stat?: string; files?: string; verification?: string } | undefined): CommitOptions {
  return { stat: optionOn(q?.stat), files: optionOn(q?.files), verification: optionOn(q?.verification) };
}

export function addressOf(env: Env, rc: RepoContext) {
  return repoAddress(env.settings, rc.owner.name, rc.repo.name);
}

/** Reading a repository's commits: Gitea's reqRepoReader(Code). */
const read = { scope: "repository", signIn: false, repo: { read: "code" } } as const;

export const commitOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/commits",
    operationId: "repoGetAllCommits",
    tag: "repository",
    summary: "Get a list of all commits from a repository",
    access: read,
    params: RepoParams,
    query: CommitListQuery,
    responses: { 200: CommitList },
    handler: async ({ env, repo: rc, doer, query, url, page }) => {
      const p = page();
      const result = await listCommits(
        env,
        rc,
        { sha: query.sha, path: query.path, not: query.not, since: query.since, until: query.until, page: p.page, limit: p.limit },
        commitOptions(query),
      );
      const address = addressOf(env, rc);
      const items = result.items.map((c) => toAPICommit(env.settings, address, c, doer));
      const pageCount = Math.ceil(result.total / result.limit);
      const headers = paginationHeaders(url, env.settings.server.rootUrl, result.total, {
        page: result.page,
        limit: result.limit,
        offset: (result.page - 1) * result.limit,
      });
      // Kept by Gitea for backwards compatibility, and exposed to browsers like the others.
      headers["X-Page"] = String(result.page);
      headers["X-PerPage"] = String(result.limit);
      headers["X-Total"] = String(result.total);
      headers["X-PageCount"] = String(pageCount);
      headers["X-HasMore"] = String(result.page < pageCount);
      headers["Access-Control-Expose-Headers"] += ", X-Page, X-PerPage, X-Total, X-PageCount, X-HasMore";
      return new Reply(200, items, headers);
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/git/commits/:sha",
    operationId: "repoGetSingleCommit",
    tag: "repository",
    summary: "Get a single commit from a repository",
    access: read,
    params: v.object({ ...RepoParams.entries, sha: v.string() }),
    query: CommitOptionsQuery,
    responses: { 200: Commit },
    handler: async ({ env, repo: rc, doer, params, query }) => {
      const view = await getCommit(env, rc, params.sha, commitOptions(query));
      return toAPICommit(env.settings, addressOf(env, rc), view, doer);
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/git/commits/:sha",
    suffix: { name: "diffType", values: ["diff", "patch"] },
    operationId: "repoDownloadCommitDiffOrPatch",
    tag: "repository",
    summary: "Get a commit's diff or patch",
    access: read,
    params: v.object({ ...RepoParams.entries, sha: v.string(), diffType: v.picklist(["diff", "patch"]) }),
    responses: { 200: v.string(), 404: null },
    // The diff goes out as text/plain, not as a JSON string.
    streams: true,
    handler: async ({ env, repo: rc, params }) => {
      const text = await commitDiffOrPatch(env, rc, params.sha, params.diffType === "patch");
      return new Response(new Uint8Array(text), { headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" } });
    },
  }),
];
