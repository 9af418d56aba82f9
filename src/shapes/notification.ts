import * as v from "valibot";
import { named } from "./registry.ts";
import { Repository } from "./repo.ts";
import { PageQuery } from "./common.ts";

export const NotificationSubject = named(
  "NotificationSubject",
  v.object({
    title: v.string(),
    url: v.string(),
    latest_comment_url: v.string(),
    html_url: v.string(),
    latest_comment_html_url: v.string(),
    type: v.picklist(["Issue", "Pull", "Commit", "Repository"]),
    state: v.string(),
  }),
);

export const NotificationThread = named(
  "NotificationThread",
  v.object({
    id: v.number(),
    // Gitea clears the permissions of a thread's repository (and its parent's): they would be wrong.
    repository: v.omit(Repository, ["permissions"]),
    subject: NotificationSubject,
    unread: v.boolean(),
    pinned: v.boolean(),
    updated_at: v.string(),
    url: v.string(),
  }),
);

export const NotificationCount = named("NotificationCount", v.object({ new: v.number() }));

export const ThreadParams = v.object({ id: v.string() });

/**
 * The query of the list operations. `status-types` and `subject-type` may repeat (Gitea's
 * collectionFormat multi); the handlers read every value from the URL, this only documents them.
 */
export const NotificationListQuery = v.object({
  ...PageQuery.entries,
  all: v.optional(v.string()),
  "status-types": v.optional(v.string()),
  "subject-type": v.optional(v.string()),
  since: v.optional(v.string()),
  before: v.optional(v.string()),
});

export const NotificationReadQuery = v.object({
  last_read_at: v.optional(v.string()),
  all: v.optional(v.string()),
  "status-types": v.optional(v.string()),
  "to-status": v.optional(v.string()),
});

export const ThreadReadQuery = v.object({ "to-status": v.optional(v.string()) });

export type APINotificationSubject = v.InferOutput<typeof NotificationSubject>;
export type APINotificationThread = v.InferOutput<typeof NotificationThread>;
