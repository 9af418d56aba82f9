import * as v from "valibot";
import { operation, Reply, reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../../shapes/common.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import { IssueParams } from "../../../../shapes/issue.ts";
import type { APITrackedTime } from "../../../../shapes/issue-extras.ts";
import { AddTimeOption, IssueTimeParams, RepoUserParams, StopWatch, TrackedTime } from "../../../../shapes/issue-extras.ts";
import { toAPITrackedTime } from "../../../../convert/tracked-time.ts";
import { toAPIStopWatch } from "../../../../convert/stopwatch.ts";
import { issueFromPath, requireIssuesReader } from "../../../../services/issue/lookup.ts";
import {
  addTime,
  deleteTime,
  listIssueTimes,
  listMyTimes,
  listRepoTimes,
  listUserTimesInRepo,
  resetMyTime,
  timeTrackerEnabled,
  type TrackedTimeView,
} from "../../../../services/issue/times.ts";
import { cancelStopwatch, myStopwatches, startStopwatch, stopStopwatch } from "../../../../services/issue/stopwatch.ts";
import { NotFound } from "../../../../lib/errors.ts";
import { parseDateTime } from "../../../../lib/time.ts";
import type { Env } from "../../../../services/env.ts";
import type { Doer } from "../../../../services/access/permission.ts";
import { requireToken, totalHeaders } from "../repos/collaborators.ts";
import { timeQuery } from "./issues.ts";

const TimeWindow = v.object({ since: v.optional(v.string()), before: v.optional(v.string()) });
const TimeListQuery = v.object({ ...TimeWindow.entries, ...PageQuery.entries, user: v.optional(v.string()) });

/**
 * An issue's `/times` and `/stopwatch`: Gitea's mustEnableIssuesOrPulls, then reqToken, then the
 * handler's issue. Where the handler looks at something first (the body of a new entry, the
 * tracker's setting), the issue is not declared and the handler finds it afterwards.
 */
const tracked = { scope: "issue", signIn: false, repo: { read: "tracker", doer: true } } as const;
const trackedIssue = { ...tracked, issue: true } as const;
/**
 * A repository's times: Gitea's mustEnableIssues (a 404 for the issues unit alone, which a
 * declaration cannot say) then reqToken, both asked by the handler in that order.
 */
const repoTimes = { scope: "repository", signIn: false, repo: {} } as const;
/** The doer's own times and stopwatches. */
const mine = { scope: "user", signIn: true } as const;

function timesReply(env: Env, views: TrackedTimeView[], doer: Doer | undefined, total?: number): Reply<200, APITrackedTime[]> {
  const items = views.map((t) => toAPITrackedTime(env.settings, t, doer));
  return new Reply(200, items, total === undefined ? {} : totalHeaders(total));
}

/** Gitea's `since`/`before` for tracked times: RFC 3339, else 422. */
function window(q: { since?: string; before?: string }) {
  return { sinceUnix: timeQuery(q.since), beforeUnix: timeQuery(q.before) };
}

export const timeOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/:index/times",
    operationId: "issueTrackedTimes",
    tag: "issue",
    summary: "List an issue's tracked times",
    access: tracked,
    params: IssueParams,
    query: TimeListQuery,
    responses: { 200: v.array(TrackedTime) },
    handler: (ctx) => {
      const { env, repo: rc, doer, params, query } = ctx;
      // Gitea looks at the tracker's setting before the issue.
      if (!timeTrackerEnabled(rc.repo)) throw new NotFound("Timetracker is disabled");
      const ic = issueFromPath(env, rc, params.index);
      const q = { user: query.user?.trim() || undefined, ...window(query) };
      const { views, total } = listIssueTimes(env, doer, ic, q, ctx.page());
      return timesReply(env, views, doer, total);
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/issues/:index/times",
    operationId: "issueAddTime",
    tag: "issue",
    summary: "Add tracked time to a issue",
    access: tracked,
    params: IssueParams,
    body: AddTimeOption,
    responses: { 200: TrackedTime },
    handler: (ctx) => {
      const { doer } = ctx;
      // The body before the issue, as Gitea binds it before its handler looks the issue up.
      const body = ctx.body;
      const ic = issueFromPath(ctx.env, ctx.repo, ctx.params.index);
      const created = body.created ? parseDateTime(body.created) : undefined;
      const view = addTime(
        ctx.env,
        doer,
        ic,
        { time: body.time, createdUnix: created, userName: body.user_name ?? undefined },
      );
      return toAPITrackedTime(ctx.env.settings, view, doer);
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/:index/times",
    operationId: "issueResetTime",
    tag: "issue",
    summary: "Reset a tracked time of an issue",
    access: trackedIssue,
    params: IssueParams,
    responses: { 204: null },
    handler: ({ env, doer, issue }) => {
      resetMyTime(env, doer, issue);
      return reply.noContent();
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/:index/times/:id",
    operationId: "issueDeleteTime",
    tag: "issue",
    summary: "Delete specific tracked time",
    access: trackedIssue,
    params: IssueTimeParams,
    responses: { 204: null },
    handler: ({ env, doer, issue, params }) => {
      deleteTime(env, doer, issue, params.id);
      return reply.noContent();
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/issues/:index/stopwatch/start",
    operationId: "issueStartStopWatch",
    tag: "issue",
    summary: "Start stopwatch on an issue.",
    access: trackedIssue,
    params: IssueParams,
    responses: { 201: null },
    handler: ({ env, doer, issue }) => {
      startStopwatch(env, doer, issue);
      return new Reply(201);
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/issues/:index/stopwatch/stop",
    operationId: "issueStopStopWatch",
    tag: "issue",
    summary: "Stop an issue's existing stopwatch.",
    access: trackedIssue,
    params: IssueParams,
    responses: { 201: null },
    handler: ({ env, doer, issue }) => {
      stopStopwatch(env, doer, issue);
      return new Reply(201);
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/:index/stopwatch/delete",
    operationId: "issueDeleteStopWatch",
    tag: "issue",
    summary: "Delete an issue's existing stopwatch.",
    access: trackedIssue,
    params: IssueParams,
    responses: { 204: null },
    handler: ({ env, doer, issue }) => {
      cancelStopwatch(env, doer, issue);
      return reply.noContent();
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/times",
    operationId: "repoTrackedTimes",
    tag: "repository",
    summary: "List a repo's tracked times",
    access: repoTimes,
    params: RepoParams,
    query: TimeListQuery,
    responses: { 200: v.array(TrackedTime) },
    handler: (ctx) => {
      const { env, repo: rc, principal, query } = ctx;
      requireIssuesReader(rc);
      requireToken(principal);
      const { views, total } = listRepoTimes(
        env,
        principal.user,
        rc,
        { user: query.user?.trim() || undefined, ...window(query) },
        ctx.page(),
      );
      return timesReply(env, views, principal.user, total);
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/times/:user",
    operationId: "userTrackedTimes",
    tag: "repository",
    summary: "List a user's tracked times in a repo",
    access: repoTimes,
    params: RepoUserParams,
    responses: { 200: v.array(TrackedTime) },
    handler: ({ env, repo: rc, principal, params }) => {
      requireIssuesReader(rc);
      requireToken(principal);
      // Gitea answers every entry at once, without a count.
      return timesReply(env, listUserTimesInRepo(env, principal.user, rc, params.user), principal.user);
    },
  }),
  operation({
    method: "GET",
    path: "/user/times",
    operationId: "userCurrentTrackedTimes",
    tag: "user",
    summary: "List the current user's tracked times",
    access: mine,
    query: v.object({ ...TimeWindow.entries, ...PageQuery.entries }),
    responses: { 200: v.array(TrackedTime) },
    handler: (ctx) => {
      const { env, doer, query } = ctx;
      const { views, total } = listMyTimes(env, doer, window(query), ctx.page());
      return timesReply(env, views, doer, total);
    },
  }),
  operation({
    method: "GET",
    path: "/user/stopwatches",
    operationId: "userGetStopWatches",
    tag: "user",
    summary: "Get list of all existing stopwatches",
    access: mine,
    query: PageQuery,
    responses: { 200: v.array(StopWatch) },
    handler: (ctx) => {
      const { views, total } = myStopwatches(ctx.env, ctx.doer, ctx.page());
      return new Reply(200, views.map(toAPIStopWatch), totalHeaders(total));
    },
  }),
];
