import * as v from "valibot";
import { operation, reply, Reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../../shapes/common.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import {
  CreateIssueOption,
  EditDeadlineOption,
  EditIssueOption,
  Issue,
  IssueDeadline,
  IssueParams,
} from "../../../../shapes/issue.ts";
import { toAPIIssue } from "../../../../convert/issue.ts";
import { createIssue, deleteIssue, editIssue } from "../../../../services/issue/issues.ts";
import { listRepoIssues } from "../../../../services/issue/list.ts";
import { canWriteIssue, requireIssuesReader } from "../../../../services/issue/lookup.ts";
import { issueView, issueViews, type KnownToView } from "../../../../services/issue/view.ts";
import { Forbidden, Invalid } from "../../../../lib/errors.ts";
import { parseDateTime, toRFC3339 } from "../../../../lib/time.ts";
import type { Env } from "../../../../services/env.ts";
import type { Doer } from "../../../../services/access/permission.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import type { IssueRow } from "../../../../db/schema/index.ts";

function issueJson(env: Env, rc: RepoContext, issue: IssueRow, doer: Doer | undefined, known?: KnownToView) {
  return toAPIIssue(env.settings, issueView(env, rc.repo, rc.owner, issue, known), doer);
}

/** Gitea parses `since`/`before` as RFC 3339; anything else is a 422. */
export function timeQuery(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const unix = parseDateTime(value);
  if (unix === undefined) throw new Invalid(`parsing time "${value}" as "2006-01-02T15:04:05Z07:00": cannot parse`);
  return unix;
}

/** Listing: Gitea's mustEnableIssuesOrPulls on the `/issues` group. */
const list = { scope: "issue", signIn: false, repo: { read: "tracker" } } as const;
/** Creating: reqToken, mustNotBeArchived; the issues unit is asked afterwards (mustEnableIssues' 404). */
const create = { scope: "issue", signIn: false, repo: { doer: true, notArchived: true } } as const;
/** Reading one: the repository; the issue is 404 when its unit is not readable. */
const read = { scope: "issue", signIn: false, repo: {}, issue: true } as const;
/** Editing: reqToken, mustNotBeArchived, then the issue; who may change what is the service's business. */
const edit = { scope: "issue", signIn: false, repo: { doer: true, notArchived: true }, issue: true } as const;
/** Deleting: reqToken, reqAdmin, then the issue. */
const remove = { scope: "issue", signIn: false, repo: { admin: true }, issue: true } as const;
/** The deadline: reqToken, then the issue; a writer of its unit (known only with the issue) may set it. */
const deadline = { scope: "issue", signIn: false, repo: { doer: true }, issue: true } as const;

const IssueListQuery = v.object({
  ...PageQuery.entries,
  state: v.optional(v.string()),
  labels: v.optional(v.string()),
  q: v.optional(v.string()),
  type: v.optional(v.string()),
  milestones: v.optional(v.string()),
  since: v.optional(v.string()),
  before: v.optional(v.string()),
  created_by: v.optional(v.string()),
  assigned_by: v.optional(v.string()),
  mentioned_by: v.optional(v.string()),
});

export const issueOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues",
    operationId: "issueListIssues",
    tag: "issue",
    summary: "List a repository's issues",
    access: list,
    params: RepoParams,
    query: IssueListQuery,
    responses: { 200: v.array(Issue) },
    handler: (ctx) => {
      const { repo: rc, query } = ctx;
      const page = ctx.page();
      const { rows, total } = listRepoIssues(ctx.env, rc, {
        state: query.state,
        labels: query.labels,
        milestones: query.milestones,
        q: query.q,
        type: query.type,
        createdBy: query.created_by,
        assignedBy: query.assigned_by,
        mentionedBy: query.mentioned_by,
        sinceUnix: timeQuery(query.since),
        beforeUnix: timeQuery(query.before),
        ...page,
      });
      const views = issueViews(ctx.env, () => ({ repo: rc.repo, owner: rc.owner }), rows);
      return ctx.list(views.map((view) => toAPIIssue(ctx.env.settings, view, ctx.doer)), total, page);
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/issues",
    operationId: "issueCreateIssue",
    tag: "issue",
    summary: "Create an issue. If using deadline only the date will be taken into account, and time of day ignored.",
    access: create,
    params: RepoParams,
    body: CreateIssueOption,
    responses: { 201: Issue },
    handler: (ctx) => {
      const { repo: rc, doer } = ctx;
      // Before the body is read: a 404 answers before a 422.
      requireIssuesReader(rc);
      const body = ctx.body;
      const issue = createIssue(ctx.env, doer, rc, {
        title: body.title,
        body: body.body ?? undefined,
        ref: body.ref ?? undefined,
        assignee: body.assignee ?? undefined,
        assignees: body.assignees ?? undefined,
        milestone: body.milestone ?? undefined,
        labels: body.labels ?? undefined,
        closed: body.closed ?? undefined,
        deadlineUnix: body.due_date ? dayOf(body.due_date) : undefined,
      });
      return reply.created(issueJson(ctx.env, rc, issue, doer, { users: [doer], created: true }));
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/:index",
    operationId: "issueGetIssue",
    tag: "issue",
    summary: "Get an issue",
    access: read,
    params: IssueParams,
    responses: { 200: Issue },
    handler: ({ env, issue: ic, doer }) => issueJson(env, ic, ic.issue, doer),
  }),
  operation({
    method: "PATCH",
    path: "/repos/:owner/:repo/issues/:index",
    operationId: "issueEditIssue",
    tag: "issue",
    summary: "Edit an issue. If using deadline only the date will be taken into account, and time of day ignored.",
    access: edit,
    params: IssueParams,
    body: EditIssueOption,
    responses: { 201: Issue },
    handler: (ctx) => {
      const { issue: ic, doer } = ctx;
      const body = ctx.body;
      const state = body.state ?? undefined;
      if (state !== undefined && state !== "open" && state !== "closed") throw new Invalid(`unknown state: ${state}`);
      const issue = editIssue(ctx.env, doer, ic, {
        title: body.title ?? undefined,
        body: body.body ?? undefined,
        ref: body.ref ?? undefined,
        assignee: body.assignee ?? undefined,
        assignees: body.assignees ?? undefined,
        milestone: body.milestone ?? undefined,
        state,
        deadlineUnix: body.due_date ? dayOf(body.due_date) : undefined,
        unsetDueDate: body.unset_due_date ?? undefined,
      });
      // Gitea answers an edit with 201.
      return reply.created(issueJson(ctx.env, ic, issue, doer));
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/:index",
    operationId: "issueDelete",
    tag: "issue",
    summary: "Delete an issue",
    access: remove,
    params: IssueParams,
    responses: { 204: null },
    handler: async ({ env, issue }) => {
      await deleteIssue(env, issue);
      return reply.noContent();
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/issues/:index/deadline",
    operationId: "issueEditIssueDeadline",
    tag: "issue",
    summary: "Set an issue deadline. If set to null, the deadline is deleted. If using deadline only the date will be taken into account, and time of day ignored.",
    access: deadline,
    params: IssueParams,
    body: EditDeadlineOption,
    responses: { 201: IssueDeadline },
    handler: (ctx) => {
      const { issue: ic, doer } = ctx;
      if (!canWriteIssue(ic)) throw new Forbidden("");
      const due = dayOf(ctx.body.due_date);
      const issue = editIssue(ctx.env, doer, ic, { deadlineUnix: due, unsetDueDate: due === 0 });
      return new Reply(201, { due_date: issue.deadlineUnix ? toRFC3339(issue.deadlineUnix) : null });
    },
  }),
];

/**
 * Gitea keeps only the date of a deadline: the end of that day (23:59:59) in the server's zone; we
 * take UTC. A zero time (`0001-01-01…`) means no deadline.
 */
function dayOf(value: string): number {
  const unix = parseDateTime(value);
  if (unix === undefined) throw new Invalid(`[Deadline]: invalid date`);
  if (unix < 0) return 0;
  const d = new Date(unix * 1000);
  return Math.floor(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 23, 59, 59) / 1000);
}
