import type { Tx } from "../../db/client.ts";
import { CommentType, type IssueRow, type UserRow } from "../../db/schema/index.ts";
import * as issues from "../../models/issue.ts";
import { recountMilestone } from "../../models/milestone.ts";
import { labelIdsOfIssue, recountLabels } from "../../models/label.ts";
import { nowUnix } from "../../lib/time.ts";
import { recordEvent } from "./events.ts";

/** The timeline entry of a state change: Close/Reopen unless given (a merge is MergePull), and the commit that caused it. */
export interface StateEvent {
  type?: number;
  commitSha?: string;
}

/** Closes or reopens, with the timeline event and the repository's counters; milestone and label counts are the caller's to recount. */
export function setClosed(tx: Tx, issue: IssueRow, doer: Pick<UserRow, "id">, closed: boolean, event: StateEvent = {}): IssueRow {
  if (issue.isClosed === closed) return issue;
  const now = nowUnix();
  const updated = issues.updateIssue(tx, issue.id, { isClosed: closed, closedUnix: closed ? now : 0, updatedUnix: now })!;
  issues.adjustRepoIssueCounters(tx, issue.repoId, issue.isPull, { all: 0, closed: closed ? 1 : -1 });
  const type = event.type ?? (closed ? CommentType.Close : CommentType.Reopen);
  recordEvent(tx, issue, doer, type, event.commitSha ? { commitSha: event.commitSha } : {});
  return updated;
}

/** Closes or reopens with its timeline event and every count that depends on the state. */
export function changeIssueState(tx: Tx, issue: IssueRow, doer: Pick<UserRow, "id">, closed: boolean, event: StateEvent = {}): IssueRow {
  if (issue.isClosed === closed) return issue;
  const updated = setClosed(tx, issue, doer, closed, event);
  recountMilestone(tx, issue.milestoneId);
  recountLabels(tx, labelIdsOfIssue(tx, issue.id));
  return updated;
}
