import { sqliteTable, integer, text, index, uniqueIndex, primaryKey } from "drizzle-orm/sqlite-core";

/**
 * Gitea Actions as Gitea models them (models/actions): runners and their registration tokens; a
 * run (one workflow file triggered by one event) has jobs (one per job of the file and matrix
 * combination); each attempt at a job is a task handed to a runner, with steps, outputs and a log;
 * artifacts belong to a run. Scheduled workflows keep their file and cron specs.
 *
 * `owner_id`/`repo_id` place a runner or token at a level as Gitea does: both 0 is the instance,
 * owner only a user or organization, repo only a repository.
 */

/** Gitea's ActionRunStatus values, shared by runs, jobs, tasks and steps. */
export const ActionStatus = {
  Unknown: 0,
  Success: 1,
  Failure: 2,
  Cancelled: 3,
  Skipped: 4,
  Waiting: 5,
  Running: 6,
  Blocked: 7,
} as const;
export type ActionStatusValue = (typeof ActionStatus)[keyof typeof ActionStatus];

export const actionRunners = sqliteTable(
  "action_runner",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    uuid: text("uuid").notNull(),
    name: text("name").notNull(),
    version: text("version").notNull().default(""),
    ownerId: integer("owner_id").notNull().default(0),
    repoId: integer("repo_id").notNull().default(0),
    description: text("description").notNull().default(""),
    /** SHA-256 of the runner's token (hex); the token itself is shown once, at registration. */
    tokenHash: text("token_hash").notNull(),
    /** The labels the runner declared, JSON array. */
    labelsJson: text("labels_json").notNull().default("[]"),
    ephemeral: integer("ephemeral", { mode: "boolean" }).notNull().default(false),
    lastOnlineUnix: integer("last_online_unix").notNull().default(0),
    lastActiveUnix: integer("last_active_unix").notNull().default(0),
    createdUnix: integer("created_unix").notNull(),
    updatedUnix: integer("updated_unix").notNull(),
  },
  (t) => [
    uniqueIndex("action_runner_uuid_uq").on(t.uuid),
    uniqueIndex("action_runner_token_hash_uq").on(t.tokenHash),
    index("action_runner_level_idx").on(t.ownerId, t.repoId),
  ],
);

export const actionRunnerTokens = sqliteTable(
  "action_runner_token",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    token: text("token").notNull(),
    ownerId: integer("owner_id").notNull().default(0),
    repoId: integer("repo_id").notNull().default(0),
    /** Cleared once a runner registers with it: a registration token is good for one runner. */
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    createdUnix: integer("created_unix").notNull(),
  },
  (t) => [uniqueIndex("action_runner_token_uq").on(t.token), index("action_runner_token_level_idx").on(t.ownerId, t.repoId, t.id)],
);

export const actionRuns = sqliteTable(
  "action_run",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    title: text("title").notNull(),
    repoId: integer("repo_id").notNull(),
    ownerId: integer("owner_id").notNull(),
    /** The workflow's file name (`ci.yml`), Gitea's WorkflowID. */
    workflowId: text("workflow_id").notNull(),
    /** The directory it was found in (`.gitea/workflows`). */
    workflowDir: text("workflow_dir").notNull().default(".gitea/workflows"),
    /** Numbered per repository, as Gitea's run index. */
    index: integer("index").notNull(),
    triggerUserId: integer("trigger_user_id").notNull(),
    scheduleId: integer("schedule_id").notNull().default(0),
    ref: text("ref").notNull(),
    commitSha: text("commit_sha").notNull(),
    isForkPullRequest: integer("is_fork_pull_request", { mode: "boolean" }).notNull().default(false),
    /** Gitea's hook event that started the run (`push`, `pull_request_sync`...), Gitea's ActionRun.Event. */
    event: text("event").notNull(),
    /** The webhook payload of the triggering event, JSON: the `github.event` of every job. */
    eventPayload: text("event_payload").notNull(),
    /** GitHub's event name the workflow matched (`push`, `pull_request_target`...), Gitea's TriggerEvent. */
    triggerEvent: text("trigger_event").notNull(),
    status: integer("status").notNull(),
    /** Bumped on every change of the run or its jobs, for optimistic updates. */
    version: integer("version").notNull().default(0),
    concurrencyGroup: text("concurrency_group").notNull().default(""),
    concurrencyCancel: integer("concurrency_cancel", { mode: "boolean" }).notNull().default(false),
    startedUnix: integer("started_unix").notNull().default(0),
    stoppedUnix: integer("stopped_unix").notNull().default(0),
    /** Seconds the attempts before a re-run took. */
    previousDuration: integer("previous_duration").notNull().default(0),
    createdUnix: integer("created_unix").notNull(),
    updatedUnix: integer("updated_unix").notNull(),
  },
  (t) => [
    uniqueIndex("action_run_repo_index_uq").on(t.repoId, t.index),
    index("action_run_repo_id_idx").on(t.repoId, t.id),
    index("action_run_repo_workflow_idx").on(t.repoId, t.workflowId, t.id),
    index("action_run_owner_idx").on(t.ownerId, t.id),
    index("action_run_status_idx").on(t.status, t.id),
    index("action_run_concurrency_idx").on(t.repoId, t.concurrencyGroup),
  ],
);

export const actionRunJobs = sqliteTable(
  "action_run_job",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    runId: integer("run_id")
      .notNull()
      .references(() => actionRuns.id, { onDelete: "cascade" }),
    repoId: integer("repo_id").notNull(),
    ownerId: integer("owner_id").notNull(),
    commitSha: text("commit_sha").notNull(),
    isForkPullRequest: integer("is_fork_pull_request", { mode: "boolean" }).notNull().default(false),
    name: text("name").notNull(),
    attempt: integer("attempt").notNull().default(0),
    /** The single-job workflow the runner gets (YAML). */
    workflowPayload: text("workflow_payload").notNull(),
    /** The job's key in the workflow file. */
    jobId: text("job_id").notNull(),
    needsJson: text("needs_json").notNull().default("[]"),
    runsOnJson: text("runs_on_json").notNull().default("[]"),
    /** The latest task of the job, 0 before the first. */
    taskId: integer("task_id").notNull().default(0),
    /** The job's own `concurrency:` as written (JSON), "" for none; evaluated once the job may start. */
    rawConcurrency: text("raw_concurrency").notNull().default(""),
    isConcurrencyEvaluated: integer("is_concurrency_evaluated", { mode: "boolean" }).notNull().default(false),
    concurrencyGroup: text("concurrency_group").notNull().default(""),
    concurrencyCancel: integer("concurrency_cancel", { mode: "boolean" }).notNull().default(false),
    /** The `permissions:` its task's token has (lib/actions/permissions.ts, JSON), "" when none were stated. */
    tokenPermissions: text("token_permissions").notNull().default(""),
    status: integer("status").notNull(),
    startedUnix: integer("started_unix").notNull().default(0),
    stoppedUnix: integer("stopped_unix").notNull().default(0),
    createdUnix: integer("created_unix").notNull(),
    updatedUnix: integer("updated_unix").notNull(),
  },
  (t) => [
    index("action_run_job_run_idx").on(t.runId, t.id),
    index("action_run_job_waiting_idx").on(t.status, t.id),
    index("action_run_job_repo_idx").on(t.repoId, t.id),
    index("action_run_job_owner_idx").on(t.ownerId, t.id),
    index("action_run_job_concurrency_idx").on(t.repoId, t.concurrencyGroup),
  ],
);

export const actionTasks = sqliteTable(
  "action_task",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    jobId: integer("job_id")
      .notNull()
      .references(() => actionRunJobs.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    runnerId: integer("runner_id").notNull(),
    status: integer("status").notNull(),
    startedUnix: integer("started_unix").notNull().default(0),
    stoppedUnix: integer("stopped_unix").notNull().default(0),
    repoId: integer("repo_id").notNull(),
    ownerId: integer("owner_id").notNull(),
    commitSha: text("commit_sha").notNull(),
    isForkPullRequest: integer("is_fork_pull_request", { mode: "boolean" }).notNull().default(false),
    /** SHA-256 of the task's token (hex), the GITEA_TOKEN its job runs with; emptied once the task is done. */
    tokenHash: text("token_hash").notNull().default(""),
    tokenLastEight: text("token_last_eight").notNull().default(""),
    /** The log's file under the data directory, relative. */
    logFilename: text("log_filename").notNull().default(""),
    /** Rows received so far. */
    logLength: integer("log_length").notNull().default(0),
    logSize: integer("log_size").notNull().default(0),
    /** The log file is compressed (the task is done). */
    logCompressed: integer("log_compressed", { mode: "boolean" }).notNull().default(false),
    logExpired: integer("log_expired", { mode: "boolean" }).notNull().default(false),
    createdUnix: integer("created_unix").notNull(),
    updatedUnix: integer("updated_unix").notNull(),
  },
  (t) => [
    index("action_task_job_idx").on(t.jobId, t.id),
    index("action_task_runner_status_idx").on(t.runnerId, t.status),
    index("action_task_repo_idx").on(t.repoId, t.id),
    index("action_task_token_idx").on(t.tokenHash),
  ],
);

export const actionTaskSteps = sqliteTable(
  "action_task_step",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    taskId: integer("task_id")
      .notNull()
      .references(() => actionTasks.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    index: integer("index").notNull(),
    repoId: integer("repo_id").notNull(),
    status: integer("status").notNull(),
    logIndex: integer("log_index").notNull().default(0),
    logLength: integer("log_length").notNull().default(0),
    startedUnix: integer("started_unix").notNull().default(0),
    stoppedUnix: integer("stopped_unix").notNull().default(0),
  },
  (t) => [uniqueIndex("action_task_step_task_index_uq").on(t.taskId, t.index)],
);

export const actionTaskOutputs = sqliteTable(
  "action_task_output",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    taskId: integer("task_id")
      .notNull()
      .references(() => actionTasks.id, { onDelete: "cascade" }),
    key: text("output_key").notNull(),
    value: text("output_value").notNull(),
  },
  (t) => [uniqueIndex("action_task_output_task_key_uq").on(t.taskId, t.key)],
);

export const actionArtifacts = sqliteTable(
  "action_artifact",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    runId: integer("run_id")
      .notNull()
      .references(() => actionRuns.id, { onDelete: "cascade" }),
    runnerId: integer("runner_id").notNull().default(0),
    repoId: integer("repo_id").notNull(),
    ownerId: integer("owner_id").notNull(),
    commitSha: text("commit_sha").notNull(),
    /** The stored file under the data directory, relative. */
    storagePath: text("storage_path").notNull().default(""),
    fileSize: integer("file_size").notNull().default(0),
    fileCompressedSize: integer("file_compressed_size").notNull().default(0),
    contentEncoding: text("content_encoding").notNull().default(""),
    artifactPath: text("artifact_path").notNull().default(""),
    artifactName: text("artifact_name").notNull(),
    /** Gitea's ArtifactStatus (models/actions-artifact.ts). */
    status: integer("status").notNull(),
    createdUnix: integer("created_unix").notNull(),
    updatedUnix: integer("updated_unix").notNull(),
    expiredUnix: integer("expired_unix").notNull().default(0),
  },
  (t) => [
    index("action_artifact_run_name_idx").on(t.runId, t.artifactName),
    index("action_artifact_repo_idx").on(t.repoId, t.id),
    index("action_artifact_expiry_idx").on(t.status, t.expiredUnix),
  ],
);

/** A scheduled workflow as found on the default branch: its file and the event that stored it. */
export const actionSchedules = sqliteTable(
  "action_schedule",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    title: text("title").notNull(),
    repoId: integer("repo_id").notNull(),
    ownerId: integer("owner_id").notNull(),
    workflowId: text("workflow_id").notNull(),
    workflowDir: text("workflow_dir").notNull().default(".gitea/workflows"),
    triggerUserId: integer("trigger_user_id").notNull(),
    ref: text("ref").notNull(),
    commitSha: text("commit_sha").notNull(),
    eventPayload: text("event_payload").notNull(),
    content: text("content").notNull(),
    createdUnix: integer("created_unix").notNull(),
  },
  (t) => [index("action_schedule_repo_idx").on(t.repoId)],
);

export const actionScheduleSpecs = sqliteTable(
  "action_schedule_spec",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    repoId: integer("repo_id").notNull(),
    scheduleId: integer("schedule_id")
      .notNull()
      .references(() => actionSchedules.id, { onDelete: "cascade" }),
    spec: text("spec").notNull(),
    nextUnix: integer("next_unix").notNull(),
    prevUnix: integer("prev_unix").notNull().default(0),
  },
  (t) => [index("action_schedule_spec_next_idx").on(t.nextUnix), index("action_schedule_spec_schedule_idx").on(t.scheduleId)],
);

/** Workflows a repository's administrator switched off (Gitea keeps them in the Actions unit's config). */
export const actionDisabledWorkflows = sqliteTable(
  "action_disabled_workflow",
  {
    repoId: integer("repo_id").notNull(),
    workflowId: text("workflow_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.repoId, t.workflowId] })],
);

export type ActionRunnerRow = typeof actionRunners.$inferSelect;
export type ActionRunnerTokenRow = typeof actionRunnerTokens.$inferSelect;
export type ActionRunRow = typeof actionRuns.$inferSelect;
export type NewActionRunRow = typeof actionRuns.$inferInsert;
export type ActionRunJobRow = typeof actionRunJobs.$inferSelect;
export type NewActionRunJobRow = typeof actionRunJobs.$inferInsert;
export type ActionTaskRow = typeof actionTasks.$inferSelect;
export type ActionTaskStepRow = typeof actionTaskSteps.$inferSelect;
export type ActionArtifactRow = typeof actionArtifacts.$inferSelect;
export type ActionScheduleRow = typeof actionSchedules.$inferSelect;
export type ActionScheduleSpecRow = typeof actionScheduleSpecs.$inferSelect;
