import * as v from "valibot";
import { operation, reply, Reply, type Access, type AnyOperation, type Granted, type OpContext } from "../../route.ts";
import { paginationHeaders } from "../../pagination.ts";
import { PageQuery } from "../../../shapes/common.ts";
import { ActionRunner, ActionRunnersResponse, ActionWorkflowJobsResponse, ActionWorkflowRunsResponse, RegistrationTokenBody } from "../../../shapes/actions.ts";
import { deleteRunner, getRunner, listRunners, registrationToken, type RunnerView } from "../../../services/actions/runners.ts";
import type { Env } from "../../../services/env.ts";
import { NotFound } from "../../../lib/errors.ts";
import { listJobItems, listRunItems, type ActionsScope } from "../../../services/actions/api-views.ts";
import { toAPIActionRunner, toAPIWorkflowJob, toAPIWorkflowRun } from "../../../convert/actions.ts";

/**
 * The Actions operations every level has (Gitea's addActionsRoutes for the repository, the
 * organization and the user, and the admin's own group): runners and their registration tokens,
 * and the level's workflow runs and jobs. A level declares who may call them (reqOwner,
 * reqOrgOwnership, the signed-in user, reqSiteAdmin) and names its scope from what was resolved.
 */
export interface ActionsRouteLevel<A extends Access = Access> {
  /** The level's `/actions` path, e.g. `/orgs/:org/actions`. */
  path: string;
  tag: string;
  access: A;
  /** The `/actions` path's own parameters (none for /user and /admin). */
  params: v.ObjectEntries;
  /** Gitea's operationIds and summaries, which differ by level. */
  ops: {
    listRunners: [string, string];
    /** The GET registration token operation; the admin's lives at `/admin/runners/registration-token`. */
    getToken: [string, string, string?];
    createToken: [string, string];
    getRunner: [string, string];
    deleteRunner: [string, string];
    listRuns: [string, string];
    listJobs: [string, string];
  };
  scope(ctx: ActionsLevelContext<A>): ActionsScope;
}

export type ActionsLevelContext<A extends Access = Access> = OpContext<Record<string, string>, unknown, unknown> & Granted<A>;

/**
 * A runner of the level, or Gitea's 404 in its words: getRunnerByID answers a missing runner and
 * another level's alike, with APIErrorNotFound's generic message.
 */
function runnerOf(env: Env, scope: ActionsScope, id: string): RunnerView {
  try {
    return getRunner(env, scope, idParam(id));
  } catch (err) {
    if (err instanceof NotFound) throw new NotFound("The target couldn't be found.");
    throw err;
  }
}

/** Gitea's PathParamInt64: anything but a plain number is 0, which names nothing. */
export const idParam = (s: string): number => (/^\d{1,15}$/.test(s) ? Number(s) : 0);

/** The runs list's filters (Gitea's shared.ListRuns). */
export const RunListQuery = v.object({
  event: v.optional(v.string()),
  branch: v.optional(v.string()),
  status: v.optional(v.string()),
  actor: v.optional(v.string()),
  head_sha: v.optional(v.string()),
  ...PageQuery.entries,
});

/** The jobs list's filter (Gitea's shared.ListJobs). */
export const JobListQuery = v.object({ status: v.optional(v.string()), ...PageQuery.entries });

type ListCtx = Pick<OpContext<unknown, unknown, unknown>, "env" | "url" | "page">;

/** A level's (or a repository's) runs as Gitea lists them, with X-Total-Count and Link. */
export function runsReply(ctx: ListCtx, scope: ActionsScope, query: v.InferOutput<typeof RunListQuery>) {
  const page = ctx.page();
  const { items, total } = listRunItems(
    ctx.env,
    scope,
    { event: query.event, branch: query.branch, status: ctx.url.searchParams.getAll("status"), actor: query.actor, headSha: query.head_sha },
    page,
  );
  const body = { workflow_runs: items.map((i) => toAPIWorkflowRun(ctx.env.settings, i)), total_count: total };
  return new Reply(200, body, paginationHeaders(ctx.url, ctx.env.settings.server.rootUrl, total, page));
}

/** A level's (or one run's) jobs as Gitea lists them, with X-Total-Count and Link. */
export function jobsReply(ctx: ListCtx, scope: ActionsScope, runId?: number) {
  const page = ctx.page();
  const { items, total } = listJobItems(ctx.env, scope, { runId, status: ctx.url.searchParams.getAll("status") }, page);
  const body = { jobs: items.map((i) => toAPIWorkflowJob(ctx.env.settings, i)), total_count: total };
  return new Reply(200, body, paginationHeaders(ctx.url, ctx.env.settings.server.rootUrl, total, page));
}

export function actionsLevelOperations<const A extends Access>(l: ActionsRouteLevel<A>): AnyOperation[] {
  const params = v.object(l.params);
  const runnerParams = v.object({ ...l.params, runner_id: v.string() });
  const base = { tag: l.tag, access: l.access };
  const scope = (ctx: unknown) => l.scope(ctx as ActionsLevelContext<A>);
  const token = (ctx: unknown) => ({ token: registrationToken((ctx as ActionsLevelContext<A>).env, scope(ctx)) });
  const [getTokenId, getTokenSummary, getTokenPath] = l.ops.getToken;
  return [
    operation({
      ...base,
      method: "GET",
      path: `${l.path}/runners`,
      operationId: l.ops.listRunners[0],
      summary: l.ops.listRunners[1],
      params,
      responses: { 200: ActionRunnersResponse },
      // Gitea's ListRunners pages (page, limit) but sets neither X-Total-Count nor Link.
      handler: (ctx) => {
        const { items, total } = listRunners(ctx.env, scope(ctx), ctx.page());
        return { runners: items.map(toAPIActionRunner), total_count: total };
      },
    }),
    operation({
      ...base,
      method: "GET",
      path: getTokenPath ?? `${l.path}/runners/registration-token`,
      operationId: getTokenId,
      summary: getTokenSummary,
      params,
      responses: { 200: RegistrationTokenBody },
      handler: token,
    }),
    operation({
      ...base,
      method: "POST",
      path: `${l.path}/runners/registration-token`,
      operationId: l.ops.createToken[0],
      summary: l.ops.createToken[1],
      params,
      responses: { 200: RegistrationTokenBody },
      handler: token,
    }),
    operation({
      ...base,
      method: "GET",
      path: `${l.path}/runners/:runner_id`,
      operationId: l.ops.getRunner[0],
      summary: l.ops.getRunner[1],
      params: runnerParams,
      responses: { 200: ActionRunner },
      handler: (ctx) => toAPIActionRunner(runnerOf(ctx.env, scope(ctx), ctx.params.runner_id)),
    }),
    operation({
      ...base,
      method: "DELETE",
      path: `${l.path}/runners/:runner_id`,
      operationId: l.ops.deleteRunner[0],
      summary: l.ops.deleteRunner[1],
      params: runnerParams,
      responses: { 204: null },
      handler: (ctx) => {
        deleteRunner(ctx.env, scope(ctx), runnerOf(ctx.env, scope(ctx), ctx.params.runner_id).runner.id);
        return reply.noContent();
      },
    }),
    operation({
      ...base,
      method: "GET",
      path: `${l.path}/runs`,
      operationId: l.ops.listRuns[0],
      summary: l.ops.listRuns[1],
      params,
      query: RunListQuery,
      responses: { 200: ActionWorkflowRunsResponse },
      handler: (ctx) => runsReply(ctx, scope(ctx), ctx.query),
    }),
    operation({
      ...base,
      method: "GET",
      path: `${l.path}/jobs`,
      operationId: l.ops.listJobs[0],
      summary: l.ops.listJobs[1],
      params,
      query: JobListQuery,
      responses: { 200: ActionWorkflowJobsResponse },
      handler: (ctx) => jobsReply(ctx, scope(ctx)),
    }),
  ];
}
