import type { MilestoneRow } from "../db/schema/index.ts";
import { toRFC3339 } from "../lib/time.ts";
import type { APIMilestone } from "../shapes/issue.ts";

/** 9999-01-01T00:00:00Z: Gitea stores "no due date" as a day in year 9999 and shows it as none. */
const YEAR_9999 = 253370764800;

/**
 * Gitea's convert.ToAPIMilestone: `updated_at` is null only for a zero time, `closed_at` is the last
 * closing time and shown only while the milestone is closed, `due_on` is null without a due date
 * (stored as 0 here, or as Gitea's year-9999 placeholder in imported data).
 */
export function toAPIMilestone(m: MilestoneRow): APIMilestone {
  return {
    id: m.id,
    title: m.name,
    description: m.content,
    state: m.isClosed ? "closed" : "open",
    open_issues: m.numIssues - m.numClosedIssues,
    closed_issues: m.numClosedIssues,
    created_at: toRFC3339(m.createdUnix),
    updated_at: m.updatedUnix ? toRFC3339(m.updatedUnix) : null,
    closed_at: m.isClosed && m.closedDateUnix ? toRFC3339(m.closedDateUnix) : null,
    due_on: m.deadlineUnix > 0 && m.deadlineUnix < YEAR_9999 ? toRFC3339(m.deadlineUnix) : null,
  };
}
