import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Webhooks and their deliveries, in Gitea's tables (webhook, hook_task), plus what hearth adds for
 * reliable delivery: every attempt of a delivery (hook_task_attempt) and a persistent work queue
 * (queue_item) that survives restarts and crashes.
 */

/** Gitea's HookContentType. */
export const HookContentType = { Json: 1, Form: 2 } as const;

/** Gitea's HookStatus (the webhook's last delivery). */
export const HookStatus = { None: 0, Succeed: 1, Fail: 2 } as const;

export const webhooks = sqliteTable(
  "webhook",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** 0 for organization, user, default and system hooks. */
    repoId: integer("repo_id").notNull().default(0),
    /** The organization or user of an owner hook; 0 for repository, default and system hooks. */
    ownerId: integer("owner_id").notNull().default(0),
    /** With repo_id = owner_id = 0: a system hook (fires for every repository) rather than a default one (copied into new repositories). */
    isSystemWebhook: integer("is_system_webhook", { mode: "boolean" }).notNull().default(false),
    url: text("url").notNull(),
    httpMethod: text("http_method").notNull().default("POST"),
    contentType: integer("content_type").notNull().default(HookContentType.Json),
    secret: text("secret").notNull().default(""),
    /** Gitea's HookEvent as JSON: push_only, send_everything, choose_events, branch_filter, events{}. */
    events: text("events").notNull(),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    type: text("type").notNull(),
    /** Type-specific settings as JSON (slack channel, telegram chat id, matrix room...). */
    meta: text("meta").notNull().default(""),
    lastStatus: integer("last_status").notNull().default(HookStatus.None),
    /** The `Authorization` header value, encrypted with a key derived from SECRET_KEY; never stored in clear. */
    headerAuthorizationEncrypted: text("header_authorization_encrypted").notNull().default(""),
    createdUnix: integer("created_unix").notNull(),
    updatedUnix: integer("updated_unix").notNull(),
  },
  (t) => [index("webhook_repo_idx").on(t.repoId), index("webhook_owner_idx").on(t.ownerId), index("webhook_active_idx").on(t.isActive)],
);

/** One event to deliver to one hook: the payload as built when the event happened, and the last attempt's outcome. */
export const hookTasks = sqliteTable(
  "hook_task",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    hookId: integer("hook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    uuid: text("uuid").notNull(),
    payloadContent: text("payload_content").notNull(),
    /** 2: the payload is stored as the event's own JSON and converted for the hook type at delivery (Gitea's payload_version). */
    payloadVersion: integer("payload_version").notNull().default(2),
    eventType: text("event_type").notNull(),
    isDelivered: integer("is_delivered", { mode: "boolean" }).notNull().default(false),
    /** When the last attempt finished, in nanoseconds since the epoch (Gitea's `delivered`). */
    delivered: integer("delivered").notNull().default(0),
    isSucceed: integer("is_succeed", { mode: "boolean" }).notNull().default(false),
    /** The last attempt's request and response as JSON (Gitea's HookRequest / HookResponse). */
    requestContent: text("request_content").notNull().default(""),
    responseContent: text("response_content").notNull().default(""),
    attempts: integer("attempts").notNull().default(0),
    createdUnix: integer("created_unix").notNull(),
  },
  (t) => [uniqueIndex("hook_task_uuid_uq").on(t.uuid), index("hook_task_hook_idx").on(t.hookId, t.id)],
);

/** Every attempt at delivering a hook task, kept for the deliveries API and debugging. */
export const hookTaskAttempts = sqliteTable(
  "hook_task_attempt",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    taskId: integer("task_id")
      .notNull()
      .references(() => hookTasks.id, { onDelete: "cascade" }),
    /** JSON: url, http_method, headers, body. */
    request: text("request").notNull(),
    /** JSON: status, headers, body; or the error when no response came. */
    response: text("response").notNull(),
    isSucceed: integer("is_succeed", { mode: "boolean" }).notNull(),
    durationMs: integer("duration_ms").notNull(),
    /** When the attempt started, in milliseconds since the epoch. */
    startedMs: integer("started_ms").notNull(),
  },
  (t) => [index("hook_task_attempt_task_idx").on(t.taskId)],
);

/**
 * A persistent work queue: an item is claimed by setting `leased_until`; a crash leaves the lease to
 * expire and the item runs again (at least once, never lost). Failed runs come back at `run_after`.
 */
export const queueItems = sqliteTable(
  "queue_item",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    queue: text("queue").notNull(),
    /** The item's own JSON. */
    payload: text("payload").notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** Milliseconds since the epoch before which the item is not run. */
    runAfterMs: integer("run_after_ms").notNull().default(0),
    /** Milliseconds since the epoch until which a worker holds the item; 0 when free. */
    leasedUntilMs: integer("leased_until_ms").notNull().default(0),
    createdMs: integer("created_ms").notNull(),
  },
  (t) => [index("queue_item_ready_idx").on(t.queue, t.runAfterMs)],
);

export type WebhookRow = typeof webhooks.$inferSelect;
export type NewWebhookRow = typeof webhooks.$inferInsert;
export type HookTaskRow = typeof hookTasks.$inferSelect;
export type NewHookTaskRow = typeof hookTasks.$inferInsert;
export type HookTaskAttemptRow = typeof hookTaskAttempts.$inferSelect;
export type QueueItemRow = typeof queueItems.$inferSelect;
