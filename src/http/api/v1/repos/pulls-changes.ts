import * as v from "valibot";
import { operation, Reply, type AnyOperation } from "../../../route.ts";
import { ChangedFile, PullCommitsQuery, PullFilesQuery, PullParams } from "../../../../shapes/pull.ts";
import { CommitList, optionOn } from "../../../../shapes/commit.ts";
import { paginationHeaders, type Page } from "../../../pagination.ts";
import { toAPIChangedFile } from "../../../../convert/pull.ts";
import { toAPICommit } from "../../../../convert/commit.ts";
import { pullCommits, pullFiles } from "../../../../services/pull/changes.ts";
import type { Env } from "../../../../services/env.ts";
import { addressOf } from "./commits.ts";

/** The pull request of `:index`: Gitea's mustAllowPulls and reqRepoReader(Code) on the `/pulls` group. */
const readPull = { scope: "repository", signIn: false, repo: { read: "pulls" }, pull: true } as const;

/** Gitea's list headers of these two endpoints: Link and X-Total-Count, plus X-Page, X-PerPage, X-PageCount, X-HasMore. */
function listReply<T>(env: Env, url: URL, items: T[], total: number, page: Page): Reply<200, T[]> {
  const headers = paginationHeaders(url, env.settings.server.rootUrl, total, page);
  const pageCount = Math.ceil(total / page.limit);
  headers["X-Page"] = String(page.page);
  headers["X-PerPage"] = String(page.limit);
  headers["X-PageCount"] = String(pageCount);
  headers["X-HasMore"] = String(page.page < pageCount);
  headers["Access-Control-Expose-Headers"] = [headers["Access-Control-Expose-Headers"], "X-Page, X-PerPage, X-PageCount, X-HasMore"]
    .filter(Boolean)
    .join(", ");
  return new Reply(200, items, headers);
}

export const pullChangeOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/pulls/:index/files",
    operationId: "repoGetPullRequestFiles",
    tag: "repository",
    summary: "Get changed files for a pull request",
    access: readPull,
    params: PullParams,
    query: PullFilesQuery,
    responses: { 200: v.array(ChangedFile) },
    handler: async ({ env, pull: pc, url, query, page }) => {
      const p = page();
      const result = await pullFiles(env, pc, { skipTo: query["skip-to"], whitespace: query.whitespace, offset: p.offset, limit: p.limit });
      const head = result.headRepo ?? pc;
      const files = result.files.map((f) => toAPIChangedFile(env.settings, f, { owner: head.owner.name, repo: head.repo.name }, result.headSha));
      return listReply(env, url, files, result.total, p);
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/pulls/:index/commits",
    operationId: "repoGetPullRequestCommits",
    tag: "repository",
    summary: "Get commits for a pull request",
    access: readPull,
    params: PullParams,
    query: PullCommitsQuery,
    responses: { 200: CommitList },
    handler: async ({ env, repo: rc, pull: pc, doer, url, query, page }) => {
      const p = page();
      const result = await pullCommits(env, pc, p, { files: optionOn(query.files), verification: optionOn(query.verification) });
      const address = addressOf(env, rc);
      const items = result.items.map((c) => toAPICommit(env.settings, address, c, doer));
      return listReply(env, url, items, result.total, p);
    },
  }),
];
