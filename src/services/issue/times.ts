import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { CommentType, type RepoRow, type TrackedTimeRow, type UserRow } from "../../db/schema/index.ts";
import * as issues from "../../models/issue.ts";
import * as times from "../../models/tracked-time.ts";
import * as users from "../../models/user.ts";
import { BadRequest, Forbidden, HearthError, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import type { RepoContext } from "../repo/lookup.ts";
import { ghostUser } from "../user/profile.ts";
import { issueAccess, type IssueAccess } from "./access.ts";
import { unitOf, type IssueContext } from "./lookup.ts";
import { recordActivity } from "./touch.ts";
import type { IssueView } from "./view.ts";
import type { SignedIn } from "../access/repo-access.ts";
import type { Doer } from "../access/permission.ts";

/** Gitea's IsTimetrackerEnabled: the issues unit's setting (its default, on, when the unit is off). */
export function timeTrackerEnabled(repo: RepoRow): boolean {
  return !repo.hasIssues || repo.enableTimeTracker;
}

/**
 * Gitea's CanUseTimetracker: the tracker is on, and either anyone may track time or the doer is a
 * writer of the issue's unit, its poster or an assignee.
 */
export function canUseTimetracker(env: Env, ic: IssueContext, doer: UserRow): boolean {
  if (!timeTrackerEnabled(ic.repo)) return false;
  if (!ic.repo.allowOnlyContributorsToTrackTime) return true;
  if (ic.perm.canWrite(unitOf(ic.issue)) || ic.issue.posterId === doer.id) return true;
  return (issues.assigneeIdsOfIssues(env.db, [ic.issue.id]).get(ic.issue.id) ?? []).includes(doer.id);
}

/** The refusal Gitea gives when the tracker may not be used: 400 when it is off, a bare 403 otherwise. */
export function requireTimetracker(env: Env, ic: IssueContext, doer: UserRow): void {
  if (canUseTimetracker(env, ic, doer)) return;
  if (!timeTrackerEnabled(ic.repo)) throw new BadRequest("time tracking disabled");
  throw new HearthError(403, "");
}

/** A tracked time with what its JSON shows: the issue (when the doer may read it) and the user's name. */
export interface TrackedTimeView {
  time: TrackedTimeRow;
  userName: string;
  issue: IssueView | undefined;
}

/** Loads issues and users of many entries at once; the issue is left out where the doer may not read it. */
export function trackedTimeViews(env: Env, access: IssueAccess, rows: TrackedTimeRow[]): TrackedTimeView[] {
  const issueRows = issues.getIssuesByIds(env.db, [...new Set(rows.map((t) => t.issueId))]).filter((i) => access.canRead(i));
  const views = new Map(access.views(issueRows).map((v) => [v.issue.id, v]));
  const names = new Map(users.getUsersByIds(env.db, [...new Set(rows.map((t) => t.userId))]).map((u) => [u.id, u.name]));
  return rows.map((time) => ({ time, userName: names.get(time.userId) ?? ghostUser().name, issue: views.get(time.issueId) }));
}

export interface TimeQuery {
  /** A user's name to list only their entries. */
  user?: string;
  sinceUnix?: number;
  beforeUnix?: number;
}

function userByName(env: Env, name: string): UserRow {
  const user = users.getUserByName(env.db, name);
  if (!user) throw new NotFound(`user does not exist [uid: 0, name: ${name}]`);
  return user;
}

/**
 * Gitea's rule for listing entries: site admins and writers of the issues unit see everyone's
 * (or one user's); others see only their own, and asking for someone else's is 403.
 */
function whoseTimes(doer: UserRow, rc: RepoContext, requested: UserRow | undefined): number {
  if (doer.isAdmin || requested?.id === doer.id || rc.perm.canWrite("issues")) return requested?.id ?? 0;
  if (requested) throw new Forbidden("query by user not allowed; not enough rights");
  return doer.id;
}

type Page = { offset: number; limit: number };

/** Gitea's ListTrackedTimes of one issue; 404 when the tracker is off. */
export function listIssueTimes(
  env: Env,
  doer: UserRow,
  ic: IssueContext,
  q: TimeQuery,
  page: Page,
): { views: TrackedTimeView[]; total: number } {
  const requested = q.user ? userByName(env, q.user) : undefined;
  const userId = whoseTimes(doer, ic, requested);
  const { rows, total } = times.findTrackedTimes(
    env.db,
    { issueId: ic.issue.id, userId: userId || undefined, createdAfterUnix: q.sinceUnix, createdBeforeUnix: q.beforeUnix },
    page,
  );
  return { views: trackedTimeViews(env, issueAccess(env, doer, [ic]), rows), total };
}

/**
 * Gitea's ListTrackedTimesByRepository: entries on the repository's issues (and on its pull
 * requests, where the doer reads them); 400 when the tracker is off.
 */
export function listRepoTimes(
  env: Env,
  doer: UserRow,
  rc: RepoContext,
  q: TimeQuery,
  page: Page,
): { views: TrackedTimeView[]; total: number } {
  if (!timeTrackerEnabled(rc.repo)) throw new BadRequest("time tracking disabled");
  const requested = q.user ? userByName(env, q.user) : undefined;
  const userId = whoseTimes(doer, rc, requested);
  const { rows, total } = times.findTrackedTimes(
    env.db,
    {
      userId: userId || undefined,
      repos: { issueRepoIds: rc.perm.canRead("issues") ? [rc.repo.id] : [], pullRepoIds: rc.perm.canRead("pulls") ? [rc.repo.id] : [] },
      createdAfterUnix: q.sinceUnix,
      createdBeforeUnix: q.beforeUnix,
    },
    page,
  );
  return { views: trackedTimeViews(env, issueAccess(env, doer, [rc]), rows), total };
}

/** Gitea's deprecated ListTrackedTimesByUser: one user's entries in the repository, for them and repository admins. */
export function listUserTimesInRepo(env: Env, doer: UserRow, rc: RepoContext, userName: string): TrackedTimeView[] {
  if (!timeTrackerEnabled(rc.repo)) throw new BadRequest("time tracking disabled");
  const user = userByName(env, userName);
  if (!rc.perm.isAdmin() && !doer.isAdmin && doer.id !== user.id) throw new Forbidden("query by user not allowed; not enough rights");
  const { rows } = times.findTrackedTimes(env.db, {
    userId: user.id,
    repos: { issueRepoIds: rc.perm.canRead("issues") ? [rc.repo.id] : [], pullRepoIds: rc.perm.canRead("pulls") ? [rc.repo.id] : [] },
  });
  return trackedTimeViews(env, issueAccess(env, doer, [rc]), rows);
}

/**
 * Gitea's ListMyTrackedTimes: the doer's own entries everywhere. Gitea also lists entries in
 * repositories the doer can no longer read; we leave those out, as their issues would leak.
 */
export function listMyTimes(
  env: Env,
  doer: UserRow,
  q: { sinceUnix?: number; beforeUnix?: number },
  page: Page,
): { views: TrackedTimeView[]; total: number } {
  const access = issueAccess(env, doer);
  const repoIds = times.repoIdsWithTimesOf(env.db, doer.id);
  const readable = (isPull: boolean) => repoIds.filter((repoId) => access.canRead({ repoId, isPull }));
  const { rows, total } = times.findTrackedTimes(
    env.db,
    {
      userId: doer.id,
      repos: { issueRepoIds: readable(false), pullRepoIds: readable(true) },
      createdAfterUnix: q.sinceUnix,
      createdBeforeUnix: q.beforeUnix,
    },
    page,
  );
  return { views: trackedTimeViews(env, access, rows), total };
}

export interface AddTimeInput {
  /** Seconds (Gitea's binding requires a non-zero value). */
  time: number;
  createdUnix?: number;
  /** Whose time it is: honoured for site admins and (for others than themselves) repository admins. */
  userName?: string;
}

/** Gitea's AddTime: an entry and an "add_time_manual" event, whose body is `|<seconds>` (Gitea 1.21+). */
export function addTime(env: Env, doer: Doer, ic: SignedIn<IssueContext>, input: AddTimeInput): TrackedTimeView {
  requireTimetracker(env, ic, doer);
  let user = doer;
  if (input.userName && ((ic.perm.isAdmin() && doer.name !== input.userName) || doer.isAdmin)) {
    // Gitea answers an unknown name with a 500; the caller can correct it, so 404 with its message.
    user = userByName(env, input.userName);
  }
  const row = writeTx(env.db, (tx) => {
    const row = times.insertTrackedTime(tx, {
      issueId: ic.issue.id,
      userId: user.id,
      time: input.time,
      createdUnix: input.createdUnix ?? nowUnix(),
    });
    recordActivity(tx, ic.issue, user, CommentType.AddTimeManual, { content: `|${input.time}`, timeId: row.id });
    return row;
  });
  return trackedTimeViews(env, issueAccess(env, doer, [ic]), [row])[0]!;
}

/** Gitea's DeleteIssueUserTimes: the doer's entries on the issue; 404 when they add up to nothing. */
export function resetMyTime(env: Env, doer: Doer, ic: SignedIn<IssueContext>): void {
  requireTimetracker(env, ic, doer);
  writeTx(env.db, (tx) => {
    const removed = times.deleteUserTimesOnIssue(tx, ic.issue.id, doer.id);
    if (removed === 0) throw new NotFound("tracked_time does not exist");
    recordActivity(tx, ic.issue, doer, CommentType.DeleteTimeManual, { content: `|${removed}` });
  });
}

/**
 * Gitea's DeleteTime: one entry, by its owner or a site admin; the event names the entry's owner.
 * Gitea finds the entry by id alone; we look only among this issue's entries, so a path names
 * exactly what it deletes.
 */
export function deleteTime(env: Env, doer: Doer, ic: SignedIn<IssueContext>, id: string): void {
  requireTimetracker(env, ic, doer);
  const time = /^\d{1,15}$/.test(id) ? times.getTrackedTime(env.db, Number(id)) : undefined;
  if (!time || time.issueId !== ic.issue.id) throw new NotFound(`tracked_time does not exist [id: ${id}]`);
  if (time.deleted) throw new NotFound("tracked time was already deleted");
  if (!doer.isAdmin && time.userId !== doer.id) throw new HearthError(403, "");
  const owner = users.getUserById(env.db, time.userId) ?? doer;
  writeTx(env.db, (tx) => {
    times.markTrackedTimeDeleted(tx, time.id);
    recordActivity(tx, ic.issue, owner, CommentType.DeleteTimeManual, { content: `|${time.time}` });
  });
}
