import { operation } from "../../../route.ts";
import { User } from "../../../../shapes/user.ts";
import { toAPIUser } from "../../../../convert/user.ts";

export const selfOperations = [
  operation({
    method: "GET",
    path: "/user",
    operationId: "userGetCurrent",
    tag: "user",
    summary: "Get the authenticated user",
    access: { scope: "user", signIn: true },
    responses: { 200: User },
    handler: ({ env, doer }) => toAPIUser(env.settings, doer, doer),
  }),
];
