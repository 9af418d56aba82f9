import * as v from "valibot";
import { operation, reply } from "../../../route.ts";
import { CreateEmailOption, DeleteEmailOption, Email } from "../../../schemas/user.ts";
import { toAPIEmail } from "../../../../convert/user.ts";
import { addEmails, deleteEmails, listEmails } from "../../../../services/user/emails.ts";
import { rejectPublicOnly } from "../../../guards.ts";

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
    handler: ({ env, principal }) => {
      rejectPublicOnly(principal);
      const user = principal!.user;
      return listEmails(env, user).map((e) => toAPIEmail(e, user));
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
    handler: ({ env, principal, body }) => {
      rejectPublicOnly(principal);
      const user = principal!.user;
      return reply.created(addEmails(env, user, body.emails ?? []).map((e) => toAPIEmail(e, user)));
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
    handler: ({ env, principal, body }) => {
      rejectPublicOnly(principal);
      deleteEmails(env, principal!.user, body.emails ?? []);
      return reply.noContent();
    },
  }),
];
