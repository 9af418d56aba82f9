import * as v from "valibot";
import { operation, reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../../shapes/common.ts";
import { ActionTaskResponse, ActionWorkflowJob, ActionWorkflowJobsResponse, ActionWorkflowRun } from "../../../../shapes/actions.ts";
import { deleteRun, jobItem, jobLog, listTaskItems, runItem } from "../../../../services/actions/api-views.ts";
import { toAPIActionTask, toAPIWorkflowJob, toAPIWorkflowRun } from "../../../../convert/actions.ts";
import { contentDisposition } from "../../../../lib/content-disposition.ts";
import { BadRequest } from "../../../../lib/errors.ts";
import { idParam, jobsReply, JobListQuery } from "../actions-level-routes.ts";

/**
 * A repository's runs, jobs, tasks and job logs (Gitea 1.25's `/actions` reader group). Runs and
 * tasks need only the Actions unit readable (reqRepoReader(actions), no token: anyone who may read
 * a public repository's Actions); deleting a run needs write on it (reqToken, reqRepoWriter); a
 * single job and its log are in a group that asks for a token too.
 */
const reader = { scope: "repository", signIn: false, repo: { read: "actions" } } as const;
const signedReader = { scope: "repository", signIn: false, repo: { read: "actions", doer: true } } as const;
const writer = { scope: "repository", signIn: false, repo: { read: "actions", write: "actions" } } as const;

const RepoParams = { owner: v.string(), repo: v.string() };
const RunParams = v.object({ ...RepoParams, run: v.string() });
const JobParams = v.object({ ...RepoParams, job_id: v.string() });

export const repoActionsRunOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/actions/tasks",
    operationId: "ListActionTasks",
    tag: "repository",
    summary: "List a repository's action tasks",
    access: reader,
    params: v.object(RepoParams),
    query: PageQuery,
    responses: { 200: ActionTaskResponse },
    // Gitea's ListActionTasks pages but sets no X-Total-Count or Link.
    handler: ({ env, repo: rc, page }) => {
      const { items, total } = listTaskItems(env, rc, page());
      return { workflow_runs: items.map((i) => toAPIActionTask(env.settings, i)), total_count: total };
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/actions/runs/:run",
    operationId: "GetWorkflowRun",
    tag: "repository",
    summary: "Gets a specific workflow run",
    access: reader,
    params: RunParams,
    responses: { 200: ActionWorkflowRun },
    handler: ({ env, repo: rc, params }) => toAPIWorkflowRun(env.settings, runItem(env, rc.repo.id, idParam(params.run))),
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/actions/runs/:run",
    operationId: "deleteActionRun",
    tag: "repository",
    summary: "Delete a workflow run",
    access: writer,
    params: RunParams,
    responses: { 204: null },
    handler: ({ env, repo: rc, params }) => {
      deleteRun(env, rc, idParam(params.run));
      return reply.noContent();
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/actions/runs/:run/jobs",
    operationId: "listWorkflowRunJobs",
    tag: "repository",
    summary: "Lists all jobs for a workflow run",
    access: reader,
    params: RunParams,
    query: JobListQuery,
    responses: { 200: ActionWorkflowJobsResponse },
    handler: (ctx) => {
      // Gitea lists a run's jobs by the run's id without looking the run up; 0 would list them all.
      const runId = idParam(ctx.params.run);
      if (runId <= 0) throw new BadRequest("runID must be a positive integer");
      return jobsReply(ctx, { repoId: ctx.repo.repo.id }, runId);
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/actions/jobs/:job_id",
    operationId: "getWorkflowJob",
    tag: "repository",
    summary: "Gets a specific workflow job for a workflow run",
    access: signedReader,
    params: JobParams,
    responses: { 200: ActionWorkflowJob },
    handler: ({ env, repo: rc, params }) => toAPIWorkflowJob(env.settings, jobItem(env, rc.repo.id, idParam(params.job_id))),
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/actions/jobs/:job_id/logs",
    operationId: "downloadActionsRunJobLogs",
    tag: "repository",
    summary: "Downloads the job logs for a workflow run",
    access: signedReader,
    params: JobParams,
    responses: { 200: null },
    streams: true,
    handler: async ({ env, repo: rc, params }) => {
      const { fileName, text } = await jobLog(env, rc.repo.id, idParam(params.job_id));
      const body = Buffer.from(text, "utf8");
      return new Response(body, {
        headers: {
          "Content-Type": "text/plain; charset=utf-8",
          "Content-Length": String(body.length),
          "Content-Disposition": contentDisposition("attachment", fileName),
        },
      });
    },
  }),
];
