import type { Settings } from "../config/settings.ts";
import type { UserRow } from "../db/schema/index.ts";
import type { TrackedTimeView } from "../services/issue/times.ts";
import { toRFC3339 } from "../lib/time.ts";
import { toAPIIssue } from "./issue.ts";
import type { APITrackedTime } from "../shapes/issue-extras.ts";

/** Gitea's convert.ToTrackedTime; `issue` is null where the doer may not read it. */
export function toAPITrackedTime(settings: Settings, v: TrackedTimeView, doer: UserRow | undefined): APITrackedTime {
  return {
    id: v.time.id,
    created: toRFC3339(v.time.createdUnix),
    time: v.time.time,
    user_id: v.time.userId,
    user_name: v.userName,
    issue_id: v.time.issueId,
    issue: v.issue ? toAPIIssue(settings, v.issue, doer) : null,
  };
}
