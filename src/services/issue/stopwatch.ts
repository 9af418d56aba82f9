import type { Env } from "../env.ts";
import { writeTx, type Tx } from "../../db/client.ts";
import { CommentType, type IssueRow, type RepoRow, type UserRow } from "../../db/schema/index.ts";
import * as issues from "../../models/issue.ts";
import * as stopwatches from "../../models/stopwatch.ts";
import * as times from "../../models/tracked-time.ts";
import { Conflict, HearthError } from "../../lib/errors.ts";
import { secToHours } from "../../lib/duration.ts";
import { nowUnix } from "../../lib/time.ts";
import { issueAccess } from "./access.ts";
import { canUseTimetracker } from "./times.ts";
import { unitOf, type IssueContext } from "./lookup.ts";
import { recordActivity } from "./touch.ts";
import type { SignedIn } from "../access/repo-access.ts";
import type { Doer } from "../access/permission.ts";

/** Gitea's prepareIssueForStopwatch: writers of the issue's unit who may use the time tracker; a bare 403 otherwise. */
function requireStopwatchUser(env: Env, ic: IssueContext, doer: UserRow): void {
  if (!ic.perm.canWrite(unitOf(ic.issue)) || !canUseTimetracker(env, ic, doer)) throw new HearthError(403, "");
}

/**
 * Gitea's finishIssueStopwatch: the time since the start becomes a tracked-time entry, with a
 * "stop_tracking" event whose body is the duration in hours and minutes.
 */
function finish(tx: Tx, doer: UserRow, issue: Pick<IssueRow, "id">, sw: stopwatches.StopwatchRow): void {
  const now = nowUnix();
  const seconds = now - sw.createdUnix;
  const entry = times.insertTrackedTime(tx, { issueId: issue.id, userId: doer.id, time: seconds, createdUnix: now });
  recordActivity(tx, issue, doer, CommentType.StopTracking, { content: secToHours(seconds), timeId: entry.id });
  stopwatches.deleteStopwatch(tx, sw.id);
}

/** Gitea's CreateIssueStopwatch: a user's running stopwatch elsewhere is finished first; one here already is 409. */
export function startStopwatch(env: Env, doer: Doer, ic: SignedIn<IssueContext>): void {
  requireStopwatchUser(env, ic, doer);
  writeTx(env.db, (tx) => {
    if (stopwatches.getStopwatch(tx, doer.id, ic.issue.id)) throw new Conflict("cannot start a stopwatch again if it already exists");
    for (const other of stopwatches.stopwatchesOfUser(tx, doer.id)) finish(tx, doer, { id: other.issueId }, other);
    stopwatches.insertStopwatch(tx, doer.id, ic.issue.id, nowUnix());
    recordActivity(tx, ic.issue, doer, CommentType.StartTracking);
  });
}

/** Gitea's FinishIssueStopwatch; 409 when none runs on the issue. */
export function stopStopwatch(env: Env, doer: Doer, ic: SignedIn<IssueContext>): void {
  requireStopwatchUser(env, ic, doer);
  writeTx(env.db, (tx) => {
    const sw = stopwatches.getStopwatch(tx, doer.id, ic.issue.id);
    if (!sw) throw new Conflict("cannot stop a non-existent stopwatch");
    finish(tx, doer, ic.issue, sw);
  });
}

/** Gitea's CancelStopwatch: dropped without tracking time, with a "cancel_tracking" event; 409 when none runs. */
export function cancelStopwatch(env: Env, doer: Doer, ic: SignedIn<IssueContext>): void {
  requireStopwatchUser(env, ic, doer);
  writeTx(env.db, (tx) => {
    const sw = stopwatches.getStopwatch(tx, doer.id, ic.issue.id);
    if (!sw) throw new Conflict("cannot cancel a non-existent stopwatch");
    stopwatches.deleteStopwatch(tx, sw.id);
    recordActivity(tx, ic.issue, doer, CommentType.CancelTracking);
  });
}

/** A running stopwatch with the issue and repository its JSON names. */
export interface StopwatchView {
  createdUnix: number;
  seconds: number;
  issue: IssueRow;
  repo: RepoRow;
  ownerName: string;
}

/**
 * Gitea's GetUserStopwatches: the doer's running stopwatches, a page at a time. One on an issue the
 * doer can no longer read is left out (Gitea shows its title regardless).
 */
export function myStopwatches(
  env: Env,
  doer: UserRow,
  page: { offset: number; limit: number },
): { views: StopwatchView[]; total: number } {
  const access = issueAccess(env, doer);
  const rows = stopwatches.stopwatchesOfUser(env.db, doer.id);
  const byId = new Map(issues.getIssuesByIds(env.db, rows.map((s) => s.issueId)).map((i) => [i.id, i]));
  const now = nowUnix();
  const views: StopwatchView[] = [];
  for (const sw of rows) {
    const issue = byId.get(sw.issueId);
    const rc = issue && access.canRead(issue) ? access.repo(issue.repoId) : undefined;
    if (!issue || !rc) continue;
    views.push({ createdUnix: sw.createdUnix, seconds: now - sw.createdUnix, issue, repo: rc.repo, ownerName: rc.owner.name });
  }
  return { views: views.slice(page.offset, page.offset + page.limit), total: views.length };
}
