import * as v from "valibot";
import { operation, Reply, reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../schemas/common.ts";
import { RepoParams } from "../../../schemas/repo.ts";
import { IssueParams } from "../../../schemas/issue.ts";
import { AddTimeOption, IssueTimeParams, RepoUserParams, StopWatch, TrackedTime } from "../../../schemas/issue-extras.ts";
import { toAPITrackedTime } from "../../../../convert/tracked-time.ts";
import { toAPIStopWatch } from "../../../../convert/stopwatch.ts";
import { issueFromPath, requireTrackerReader } from "../../../../services/issue/lookup.ts";
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
import type { Principal } from "../../../../auth/principal.ts";
import type { Env } from "../../../../services/env.ts";
import { repoFromPath } from "../repos/context.ts";
import { requireToken, totalHeaders } from "../repos/collaborators.ts";
import { timeQuery } from "./issues.ts";

const TimeWindow = v.object({ since: v.optional(v.string()), before: v.optional(v.string()) });
const TimeListQuery = v.object({ ...TimeWindow.entries, ...PageQuery.entries, user: v.optional(v.string()) });

type IssueCtx = { env: Env; principal: Principal | undefined; url: URL; params: { owner: string; repo: string; index: string } };

/** The issue of a `/times` or `/stopwatch` route: the tracker readable, then Gitea's reqToken, then the issue. */
function trackedIssue({ env, principal, url, params }: IssueCtx) {
  const rc = repoFromPath(env, principal, url, params);
  requireTrackerReader(rc);
  requireToken(principal);
  return { doer: principal.user, ic: issueFromPath(env, rc, params.index), rc };
}

function timesReply(env: Env, views: TrackedTimeView[], principal: Principal | undefined, total?: number): Reply {
  const items = views.map((t) => toAPITrackedTime(env.settings, t, principal?.user));
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
    access: { scope: "issue", signIn: false },
    params: IssueParams,
    query: TimeListQuery,
    responses: { 200: v.array(TrackedTime) },
    handler: (ctx) => {
      const { env, principal, url, params, query } = ctx;
      const rc = repoFromPath(env, principal, url, params);
      requireTrackerReader(rc);
      requireToken(principal);
      // Gitea looks at the tracker before the issue.
      if (!timeTrackerEnabled(rc.repo)) throw new NotFound("Timetracker is disabled");
      const ic = issueFromPath(env, rc, params.index);
      const q = { user: query.user?.trim() || undefined, ...window(query) };
      const { views, total } = listIssueTimes(env, principal.user, ic, q, ctx.page());
      return timesReply(env, views, principal, total);
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/issues/:index/times",
    operationId: "issueAddTime",
    tag: "issue",
    summary: "Add tracked time to a issue",
    access: { scope: "issue", signIn: false },
    params: IssueParams,
    body: AddTimeOption,
    responses: { 200: TrackedTime },
    handler: (ctx) => {
      const body = ctx.body;
      const { doer, ic } = trackedIssue(ctx);
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
    access: { scope: "issue", signIn: false },
    params: IssueParams,
    responses: { 204: null },
    handler: (ctx) => {
      const { doer, ic } = trackedIssue(ctx);
      resetMyTime(ctx.env, doer, ic);
      return reply.noContent();
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/:index/times/:id",
    operationId: "issueDeleteTime",
    tag: "issue",
    summary: "Delete specific tracked time",
    access: { scope: "issue", signIn: false },
    params: IssueTimeParams,
    responses: { 204: null },
    handler: (ctx) => {
      const { doer, ic } = trackedIssue(ctx);
      deleteTime(ctx.env, doer, ic, ctx.params.id);
      return reply.noContent();
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/issues/:index/stopwatch/start",
    operationId: "issueStartStopWatch",
    tag: "issue",
    summary: "Start stopwatch on an issue.",
    access: { scope: "issue", signIn: false },
    params: IssueParams,
    responses: { 201: null },
    handler: (ctx) => {
      const { doer, ic } = trackedIssue(ctx);
      startStopwatch(ctx.env, doer, ic);
      return new Reply(201);
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/issues/:index/stopwatch/stop",
    operationId: "issueStopStopWatch",
    tag: "issue",
    summary: "Stop an issue's existing stopwatch.",
    access: { scope: "issue", signIn: false },
    params: IssueParams,
    responses: { 201: null },
    handler: (ctx) => {
      const { doer, ic } = trackedIssue(ctx);
      stopStopwatch(ctx.env, doer, ic);
      return new Reply(201);
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/:index/stopwatch/delete",
    operationId: "issueDeleteStopWatch",
    tag: "issue",
    summary: "Delete an issue's existing stopwatch.",
    access: { scope: "issue", signIn: false },
    params: IssueParams,
    responses: { 204: null },
    handler: (ctx) => {
      const { doer, ic } = trackedIssue(ctx);
      cancelStopwatch(ctx.env, doer, ic);
      return reply.noContent();
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/times",
    operationId: "repoTrackedTimes",
    tag: "repository",
    summary: "List a repo's tracked times",
    access: { scope: "repository", signIn: false },
    params: RepoParams,
    query: TimeListQuery,
    responses: { 200: v.array(TrackedTime) },
    handler: (ctx) => {
      const { env, principal, url, params, query } = ctx;
      const rc = repoFromPath(env, principal, url, params);
      // Gitea's mustEnableIssues, then reqToken.
      if (!rc.perm.canRead("issues")) throw new NotFound();
      requireToken(principal);
      const { views, total } = listRepoTimes(
        env,
        principal.user,
        rc,
        { user: query.user?.trim() || undefined, ...window(query) },
        ctx.page(),
      );
      return timesReply(env, views, principal, total);
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/times/:user",
    operationId: "userTrackedTimes",
    tag: "repository",
    summary: "List a user's tracked times in a repo",
    access: { scope: "repository", signIn: false },
    params: RepoUserParams,
    responses: { 200: v.array(TrackedTime) },
    handler: ({ env, principal, url, params }) => {
      const rc = repoFromPath(env, principal, url, params);
      if (!rc.perm.canRead("issues")) throw new NotFound();
      requireToken(principal);
      // Gitea answers every entry at once, without a count.
      return timesReply(env, listUserTimesInRepo(env, principal.user, rc, params.user), principal);
    },
  }),
  operation({
    method: "GET",
    path: "/user/times",
    operationId: "userCurrentTrackedTimes",
    tag: "user",
    summary: "List the current user's tracked times",
    access: { scope: "user", signIn: true },
    query: v.object({ ...TimeWindow.entries, ...PageQuery.entries }),
    responses: { 200: v.array(TrackedTime) },
    handler: (ctx) => {
      const { env, principal, query } = ctx;
      const { views, total } = listMyTimes(env, principal!.user, window(query), ctx.page());
      return timesReply(env, views, principal, total);
    },
  }),
  operation({
    method: "GET",
    path: "/user/stopwatches",
    operationId: "userGetStopWatches",
    tag: "user",
    summary: "Get list of all existing stopwatches",
    access: { scope: "user", signIn: true },
    query: PageQuery,
    responses: { 200: v.array(StopWatch) },
    handler: (ctx) => {
      const { views, total } = myStopwatches(ctx.env, ctx.principal!.user, ctx.page());
      return new Reply(200, views.map(toAPIStopWatch), totalHeaders(total));
    },
  }),
];
