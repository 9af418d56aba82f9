/**
 * Gitea's webhook event types (modules/webhook/type.go): what a hook subscribes to and what a hook
 * task records as its `event_type`.
 */
export const HOOK_EVENT_TYPES = [
  "create",
  "delete",
  "fork",
  "push",
  "issues",
  "issue_assign",
  "issue_label",
  "issue_milestone",
  "issue_comment",
  "pull_request",
  "pull_request_assign",
  "pull_request_label",
  "pull_request_milestone",
  "pull_request_comment",
  "pull_request_review_approved",
  "pull_request_review_rejected",
  "pull_request_review_comment",
  "pull_request_sync",
  "pull_request_review_request",
  "wiki",
  "repository",
  "release",
  "package",
  "status",
  "workflow_run",
  "workflow_job",
] as const;

export type HookEventType = (typeof HOOK_EVENT_TYPES)[number];

/** Gitea's HookType names: the payload formats a hook may be delivered in. */
export const HOOK_TYPES = ["gitea", "gogs", "slack", "discord", "dingtalk", "telegram", "msteams", "feishu", "matrix", "wechatwork", "packagist"] as const;

export type HookType = (typeof HOOK_TYPES)[number];
