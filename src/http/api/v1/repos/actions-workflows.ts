import * as v from "valibot";
import { operation, reply, type AnyOperation } from "../../../route.ts";
import { ActionWorkflow, ActionWorkflowResponse, CreateActionWorkflowDispatch } from "../../../../shapes/actions.ts";
import { getWorkflow, listWorkflows, setWorkflowEnabled } from "../../../../services/actions/api-workflows.ts";
import { dispatchWorkflow } from "../../../../services/actions/dispatch.ts";
import { payloadRepo } from "../../../../services/webhook/sources.ts";
import { toAPIWorkflow } from "../../../../convert/actions.ts";
import { toAPIRepo } from "../../../../convert/repo.ts";
import { toAPIUser } from "../../../../convert/user.ts";
import { Invalid } from "../../../../lib/errors.ts";

/**
 * A repository's workflow files (Gitea 1.25's `/actions/workflows` group: reqToken and
 * reqRepoReader(actions); switching one off or on and dispatching it need reqRepoWriter(actions)).
 * A workflow's id is its file name.
 */
const reader = { scope: "repository", signIn: false, repo: { read: "actions", doer: true } } as const;
const writer = { scope: "repository", signIn: false, repo: { read: "actions", write: "actions" } } as const;

const RepoParams = v.object({ owner: v.string(), repo: v.string() });
const WorkflowParams = v.object({ owner: v.string(), repo: v.string(), workflow_id: v.string() });

/**
 * A form-encoded dispatch's inputs: Gitea's binding cannot fill a map from a form, so its handler
 * reads each `inputs[name]` field itself (the first value of a repeated one).
 */
function formInputs(body: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    const name = /^inputs\[(.+)\]$/.exec(key)?.[1];
    const first = Array.isArray(value) ? value[0] : value;
    if (name !== undefined && typeof first === "string") out[name] = first;
  }
  return out;
}

export const repoActionsWorkflowOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/actions/workflows",
    operationId: "ActionsListRepositoryWorkflows",
    tag: "repository",
    summary: "List repository workflows",
    access: reader,
    params: RepoParams,
    responses: { 200: ActionWorkflowResponse },
    handler: async ({ env, repo: rc }) => {
      const workflows = (await listWorkflows(env, rc)).map((w) => toAPIWorkflow(env.settings, rc, w));
      return { workflows, total_count: workflows.length };
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/actions/workflows/:workflow_id",
    operationId: "ActionsGetWorkflow",
    tag: "repository",
    summary: "Get a workflow",
    access: reader,
    params: WorkflowParams,
    responses: { 200: ActionWorkflow },
    handler: async ({ env, repo: rc, params }) => toAPIWorkflow(env.settings, rc, await getWorkflow(env, rc, params.workflow_id)),
  }),
  operation({
    method: "PUT",
    path: "/repos/:owner/:repo/actions/workflows/:workflow_id/disable",
    operationId: "ActionsDisableWorkflow",
    tag: "repository",
    summary: "Disable a workflow",
    access: writer,
    params: WorkflowParams,
    responses: { 204: null },
    handler: async ({ env, repo: rc, params }) => {
      await setWorkflowEnabled(env, rc, params.workflow_id, false);
      return reply.noContent();
    },
  }),
  operation({
    method: "PUT",
    path: "/repos/:owner/:repo/actions/workflows/:workflow_id/enable",
    operationId: "ActionsEnableWorkflow",
    tag: "repository",
    summary: "Enable a workflow",
    access: writer,
    params: WorkflowParams,
    responses: { 204: null },
    handler: async ({ env, repo: rc, params }) => {
      await setWorkflowEnabled(env, rc, params.workflow_id, true);
      return reply.noContent();
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/actions/workflows/:workflow_id/dispatches",
    operationId: "ActionsDispatchWorkflow",
    tag: "repository",
    summary: "Create a workflow dispatch event",
    access: writer,
    params: WorkflowParams,
    body: CreateActionWorkflowDispatch,
    responses: { 204: null },
    handler: async ({ env, repo: rc, doer, params, body, request }) => {
      // Bound before the handler, as Gitea's bind(): a malformed body is a 422 before anything else.
      const { ref } = body;
      if (!ref) throw new Invalid("ref is required parameter");
      const form = (request.headers.get("content-type") ?? "").includes("form-urlencoded");
      const inputs = form ? formInputs(body) : (body.inputs ?? {});
      // The payload's repository and sender as Gitea renders them for it: with no one's access.
      const { parent, ...view } = payloadRepo(env, rc.repo, rc.owner, "none");
      const repository = toAPIRepo(env.settings, parent ? { ...view, parent: toAPIRepo(env.settings, { ...parent, parent: undefined }) } : view);
      const sender = toAPIUser(env.settings, doer, undefined);
      await dispatchWorkflow(env, rc, doer, { workflowId: params.workflow_id, ref, inputs, repository, sender });
      return reply.noContent();
    },
  }),
];
