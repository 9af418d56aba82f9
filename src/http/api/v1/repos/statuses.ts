import * as v from "valibot";
import { operation, reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../../shapes/common.ts";
import { CombinedStatus, CommitStatus, CreateStatusOption, RefParams, ShaParams, StatusListQuery } from "../../../../shapes/status.ts";
import {
  combinedStatusOfRef,
  createCommitStatus,
  listStatusesOfRef,
  listStatusesOfSha,
  statusCreators,
} from "../../../../services/status/statuses.ts";
import { combinedState } from "../../../../services/status/combine.ts";
import { repoTopics, type RepoContext } from "../../../../services/repo/lookup.ts";
import type { CommitStatusRow } from "../../../../db/schema/index.ts";
import type { Env } from "../../../../services/env.ts";
import { toAPICombinedStatus, toAPICommitStatus } from "../../../../convert/status.ts";

function statusJson(env: Env, rc: RepoContext, rows: CommitStatusRow[]) {
  return rows.map(statusRenderer(env, rc, rows));
}

/** Renders statuses among `rows`, their creators loaded once. */
function statusRenderer(env: Env, rc: RepoContext, rows: CommitStatusRow[]) {
  const creators = statusCreators(env, rows);
  const view = { ...rc, topics: repoTopics(env, rc.repo.id) };
  return (r: CommitStatusRow) => toAPICommitStatus(env.settings, view, r, creators.get(r.creatorId));
}

/** Reading statuses: Gitea's reqRepoReader(Code) over /statuses and /commits. */
const read = { scope: "repository", signIn: false, repo: { read: "code" } } as const;
/**
 * Posting one: reqRepoReader(Code), reqToken, reqRepoWriter(Code); statuses may still be posted
 * to an archived repository (no mustNotBeArchived).
 */
const write = { scope: "repository", signIn: false, repo: { read: "code", write: "code" } } as const;

export const statusOperations: AnyOperation[] = [
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/statuses/:sha",
    operationId: "repoCreateStatus",
    tag: "repository",
    summary: "Create a commit status",
    access: write,
    params: ShaParams,
    body: CreateStatusOption,
    responses: { 201: CommitStatus },
    handler: async ({ env, repo: rc, doer, params, body }) => {
      const row = await createCommitStatus(env, rc, doer, params.sha, {
        state: body.state,
        targetUrl: body.target_url ?? undefined,
        description: body.description ?? undefined,
        context: body.context ?? undefined,
      });
      return reply.created(statusRenderer(env, rc, [row])(row));
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/statuses/:sha",
    operationId: "repoListStatuses",
    tag: "repository",
    summary: "Get a commit's statuses",
    access: read,
    params: ShaParams,
    query: StatusListQuery,
    responses: { 200: v.array(CommitStatus) },
    handler: async ({ env, repo: rc, params, query, page, list }) => {
      const p = page();
      const { rows, total } = listStatusesOfSha(env, rc, params.sha, query, p);
      return list(statusJson(env, rc, rows), total, p);
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/commits/:ref/statuses",
    operationId: "repoListStatusesByRef",
    tag: "repository",
    summary: "Get a commit's statuses, by branch/tag/commit reference",
    access: read,
    params: RefParams,
    query: StatusListQuery,
    responses: { 200: v.array(CommitStatus) },
    handler: async ({ env, repo: rc, params, query, page, list }) => {
      const p = page();
      const { rows, total } = await listStatusesOfRef(env, rc, params.ref, query, p);
      return list(statusJson(env, rc, rows), total, p);
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/commits/:ref/status",
    operationId: "repoGetCombinedStatusByRef",
    tag: "repository",
    summary: "Get a commit's combined status, by branch/tag/commit reference",
    access: read,
    params: RefParams,
    query: PageQuery,
    responses: { 200: CombinedStatus },
    handler: async ({ env, repo: rc, params, page }) => {
      const { sha, rows, total } = await combinedStatusOfRef(env, rc, params.ref, page());
      const view = { ...rc, topics: repoTopics(env, rc.repo.id) };
      const json = toAPICombinedStatus(env.settings, view, sha, combinedState(rows), rows, statusCreators(env, rows));
      return reply.ok(json, { "X-Total-Count": String(total), "Access-Control-Expose-Headers": "X-Total-Count" });
    },
  }),
];
