import * as v from "valibot";
import { named } from "./registry.ts";
import { opt, requiredString } from "./common.ts";
import { User } from "./user.ts";
import { Repository } from "./repo.ts";

/**
 * Gitea's Actions API shapes (modules/structs/repo_actions.go and friends): runners, workflow
 * runs, their jobs and steps, tasks and workflow files. Fields Gitea tags `omitempty` are
 * optional here; time.Time fields are always written (omitempty does not drop a struct).
 */

export const ActionRunnerLabel = named(
  "ActionRunnerLabel",
  v.object({
    id: v.number(),
    name: v.string(),
    type: v.string(),
  }),
);

export const ActionRunner = named(
  "ActionRunner",
  v.object({
    id: v.number(),
    name: v.string(),
    status: v.string(),
    busy: v.boolean(),
    ephemeral: v.boolean(),
    labels: v.array(ActionRunnerLabel),
  }),
);

export const ActionRunnersResponse = named(
  "ActionRunnersResponse",
  v.object({
    runners: v.array(ActionRunner),
    total_count: v.number(),
  }),
);

/** The registration token operations' body (Gitea's `RegistrationToken` response, which its document gives no schema). */
export const RegistrationTokenBody = v.object({ token: v.string() });

export const ActionWorkflowRun = named(
  "ActionWorkflowRun",
  v.object({
    id: v.number(),
    url: v.string(),
    html_url: v.string(),
    display_title: v.string(),
    path: v.string(),
    event: v.string(),
    run_attempt: v.number(),
    run_number: v.number(),
    repository_id: v.optional(v.number()),
    head_sha: v.string(),
    head_branch: v.optional(v.string()),
    status: v.string(),
    actor: v.optional(User),
    trigger_actor: v.optional(User),
    repository: v.optional(Repository),
    head_repository: v.optional(Repository),
    conclusion: v.optional(v.string()),
    started_at: v.string(),
    completed_at: v.string(),
  }),
);

export const ActionWorkflowRunsResponse = named(
  "ActionWorkflowRunsResponse",
  v.object({
    workflow_runs: v.array(ActionWorkflowRun),
    total_count: v.number(),
  }),
);

export const ActionWorkflowStep = named(
  "ActionWorkflowStep",
  v.object({
    name: v.string(),
    number: v.number(),
    status: v.string(),
    conclusion: v.optional(v.string()),
    started_at: v.string(),
    completed_at: v.string(),
  }),
);

export const ActionWorkflowJob = named(
  "ActionWorkflowJob",
  v.object({
    id: v.number(),
    url: v.string(),
    html_url: v.string(),
    run_id: v.number(),
    run_url: v.string(),
    name: v.string(),
    labels: v.nullable(v.array(v.string())),
    run_attempt: v.number(),
    head_sha: v.string(),
    head_branch: v.optional(v.string()),
    status: v.string(),
    conclusion: v.optional(v.string()),
    runner_id: v.optional(v.number()),
    runner_name: v.optional(v.string()),
    /** `null` until the job has a task, as Gitea's nil slice. */
    steps: v.nullable(v.array(ActionWorkflowStep)),
    created_at: v.string(),
    started_at: v.string(),
    completed_at: v.string(),
  }),
);

export const ActionWorkflowJobsResponse = named(
  "ActionWorkflowJobsResponse",
  v.object({
    jobs: v.array(ActionWorkflowJob),
    total_count: v.number(),
  }),
);

export const ActionTask = named(
  "ActionTask",
  v.object({
    id: v.number(),
    name: v.string(),
    head_branch: v.string(),
    head_sha: v.string(),
    run_number: v.number(),
    event: v.string(),
    display_title: v.string(),
    status: v.string(),
    workflow_id: v.string(),
    url: v.string(),
    created_at: v.string(),
    updated_at: v.string(),
    run_started_at: v.string(),
  }),
);

export const ActionTaskResponse = named(
  "ActionTaskResponse",
  v.object({
    workflow_runs: v.array(ActionTask),
    total_count: v.number(),
  }),
);

export const ActionWorkflow = named(
  "ActionWorkflow",
  v.object({
    id: v.string(),
    name: v.string(),
    path: v.string(),
    state: v.string(),
    created_at: v.string(),
    updated_at: v.string(),
    url: v.string(),
    html_url: v.string(),
    badge_url: v.string(),
    deleted_at: v.string(),
  }),
);

export const ActionWorkflowResponse = named(
  "ActionWorkflowResponse",
  v.object({
    workflows: v.array(ActionWorkflow),
    total_count: v.number(),
  }),
);

/**
 * Gitea binds `ref` as Required: a missing one is the binding's 422 before the handler's own check.
 * Loose, because a form-encoded dispatch carries its inputs as `inputs[name]` fields.
 */
export const CreateActionWorkflowDispatch = named(
  "CreateActionWorkflowDispatch",
  v.looseObject({
    ref: requiredString(),
    inputs: opt(v.record(v.string(), v.string())),
  }),
);

export type APIActionRunner = v.InferOutput<typeof ActionRunner>;
export type APIActionWorkflowRun = v.InferOutput<typeof ActionWorkflowRun>;
export type APIActionWorkflowJob = v.InferOutput<typeof ActionWorkflowJob>;
export type APIActionWorkflowStep = v.InferOutput<typeof ActionWorkflowStep>;
export type APIActionTask = v.InferOutput<typeof ActionTask>;
export type APIActionWorkflow = v.InferOutput<typeof ActionWorkflow>;
