import * as v from "valibot";
import { operation, reply, Reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../../shapes/common.ts";
import { OrgParams, OrgUserParams } from "../../../../shapes/org.ts";
import { User } from "../../../../shapes/user.ts";
import { toAPIUser } from "../../../../convert/user.ts";
import {
  checkMember,
  isPublicMember,
  listMembers,
  removeMember,
  setMembershipVisibility,
} from "../../../../services/org/members.ts";
import { NotFound } from "../../../../lib/errors.ts";
import { totalOnly } from "../repos/collaborators.ts";

// Member routes answer 404 for an organization the caller may not see, so private ones do not
// leak; the member named in the path is found after the organization (Gitea's orgAssignment, then
// the handler's GetUserByName).

/** Gitea's orgAssignment: anyone may list public members. */
const visible = { scope: "organization", signIn: false, org: "visible" } as const;
/** reqToken, orgAssignment: the full member list and the membership check. */
const visibleSignedIn = { scope: "organization", signIn: true, org: "visible" } as const;
/** The member of the path: an individual (an organization is a 404). */
const member = { kind: "user" } as const;
/**
 * Publicizing or concealing a membership: reqToken, orgAssignment, reqOrgMembership (whose
 * membership a member may change is the service's rule).
 */
const membered = { scope: "organization", signIn: true, org: "member", user: member } as const;

export const orgMemberOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/orgs/:org/members",
    operationId: "orgListMembers",
    tag: "organization",
    summary: "List an organization's members",
    access: visibleSignedIn,
    params: OrgParams,
    query: PageQuery,
    responses: { 200: v.array(User) },
    handler: (ctx) => {
      const { rows, total } = listMembers(ctx.env, ctx.doer, ctx.org, ctx.page());
      return totalOnly(rows.map((u) => toAPIUser(ctx.env.settings, u, ctx.doer)), total);
    },
  }),
  operation({
    method: "GET",
    path: "/orgs/:org/members/:username",
    operationId: "orgIsMember",
    tag: "organization",
    summary: "Check if a user is a member of an organization",
    access: { ...visibleSignedIn, user: member },
    params: OrgUserParams,
    responses: { 204: null, 303: null, 404: null },
    handler: ({ env, doer, org, user }) => {
      const answer = checkMember(env, doer, org, user);
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
    // reqToken, orgAssignment, reqOrgOwnership.
    access: { scope: "organization", signIn: true, org: "owner", user: member },
    params: OrgUserParams,
    responses: { 204: null },
    handler: ({ env, org, user }) => {
      removeMember(env, org, user);
      return reply.noContent();
    },
  }),
  operation({
    method: "GET",
    path: "/orgs/:org/public_members",
    operationId: "orgListPublicMembers",
    tag: "organization",
    summary: "List an organization's public members",
    access: visible,
    params: OrgParams,
    query: PageQuery,
    responses: { 200: v.array(User) },
    handler: (ctx) => {
      // Gitea lists every member to a site admin here too.
      const viewer = ctx.doer?.isAdmin ? ctx.doer : undefined;
      const { rows, total } = listMembers(ctx.env, viewer, ctx.org, ctx.page());
      return totalOnly(rows.map((u) => toAPIUser(ctx.env.settings, u, ctx.doer)), total);
    },
  }),
  operation({
    method: "GET",
    path: "/orgs/:org/public_members/:username",
    operationId: "orgIsPublicMember",
    tag: "organization",
    summary: "Check if a user is a public member of an organization",
    access: { ...visible, user: member },
    params: OrgUserParams,
    responses: { 204: null, 404: null },
    handler: ({ env, org, user }) => {
      if (!isPublicMember(env, org, user)) throw new NotFound();
      return reply.noContent();
    },
  }),
  operation({
    method: "PUT",
    path: "/orgs/:org/public_members/:username",
    operationId: "orgPublicizeMember",
    tag: "organization",
    summary: "Publicize a user's membership",
    access: membered,
    params: OrgUserParams,
    responses: { 204: null },
    handler: ({ env, doer, org, user }) => {
      setMembershipVisibility(env, doer, org, user, true);
      return reply.noContent();
    },
  }),
  operation({
    method: "DELETE",
    path: "/orgs/:org/public_members/:username",
    operationId: "orgConcealMember",
    tag: "organization",
    summary: "Conceal a user's membership",
    access: membered,
    params: OrgUserParams,
    responses: { 204: null },
    handler: ({ env, doer, org, user }) => {
      setMembershipVisibility(env, doer, org, user, false);
      return reply.noContent();
    },
  }),
];
