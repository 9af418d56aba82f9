import * as v from "valibot";
import { operation, reply, Reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../schemas/common.ts";
import { OrgParams, OrgUserParams } from "../../../schemas/org.ts";
import { User } from "../../../schemas/user.ts";
import { toAPIUser } from "../../../../convert/user.ts";
import {
  checkMember,
  isPublicMember,
  listMembers,
  removeMember,
  setMembershipVisibility,
} from "../../../../services/org/members.ts";
import { requireUser } from "../../../../services/user/account.ts";
import { NotFound } from "../../../../lib/errors.ts";
import { totalOnly } from "../repos/collaborators.ts";
import { orgFromPath } from "./context.ts";

/** Member routes answer 404 for an organization the caller may not see, so private ones do not leak. */
const visibleOrg = orgFromPath.visible;

export const orgMemberOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/orgs/:org/members",
    operationId: "orgListMembers",
    tag: "organization",
    summary: "List an organization's members",
    access: { scope: "organization", signIn: true },
    params: OrgParams,
    query: PageQuery,
    responses: { 200: v.array(User) },
    handler: (ctx) => {
      const org = visibleOrg(ctx.env, ctx.principal, ctx.params.org);
      const { rows, total } = listMembers(ctx.env, ctx.principal!.user, org, ctx.page());
      return totalOnly(rows.map((u) => toAPIUser(ctx.env.settings, u, ctx.principal!.user)), total);
    },
  }),
  operation({
    method: "GET",
    path: "/orgs/:org/members/:username",
    operationId: "orgIsMember",
    tag: "organization",
    summary: "Check if a user is a member of an organization",
    access: { scope: "organization", signIn: true },
    params: OrgUserParams,
    responses: { 204: null, 303: null, 404: null },
    handler: ({ env, principal, params }) => {
      const org = visibleOrg(env, principal, params.org);
      const user = requireUser(env, params.username);
      const answer = checkMember(env, principal!.user, org, user);
      if (answer === "yes") return reply.noContent();
      if (answer === "no") throw new NotFound();
      const base = new URL(env.settings.server.rootUrl).pathname;
      const location = `${base}api/v1/orgs/${encodeURIComponent(org.name)}/public_members/${encodeURIComponent(user.name)}`;
      return new Reply(303, undefined, { Location: location });
    },
  }),
  operation({
    method: "DELETE",
    path: "/orgs/:org/members/:username",
    operationId: "orgDeleteMember",
    tag: "organization",
    summary: "Remove a member from an organization",
    access: { scope: "organization", signIn: true },
    params: OrgUserParams,
    responses: { 204: null },
    handler: ({ env, principal, params }) => {
      const org = orgFromPath.owned(env, principal, params.org);
      removeMember(env, org, requireUser(env, params.username));
      return reply.noContent();
    },
  }),
  operation({
    method: "GET",
    path: "/orgs/:org/public_members",
    operationId: "orgListPublicMembers",
    tag: "organization",
    summary: "List an organization's public members",
    access: { scope: "organization", signIn: false },
    params: OrgParams,
    query: PageQuery,
    responses: { 200: v.array(User) },
    handler: (ctx) => {
      const org = visibleOrg(ctx.env, ctx.principal, ctx.params.org);
      // Gitea lists every member to a site admin here too.
      const viewer = ctx.principal?.user.isAdmin ? ctx.principal.user : undefined;
      const { rows, total } = listMembers(ctx.env, viewer, org, ctx.page());
      return totalOnly(rows.map((u) => toAPIUser(ctx.env.settings, u, ctx.principal?.user)), total);
    },
  }),
  operation({
    method: "GET",
    path: "/orgs/:org/public_members/:username",
    operationId: "orgIsPublicMember",
    tag: "organization",
    summary: "Check if a user is a public member of an organization",
    access: { scope: "organization", signIn: false },
    params: OrgUserParams,
    responses: { 204: null, 404: null },
    handler: ({ env, principal, params }) => {
      const org = visibleOrg(env, principal, params.org);
      if (!isPublicMember(env, org, requireUser(env, params.username))) throw new NotFound();
      return reply.noContent();
    },
  }),
  operation({
    method: "PUT",
    path: "/orgs/:org/public_members/:username",
    operationId: "orgPublicizeMember",
    tag: "organization",
    summary: "Publicize a user's membership",
    access: { scope: "organization", signIn: true },
    params: OrgUserParams,
    responses: { 204: null },
    handler: ({ env, principal, params }) => {
      const org = orgFromPath.membered(env, principal, params.org);
      setMembershipVisibility(env, principal!.user, org, requireUser(env, params.username), true);
      return reply.noContent();
    },
  }),
  operation({
    method: "DELETE",
    path: "/orgs/:org/public_members/:username",
    operationId: "orgConcealMember",
    tag: "organization",
    summary: "Conceal a user's membership",
    access: { scope: "organization", signIn: true },
    params: OrgUserParams,
    responses: { 204: null },
    handler: ({ env, principal, params }) => {
      const org = orgFromPath.membered(env, principal, params.org);
      setMembershipVisibility(env, principal!.user, org, requireUser(env, params.username), false);
      return reply.noContent();
    },
  }),
];
