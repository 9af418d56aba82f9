import type { Settings } from "../config/settings.ts";
import type { UserRow } from "../db/schema/index.ts";
import type { BlockerView } from "../services/issue/dependencies.ts";
import { toAPIIssue } from "./issue.ts";
import { toAPIUser } from "./user.ts";
import type { APIIssue } from "../shapes/issue.ts";

/** Go's zero time, which Gitea prints for an issue it has no data for. */
const ZERO_TIME = "0001-01-01T00:00:00Z";

/**
 * A blocker in Gitea's dependency list: the issue, its confidential form (a writer's view of an
 * issue they cannot read), or an issue titled HIDDEN that tells nothing but that a blocker exists.
 */
export function toAPIBlocker(settings: Settings, b: BlockerView, doer: UserRow | undefined): APIIssue {
  if (b.kind !== "hidden") return toAPIIssue(settings, b.view, doer);
  return {
    id: 0,
    url: "",
    html_url: "",
    number: 0,
    user: toAPIUser(settings, b.poster, doer),
    original_author: "",
    original_author_id: 0,
    title: "HIDDEN",
    body: "",
    ref: "",
    assets: [],
    labels: [],
    milestone: null,
    assignee: null,
    assignees: null,
    state: "open",
    is_locked: false,
    comments: 0,
    created_at: ZERO_TIME,
    updated_at: ZERO_TIME,
    closed_at: null,
    due_date: null,
    time_estimate: 0,
    pull_request: null,
    repository: { id: 0, name: "", owner: "", full_name: "" },
    pin_order: 0,
  };
}
