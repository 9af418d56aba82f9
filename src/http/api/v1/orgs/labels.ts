import * as v from "valibot";
import { operation, reply, type AnyOperation } from "../../../route.ts";
import { OrgParams } from "../../../schemas/org.ts";
import { CreateLabelOption, EditLabelOption, Label, LabelListQuery, OrgLabelParams } from "../../../schemas/label.ts";
import { toAPILabel } from "../../../../convert/label.ts";
import {
  createLabel,
  deleteLabel,
  editLabel,
  labelById,
  labelByIdOrName,
  labelSort,
  listLabels,
} from "../../../../services/label/labels.ts";
import { requireOrgOwner } from "../../../../services/org/lookup.ts";
import type { Principal } from "../../../../auth/principal.ts";
import type { Env } from "../../../../services/env.ts";
import type { LabelRow, UserRow } from "../../../../db/schema/index.ts";
import { requireToken, totalHeaders } from "../repos/collaborators.ts";
import { askedPage } from "../issues/labels.ts";
import { orgFromPath } from "./context.ts";

/**
 * Gitea lets anyone list (and, with a token, read) an organization's labels without checking that
 * the organization is visible to them; here an organization the caller may not see is a 404, so a
 * private organization's labels do not leak.
 */
const visibleOrg = (env: Env, principal: Principal | undefined, name: string) => orgFromPath.visible(env, principal, name);

/** Gitea's reqToken + reqOrgOwnership: organization owners and site admins change labels. */
function ownedOrg(env: Env, principal: Principal | undefined, name: string): UserRow {
  const org = visibleOrg(env, principal, name);
  requireToken(principal);
  requireOrgOwner(env, org, principal.user);
  return org;
}

const json = (env: Env, org: UserRow, label: LabelRow) => toAPILabel(env.settings, label, { org: org.name });

export const orgLabelOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/orgs/:org/labels",
    operationId: "orgListLabels",
    tag: "organization",
    summary: "List an organization's labels",
    access: { scope: "organization", signIn: false },
    params: OrgParams,
    query: LabelListQuery,
    responses: { 200: v.array(Label) },
    handler: (ctx) => {
      const org = visibleOrg(ctx.env, ctx.principal, ctx.params.org);
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
    access: { scope: "organization", signIn: false },
    params: OrgParams,
    body: CreateLabelOption,
    responses: { 201: Label },
    handler: (ctx) => {
      const org = ownedOrg(ctx.env, ctx.principal, ctx.params.org);
      const body = ctx.body;
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
    access: { scope: "organization", signIn: false },
    params: OrgLabelParams,
    responses: { 200: Label },
    handler: ({ env, principal, params }) => {
      const org = visibleOrg(env, principal, params.org);
      // Gitea asks for a token here (reqToken), though listing needs none.
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
    access: { scope: "organization", signIn: false },
    params: OrgLabelParams,
    body: EditLabelOption,
    responses: { 200: Label },
    handler: (ctx) => {
      const org = ownedOrg(ctx.env, ctx.principal, ctx.params.org);
      const body = ctx.body;
      const label = labelById(ctx.env, { orgId: org.id }, ctx.params.id);
      const edited = editLabel(ctx.env, label, {
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
    access: { scope: "organization", signIn: false },
    params: OrgLabelParams,
    responses: { 204: null },
    handler: ({ env, principal, params }) => {
      const org = ownedOrg(env, principal, params.org);
      // Gitea 1.25 answers 204 for an id that is not this organization's label; its documented 404 is given instead.
      deleteLabel(env, labelById(env, { orgId: org.id }, params.id));
      return reply.noContent();
    },
  }),
];
