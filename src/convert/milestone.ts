import type { MilestoneRow } from "../db/schema/index.ts";
import { toRFC3339 } from "../lib/time.ts";

/** Gitea's `Milestone` JSON. */
export interface APIMilestone {
  id: number;
  title: string;
  description: string;
  state: "open" | "closed";
  open_issues: number;
  closed_issues: number;
  created_at: string;
  updated_at: string | null;
  closed_at: string | null;
  due_on: string | null;
}

export function toAPIMilestone(m: MilestoneRow): APIMilestone {
  return {
    id: m.id,
    title: m.name,
    description: m.content,
    state: m.isClosed ? "closed" : "open",
    open_issues: m.numIssues - m.numClosedIssues,
    closed_issues: m.numClosedIssues,
    created_at: toRFC3339(m.createdUnix),
    updated_at: toRFC3339(m.updatedUnix),
    closed_at: m.isClosed && m.closedDateUnix ? toRFC3339(m.closedDateUnix) : null,
    due_on: m.deadlineUnix ? toRFC3339(m.deadlineUnix) : null,
  };
}
