import * as v from "valibot";
import { operation, reply, type AnyOperation } from "../../../route.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import {
  CreatePullRequestOption,
  EditPullRequestOption,
  PullGetQuery,
  PullListQuery,
  PullParams,
  PullRequest,
} from "../../../../shapes/pull.ts";
import { parseGoBool } from "../../../../shapes/commit.ts";
import { toAPIPullRequest } from "../../../../convert/pull.ts";
import { createPull } from "../../../../services/pull/create.ts";
import { editPull } from "../../../../services/pull/edit.ts";
import { listPullRequests, pinnedPullRequests, pullByBaseHead } from "../../../../services/pull/list.ts";
import { requirePullsReader, type PullContext } from "../../../../services/pull/lookup.ts";
import { pullView, pullViews } from "../../../../services/pull/view.ts";
import { pullDiffOrPatch } from "../../../../services/pull/changes.ts";
import { Invalid } from "../../../../lib/errors.ts";
import { parseDateTime } from "../../../../lib/time.ts";
import type { Doer } from "../../../../services/access/permission.ts";
import type { Env } from "../../../../services/env.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import type { IssueRow, PullRequestRow } from "../../../../db/schema/index.ts";
import { wildcard } from "./context.ts";
import { pullChangeOperations } from "./pulls-changes.ts";

/** Reading pull requests: Gitea's mustAllowPulls and reqRepoReader(Code) on the `/pulls` group. */
const readPulls = { scope: "repository", signIn: false, repo: { read: "pulls" } } as const;
/** Reading one pull request of `:index` (its lookup asks the same, then 404 for another index). */
const readPull = { scope: "repository", signIn: false, repo: { read: "pulls" }, pull: true } as const;
/**
 * Creating one: reqToken and mustNotBeArchived, found before the group's guards as hearth has always
 * answered (Gitea runs mustAllowPulls and reqRepoReader(Code) first), so the handler asks those after.
 */
const createPulls = { scope: "repository", signIn: false, repo: { doer: true, notArchived: true } } as const;
/** Editing one: reqToken and mustNotBeArchived, then the pull request of `:index` with the group's guards. */
const editPulls = { scope: "repository", signIn: false, repo: { doer: true, notArchived: true }, pull: true } as const;

async function pullJson(env: Env, rc: RepoContext, doer: Doer | undefined, pull: PullRequestRow, issue: IssueRow) {
  return toAPIPullRequest(env.settings, await pullView(env, doer, rc, pull, issue), doer);
}

/** A request body's date, or a 422 as Gitea's binding. */
function unixOf(value: string): number {
  const unix = parseDateTime(value);
  if (unix === undefined) throw new Invalid(`[Deadline]: invalid date`);
  return unix;
}

/** Gitea keeps the date of an edited deadline, at 23:59:59 (of UTC here); a zero time removes it. */
function endOfDay(value: string): number {
  const unix = unixOf(value);
  if (unix < 0) return 0;
  const d = new Date(unix * 1000);
  return Math.floor(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 23, 59, 59) / 1000);
}

/** `{index}.diff` / `{index}.patch` (Gitea's repoDownloadPullDiffOrPatch), as text/plain. */
async function diffOrPatch(env: Env, pc: PullContext, kind: string, binary: boolean): Promise<Response> {
  const text = await pullDiffOrPatch(env, pc, kind === "patch", binary);
  return new Response(new Uint8Array(text), {
    status: 200,
    headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" },
  });
}

export const pullOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/pulls",
    operationId: "repoListPullRequests",
    tag: "repository",
    summary: "List a repo's pull requests",
    access: readPulls,
    params: RepoParams,
    query: PullListQuery,
    responses: { 200: v.array(PullRequest) },
    handler: async (ctx) => {
      const rc = ctx.repo;
      const page = ctx.page();
      // `labels` may repeat (Gitea's collectionFormat multi); anything not a number is a 500 in Gitea, ignored here.
      const labels = ctx.url.searchParams
        .getAll("labels")
        .flatMap((s) => s.split(","))
        .filter((s) => /^\d{1,15}$/.test(s.trim()))
        .map(Number);
      const { rows, total } = listPullRequests(ctx.env, rc, {
        state: ctx.query.state,
        sort: ctx.query.sort,
        milestone: ctx.query.milestone && /^\d{1,15}$/.test(ctx.query.milestone) ? Number(ctx.query.milestone) : undefined,
        labels,
        poster: ctx.query.poster,
        baseBranch: ctx.query.base_branch,
        offset: page.offset,
        limit: page.limit,
      });
      const views = await pullViews(ctx.env, ctx.doer, rc, rows);
      return ctx.list(views.map((view) => toAPIPullRequest(ctx.env.settings, view, ctx.doer)), total, page);
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/pulls",
    operationId: "repoCreatePullRequest",
    tag: "repository",
    summary: "Create a pull request",
    access: createPulls,
    params: RepoParams,
    body: CreatePullRequestOption,
    responses: { 201: PullRequest },
    handler: async (ctx) => {
      const rc = ctx.repo;
      // The group's guards, after the sign-in and the archive (see createPulls).
      requirePullsReader(rc);
      const b = ctx.body;
      const { pull, issue } = await createPull(ctx.env, ctx.doer, rc, {
        head: b.head,
        base: b.base,
        title: b.title,
        body: b.body ?? undefined,
        assignee: b.assignee ?? undefined,
        assignees: b.assignees ?? undefined,
        labels: b.labels ?? undefined,
        milestone: b.milestone ?? undefined,
        deadlineUnix: b.due_date ? unixOf(b.due_date) : undefined,
      });
      return reply.created(await pullJson(ctx.env, rc, ctx.doer, pull, issue));
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/pulls/pinned",
    operationId: "repoListPinnedPullRequests",
    tag: "repository",
    summary: "List a repo's pinned pull requests",
    access: readPulls,
    params: RepoParams,
    responses: { 200: v.array(PullRequest) },
    handler: async ({ env, repo: rc, doer }) => {
      const views = await pullViews(env, doer, rc, pinnedPullRequests(env, rc));
      return views.map((view) => toAPIPullRequest(env.settings, view, doer));
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/pulls/:index/*",
    docNames: { index: "base" },
    wildcard: "head",
    operationId: "repoGetPullRequestByBaseHead",
    tag: "repository",
    summary: "Get a pull request by base and head",
    // `:index` is the base branch here, not a pull request: the repository alone is declared.
    access: readPulls,
    params: v.object({ owner: v.string(), repo: v.string(), index: v.string(), "*": v.string() }),
    responses: { 200: PullRequest },
    handler: async ({ env, repo: rc, doer, params }) => {
      const { pull, issue } = pullByBaseHead(env, rc, params.index, wildcard(params));
      return pullJson(env, rc, doer, pull, issue);
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/pulls/:index",
    operationId: "repoGetPullRequest",
    tag: "repository",
    summary: "Get a pull request",
    access: readPull,
    params: PullParams,
    responses: { 200: PullRequest },
    handler: async ({ env, repo: rc, pull: pc, doer }) => pullJson(env, rc, doer, pc.pull, pc.issue),
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/pulls/:index",
    suffix: { name: "diffType", values: ["diff", "patch"] },
    operationId: "repoDownloadPullDiffOrPatch",
    tag: "repository",
    summary: "Get a pull request diff or patch",
    access: readPull,
    params: v.object({ ...PullParams.entries, diffType: v.picklist(["diff", "patch"]) }),
    query: PullGetQuery,
    responses: { 200: v.string(), 404: null },
    // The diff goes out as text/plain, not as a JSON string.
    streams: true,
    handler: ({ env, pull: pc, params, query }) => diffOrPatch(env, pc, params.diffType, parseGoBool(query.binary)),
  }),
  operation({
    method: "PATCH",
    path: "/repos/:owner/:repo/pulls/:index",
    operationId: "repoEditPullRequest",
    tag: "repository",
    summary: "Update a pull request. If using deadline only the date will be taken into account, and time of day ignored.",
    access: editPulls,
    params: PullParams,
    body: EditPullRequestOption,
    responses: { 201: PullRequest },
    handler: async (ctx) => {
      const b = ctx.body;
      let deadlineUnix: number | undefined;
      let unsetDueDate = b.unset_due_date ?? undefined;
      if (b.due_date && !unsetDueDate) {
        deadlineUnix = endOfDay(b.due_date);
        if (deadlineUnix === 0) unsetDueDate = true;
      }
      const { pull, issue } = await editPull(ctx.env, ctx.doer, ctx.pull, {
        title: b.title ?? undefined,
        body: b.body ?? undefined,
        base: b.base ?? undefined,
        assignee: b.assignee ?? undefined,
        assignees: b.assignees ?? undefined,
        milestone: b.milestone ?? undefined,
        labels: b.labels ?? undefined,
        state: b.state ?? undefined,
        deadlineUnix,
        unsetDueDate,
        allowMaintainerEdit: b.allow_maintainer_edit ?? undefined,
      });
      // Gitea answers an edit with 201.
      return reply.created(await pullJson(ctx.env, ctx.repo, ctx.doer, pull, issue));
    },
  }),
  ...pullChangeOperations,
];


