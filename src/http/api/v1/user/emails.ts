import * as v from "valibot";
import { operation, reply } from "../../../route.ts";
import { CreateEmailOption, DeleteEmailOption, Email } from "../../../../shapes/user.ts";
import { toAPIEmail } from "../../../../convert/user.ts";
import { addEmails, deleteEmails, listEmails } from "../../../../services/user/emails.ts";
import { rejectPublicOnly } from "../../../guards.ts";

/**
 * The doer's own addresses. Gitea's rejectPublicOnly stays in the handlers: it refuses by the
 * token's kind, which no declaration names.
 */
const access = { scope: "user", signIn: true } as const;

export const emailOperations = [
  operation({
    method: "GET",
    path: "/user/emails",
    operationId: "userListEmails",
    tag: "user",
    summary: "List the authenticated user's email addresses",
    access,
    responses: { 200: v.array(Email) },
    handler: ({ env, principal, doer }) => {
      rejectPublicOnly(principal);
      return listEmails(env, doer).map((e) => toAPIEmail(e, doer));
    },
  }),
  operation({
    method: "POST",
    path: "/user/emails",
    operationId: "userAddEmail",
    tag: "user",
    summary: "Add email addresses",
    access,
    body: CreateEmailOption,
    responses: { 201: v.array(Email) },
    handler: ({ env, principal, doer, body }) => {
      rejectPublicOnly(principal);
      return reply.created(addEmails(env, doer, body.emails ?? []).map((e) => toAPIEmail(e, doer)));
    },
  }),
  operation({
    method: "DELETE",
    path: "/user/emails",
    operationId: "userDeleteEmail",
    tag: "user",
    summary: "Delete email addresses",
    access,
    body: DeleteEmailOption,
    responses: { 204: null },
    handler: ({ env, principal, doer, body }) => {
      rejectPublicOnly(principal);
      deleteEmails(env, doer, body.emails ?? []);
      return reply.noContent();
    },
  }),
];
