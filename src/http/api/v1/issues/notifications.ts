import * as v from "valibot";
import { operation, Reply, type AnyOperation } from "../../../route.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import {
  NotificationCount,
  NotificationListQuery,
  NotificationReadQuery,
  NotificationThread,
  ThreadParams,
  ThreadReadQuery,
} from "../../../../shapes/notification.ts";
import { toAPINotificationThread } from "../../../../convert/notification.ts";
import {
  countUnread,
  getThread,
  listThreads,
  markThreads,
  setThreadStatus,
  sourceByName,
  statusByName,
  targetStatus,
  type ThreadQuery,
  type ThreadView,
  type Viewer,
} from "../../../../services/notification/threads.ts";
import { BadRequest } from "../../../../lib/errors.ts";
import { parseDateTime } from "../../../../lib/time.ts";
import type { Env } from "../../../../services/env.ts";
import type { Doer } from "../../../../services/access/permission.ts";
import type { Page } from "../../../pagination.ts";
import { repoJson } from "../repos/context.ts";
import { totalHeaders } from "../repos/collaborators.ts";
import { timeQuery } from "./issues.ts";
import type { APIRepository } from "../../../../shapes/repo.ts";
import type { APINotificationThread } from "../../../../shapes/notification.ts";

/** The doer's own threads. */
const mine = { scope: "notification", signIn: true } as const;
/** Those of one repository: Gitea finds the repository (404) before it asks for a token (401). */
const ofRepo = { scope: "notification", signIn: false, repo: { doer: true } } as const;

/** Go's strconv.ParseBool true values; anything else (or nothing) is false, as ctx.FormBool. */
const formBool = (value: string | null) => value !== null && ["1", "t", "T", "TRUE", "true", "True"].includes(value);

/**
 * Gitea's statusStringsToNotificationStatuses: the given `status-types` (or the defaults), unknown
 * names dropped. If none is left the list is empty, which filters nothing: a Gitea quirk kept.
 */
function statusesOf(url: URL, defaults: string[]): number[] {
  const given = url.searchParams.getAll("status-types");
  return (given.length ? given : defaults).map(statusByName).filter((s) => s > 0);
}

/** Gitea's getFindNotificationOptions: the list operations' filters. */
function listQuery(url: URL, repoId?: number): ThreadQuery {
  const q = url.searchParams;
  return {
    repoId,
    updatedBefore: timeQuery(q.get("before")?.trim() || undefined),
    updatedAfter: timeQuery(q.get("since")?.trim() || undefined),
    statuses: formBool(q.get("all")) ? [] : statusesOf(url, ["unread", "pinned"]),
    sources: q.getAll("subject-type").map(sourceByName).filter((s) => s > 0),
  };
}

/** The PUT operations' filters: `last_read_at` (400 when it is not RFC 3339), `all`, `status-types` (default unread). */
function readQuery(url: URL, repoId?: number): ThreadQuery {
  const q = url.searchParams;
  const lastRead = q.get("last_read_at")?.trim() ?? "";
  let updatedBefore: number | undefined;
  if (lastRead) {
    const unix = parseDateTime(lastRead);
    if (unix === undefined) throw new BadRequest(`parsing time "${lastRead}" as "2006-01-02T15:04:05Z07:00": cannot parse`);
    // Go's zero time (0001-01-01T00:00:00Z) means "no limit".
    if (unix !== -62135596800) updatedBefore = unix;
  }
  return { repoId, updatedBefore, statuses: formBool(q.get("all")) ? [] : statusesOf(url, ["unread"]), sources: [] };
}

/** Gitea's ParamsInt64: anything that is not a number is thread 0, which does not exist. */
const threadId = (id: string) => (/^\d{1,15}$/.test(id) ? Number(id) : 0);

/** The handler's view of the call: the doer, for whom repositories are rendered too. */
type Caller = { env: Env; doer: Doer };

const viewerOf = (doer: Doer): Viewer => ({ user: doer });

/** Threads as JSON, each repository rendered once and without `permissions`, as Gitea does. */
function threadsJson(caller: Caller, list: ThreadView[]): APINotificationThread[] {
  return list.map(threadRenderer(caller));
}

/** Renders threads one by one, each repository once. */
function threadRenderer({ env, doer }: Caller): (view: ThreadView) => APINotificationThread {
  const repos = new Map<number, APINotificationThread["repository"]>();
  return (view) => {
    let repository = repos.get(view.rc.repo.id);
    if (!repository) {
      const { permissions: _p, parent, ...rest } = repoJson(env, view.rc, doer);
      if (parent) {
        // The schema documents the parent by its id and name only; it is the whole Repository JSON (repoJson).
        const { permissions: _pp, ...parentRest } = parent as APIRepository;
        repository = { ...rest, parent: parentRest };
      } else {
        repository = rest;
      }
      repos.set(view.rc.repo.id, repository);
    }
    return toAPINotificationThread(env.settings, view, repository);
  };
}

/** Gitea answers these lists with X-Total-Count only (no Link header). */
function listReply(caller: Caller, q: ThreadQuery, page: Page): Reply<200, APINotificationThread[]> {
  const { views, total } = listThreads(caller.env, viewerOf(caller.doer), q, page);
  return new Reply(200, threadsJson(caller, views), totalHeaders(total));
}

function readReply(caller: Caller, url: URL, q: ThreadQuery): Reply<205, APINotificationThread[]> {
  const changed = markThreads(caller.env, viewerOf(caller.doer), q, targetStatus(url.searchParams.get("to-status")));
  return new Reply(205, threadsJson(caller, changed));
}

const tag = "notification";

export const notificationOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/notifications",
    operationId: "notifyGetList",
    tag,
    summary: "List users's notification threads",
    access: mine,
    query: NotificationListQuery,
    responses: { 200: v.array(NotificationThread) },
    handler: (ctx) => listReply(ctx, listQuery(ctx.url), ctx.page()),
  }),
  operation({
    method: "PUT",
    path: "/notifications",
    operationId: "notifyReadList",
    tag,
    summary: "Mark notification threads as read, pinned or unread",
    access: mine,
    query: NotificationReadQuery,
    responses: { 205: v.array(NotificationThread) },
    handler: (ctx) => readReply(ctx, ctx.url, readQuery(ctx.url)),
  }),
  operation({
    method: "GET",
    path: "/notifications/new",
    operationId: "notifyNewAvailable",
    tag,
    summary: "Check if unread notifications exist",
    access: mine,
    responses: { 200: NotificationCount },
    handler: (ctx) => ({ new: countUnread(ctx.env, viewerOf(ctx.doer)) }),
  }),
  operation({
    method: "GET",
    path: "/notifications/threads/:id",
    operationId: "notifyGetThread",
    tag,
    summary: "Get notification thread by ID",
    access: mine,
    params: ThreadParams,
    responses: { 200: NotificationThread },
    handler: (ctx) => {
      const view = getThread(ctx.env, viewerOf(ctx.doer), threadId(ctx.params.id));
      return threadRenderer(ctx)(view);
    },
  }),
  operation({
    method: "PATCH",
    path: "/notifications/threads/:id",
    operationId: "notifyReadThread",
    tag,
    summary: "Mark notification thread as read by ID",
    access: mine,
    params: ThreadParams,
    query: ThreadReadQuery,
    responses: { 205: NotificationThread },
    handler: (ctx) => {
      const view = setThreadStatus(ctx.env, viewerOf(ctx.doer), threadId(ctx.params.id), targetStatus(ctx.url.searchParams.get("to-status")));
      return new Reply(205, threadRenderer(ctx)(view));
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/notifications",
    operationId: "notifyGetRepoList",
    tag,
    summary: "List users's notification threads on a specific repo",
    access: ofRepo,
    params: RepoParams,
    query: NotificationListQuery,
    responses: { 200: v.array(NotificationThread) },
    handler: (ctx) => listReply(ctx, listQuery(ctx.url, ctx.repo.repo.id), ctx.page()),
  }),
  operation({
    method: "PUT",
    path: "/repos/:owner/:repo/notifications",
    operationId: "notifyReadRepoList",
    tag,
    summary: "Mark notification threads as read, pinned or unread on a specific repo",
    access: ofRepo,
    params: RepoParams,
    query: NotificationReadQuery,
    responses: { 205: v.array(NotificationThread) },
    handler: (ctx) => readReply(ctx, ctx.url, readQuery(ctx.url, ctx.repo.repo.id)),
  }),
];
