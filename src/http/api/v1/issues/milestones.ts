import * as v from "valibot";
import { operation, reply, type AnyOperation } from "../../../route.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import {
  CreateMilestoneOption,
  EditMilestoneOption,
  Milestone,
  MilestoneListQuery,
  MilestoneParams,
} from "../../../../shapes/label.ts";
import { toAPIMilestone } from "../../../../convert/milestone.ts";
import {
  createMilestone,
  deleteMilestone,
  editMilestone,
  listMilestones,
  milestoneByIdOrName,
} from "../../../../services/milestone/milestones.ts";
import { Invalid } from "../../../../lib/errors.ts";
import { parseDateTime } from "../../../../lib/time.ts";
import { totalHeaders } from "../repos/collaborators.ts";
import { trackerRead, trackerWrite } from "./labels.ts";

/** `due_on` is taken as the exact time given (Gitea's API keeps it; only its web form rounds to a day). */
function dueOn(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const unix = parseDateTime(value);
  if (unix === undefined) throw new Invalid(`parsing time "${value}" as "2006-01-02T15:04:05Z07:00": cannot parse`);
  return unix;
}

export const milestoneOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/milestones",
    operationId: "issueGetMilestonesList",
    tag: "issue",
    summary: "Get all of a repository's opened milestones",
    access: trackerRead,
    params: RepoParams,
    query: MilestoneListQuery,
    responses: { 200: v.array(Milestone) },
    handler: (ctx) => {
      const { rows, total } = listMilestones(ctx.env, ctx.repo, { state: ctx.query.state, name: ctx.query.name }, ctx.page());
      return reply.ok(rows.map(toAPIMilestone), totalHeaders(total));
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/milestones",
    operationId: "issueCreateMilestone",
    tag: "issue",
    summary: "Create a milestone",
    access: trackerWrite,
    params: RepoParams,
    body: CreateMilestoneOption,
    responses: { 201: Milestone },
    handler: (ctx) => {
      const rc = ctx.repo;
      const body = ctx.body;
      // Gitea requires no title here (its client library does); an empty one is stored as given.
      const m = createMilestone(ctx.env, rc, {
        title: body.title ?? "",
        description: body.description ?? undefined,
        dueUnix: dueOn(body.due_on),
        state: body.state ?? undefined,
      });
      return reply.created(toAPIMilestone(m));
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/milestones/:id",
    operationId: "issueGetMilestone",
    tag: "issue",
    summary: "Get a milestone",
    access: trackerRead,
    params: MilestoneParams,
    responses: { 200: Milestone },
    handler: ({ env, repo, params }) => toAPIMilestone(milestoneByIdOrName(env, repo, params.id)),
  }),
  operation({
    method: "PATCH",
    path: "/repos/:owner/:repo/milestones/:id",
    operationId: "issueEditMilestone",
    tag: "issue",
    summary: "Update a milestone",
    access: trackerWrite,
    params: MilestoneParams,
    body: EditMilestoneOption,
    responses: { 200: Milestone },
    handler: (ctx) => {
      const rc = ctx.repo;
      const body = ctx.body;
      const m = milestoneByIdOrName(ctx.env, rc, ctx.params.id);
      const edited = editMilestone(ctx.env, rc, m, {
        title: body.title ?? undefined,
        description: body.description ?? undefined,
        dueUnix: dueOn(body.due_on),
        state: body.state ?? undefined,
      });
      return toAPIMilestone(edited);
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/milestones/:id",
    operationId: "issueDeleteMilestone",
    tag: "issue",
    summary: "Delete a milestone",
    access: trackerWrite,
    params: MilestoneParams,
    responses: { 204: null },
    handler: ({ env, repo: rc, params }) => {
      deleteMilestone(env, rc, milestoneByIdOrName(env, rc, params.id));
      return reply.noContent();
    },
  }),
];
