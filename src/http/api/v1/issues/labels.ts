import * as v from "valibot";
import { operation, reply, type AnyOperation } from "../../../route.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import { CreateLabelOption, EditLabelOption, Label, LabelListQuery, LabelParams } from "../../../../shapes/label.ts";
import { toAPILabel } from "../../../../convert/label.ts";
import {
  createLabel,
  deleteLabel,
  editLabel,
  labelByIdOrName,
  labelSort,
  listLabels,
} from "../../../../services/label/labels.ts";
import type { Env } from "../../../../services/env.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import type { LabelRow } from "../../../../db/schema/index.ts";
import { totalHeaders } from "../repos/collaborators.ts";

/** Labels (and milestones) are read by whoever reads the repository's issues or pull requests. */
export const trackerRead = { scope: "issue", signIn: false, repo: { read: "tracker" } } as const;
/** Changing them: Gitea's reqToken, then reqRepoWriter(issues, pulls), a writer of either unit. */
export const trackerWrite = { scope: "issue", signIn: false, repo: { write: "tracker" } } as const;

const json = (env: Env, rc: RepoContext, label: LabelRow) =>
  toAPILabel(env.settings, label, { owner: rc.owner.name, repo: rc.repo.name });

/** Gitea's FormInt("page"): labels are paginated only when a page is asked for; otherwise all are listed. */
export function askedPage(query: { page?: string }): boolean {
  return /^\s*\+?\d+\s*$/.test(query.page ?? "") && Number(query.page) > 0;
}

export const labelOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/labels",
    operationId: "issueListLabels",
    tag: "issue",
    summary: "Get all of a repository's labels",
    access: trackerRead,
    params: RepoParams,
    query: LabelListQuery,
    responses: { 200: v.array(Label) },
    handler: (ctx) => {
      const rc = ctx.repo;
      const page = askedPage(ctx.query) ? ctx.page() : undefined;
      const { rows, total } = listLabels(ctx.env, { repoId: rc.repo.id }, labelSort(ctx.query.sort), page);
      return reply.ok(
        rows.map((l) => json(ctx.env, rc, l)),
        totalHeaders(total),
      );
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/labels",
    operationId: "issueCreateLabel",
    tag: "issue",
    summary: "Create a label",
    access: trackerWrite,
    params: RepoParams,
    body: CreateLabelOption,
    responses: { 201: Label },
    handler: (ctx) => {
      const rc = ctx.repo;
      const body = ctx.body;
      const label = createLabel(ctx.env, { repo: rc }, {
        name: body.name,
        color: body.color,
        exclusive: body.exclusive ?? undefined,
        description: body.description ?? undefined,
        isArchived: body.is_archived ?? undefined,
      });
      return reply.created(json(ctx.env, rc, label));
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/labels/:id",
    operationId: "issueGetLabel",
    tag: "issue",
    summary: "Get a single label",
    access: trackerRead,
    params: LabelParams,
    responses: { 200: Label },
    handler: ({ env, repo: rc, params }) => json(env, rc, labelByIdOrName(env, { repoId: rc.repo.id }, params.id)),
  }),
  operation({
    method: "PATCH",
    path: "/repos/:owner/:repo/labels/:id",
    operationId: "issueEditLabel",
    tag: "issue",
    summary: "Update a label",
    access: trackerWrite,
    params: LabelParams,
    body: EditLabelOption,
    responses: { 200: Label },
    handler: (ctx) => {
      const rc = ctx.repo;
      const body = ctx.body;
      const edited = editLabel(ctx.env, { repo: rc }, ctx.params.id, {
        name: body.name ?? undefined,
        color: body.color ?? undefined,
        exclusive: body.exclusive ?? undefined,
        description: body.description ?? undefined,
        isArchived: body.is_archived ?? undefined,
      });
      return json(ctx.env, rc, edited);
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/labels/:id",
    operationId: "issueDeleteLabel",
    tag: "issue",
    summary: "Delete a label",
    access: trackerWrite,
    params: LabelParams,
    responses: { 204: null },
    handler: ({ env, repo: rc, params }) => {
      // Gitea 1.25 answers 204 for an id that is not this repository's label (and deletes nothing);
      // its documented 404 is given instead, as later Gitea versions do.
      deleteLabel(env, { repo: rc }, params.id);
      return reply.noContent();
    },
  }),
];
