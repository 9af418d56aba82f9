import type { StopwatchView } from "../services/issue/stopwatch.ts";
import { secToHours } from "../lib/duration.ts";
import { toRFC3339 } from "../lib/time.ts";
import type { APIStopWatch } from "../shapes/issue-extras.ts";

/** Gitea's convert.ToStopWatches item: the running time so far, in seconds and in hours and minutes. */
export function toAPIStopWatch(v: StopwatchView): APIStopWatch {
  return {
    created: toRFC3339(v.createdUnix),
    seconds: v.seconds,
    duration: secToHours(v.seconds),
    issue_index: v.issue.index,
    issue_title: v.issue.title,
    repo_owner_name: v.ownerName,
    repo_name: v.repo.name,
  };
}
