import * as v from "valibot";
import { operation, reply, type AnyOperation } from "../../../route.ts";
import { OrgParams } from "../../../../shapes/org.ts";
import { CreateLabelOption, EditLabelOption, Label, LabelListQuery, OrgLabelParams } from "../../../../shapes/label.ts";
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
import type { LabelRow, UserRow } from "../../../../db/schema/index.ts";
import { requireToken, totalHeaders } from "../repos/collaborators.ts";
import { askedPage } from "../issues/labels.ts";

/**
 * Gitea lets anyone list (and, with a token, read) an organization's labels without checking that
 * the organization is visible to them; here an organization the caller may not see is a 404, so a
 * private organization's labels do not leak.
 */
const visible = { scope: "organization", signIn: false, org: "visible" } as const;
/**
 * orgAssignment, then reqToken and reqOrgOwnership: organization owners and site admins change
 * labels (a missing token is a 401 only once the organization was found).
 */
const owned = { scope: "organization", signIn: false, org: "owner" } as const;

const json = (env: Env, org: UserRow, label: LabelRow) => toAPILabel(env.settings, label, { org: org.name });

export const orgLabelOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/orgs/:org/labels",
    operationId: "orgListLabels",
    tag: "organization",
    summary: "List an organization's labels",
    access: visible,
    params: OrgParams,
    query: LabelListQuery,
    responses: { 200: v.array(Label) },
    handler: (ctx) => {
      const { org } = ctx;
      const page = askedPage(ctx.query) ? ctx.page() : undefined;
      const { rows, total } = listLabels(ctx.env, { orgId: org.id }, labelSort(ctx.query.sort), page);
      return reply.ok(
        rows.map((l) => json(ctx.env, org, l)),
        totalHeaders(total),
      );
    },
  }),
  operation({
    method: "POST",
    path: "/orgs/:org/labels",
    operationId: "orgCreateLabel",
    tag: "organization",
    summary: "Create a label for an organization",
    access: owned,
    params: OrgParams,
    body: CreateLabelOption,
    responses: { 201: Label },
    handler: (ctx) => {
      const { org, body } = ctx;
      const label = createLabel(ctx.env, { orgId: org.id }, {
        name: body.name,
        color: body.color,
        exclusive: body.exclusive ?? undefined,
        description: body.description ?? undefined,
        isArchived: body.is_archived ?? undefined,
      });
      return reply.created(json(ctx.env, org, label));
    },
  }),
  operation({
    method: "GET",
    path: "/orgs/:org/labels/:id",
    operationId: "orgGetLabel",
    tag: "organization",
    summary: "Get a single label",
    access: visible,
    params: OrgLabelParams,
    responses: { 200: Label },
    handler: ({ env, principal, org, params }) => {
      // Gitea asks for a token here (reqToken), though listing needs none: after the organization
      // was found, which the declaration cannot order (its `signIn` comes first, and only the
      // owner and member levels ask for a doer after the organization).
      requireToken(principal);
      return json(env, org, labelByIdOrName(env, { orgId: org.id }, params.id));
    },
  }),
  operation({
    method: "PATCH",
    path: "/orgs/:org/labels/:id",
    operationId: "orgEditLabel",
    tag: "organization",
    summary: "Update a label",
    access: owned,
    params: OrgLabelParams,
    body: EditLabelOption,
    responses: { 200: Label },
    handler: (ctx) => {
      const { org, body } = ctx;
      const edited = editLabel(ctx.env, { orgId: org.id }, ctx.params.id, {
        name: body.name ?? undefined,
        color: body.color ?? undefined,
        exclusive: body.exclusive ?? undefined,
        description: body.description ?? undefined,
        isArchived: body.is_archived ?? undefined,
      });
      return json(ctx.env, org, edited);
    },
  }),
  operation({
    method: "DELETE",
    path: "/orgs/:org/labels/:id",
    operationId: "orgDeleteLabel",
    tag: "organization",
    summary: "Delete a label",
    access: owned,
    params: OrgLabelParams,
    responses: { 204: null },
    handler: ({ env, org, params }) => {
      // Gitea 1.25 answers 204 for an id that is not this organization's label; its documented 404 is given instead.
      deleteLabel(env, { orgId: org.id }, params.id);
      return reply.noContent();
    },
  }),
];
