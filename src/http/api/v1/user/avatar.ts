import { operation, reply, type AnyOperation } from "../../../route.ts";
import { UpdateUserAvatarOption } from "../../../../shapes/org.ts";
import { deleteAvatar, setAvatar } from "../../../../services/user/avatar.ts";

export const userAvatarOperations: AnyOperation[] = [
  operation({
    method: "POST",
    path: "/user/avatar",
    operationId: "userUpdateAvatar",
    tag: "user",
    summary: "Update Avatar",
    access: { scope: "user", signIn: true },
    body: UpdateUserAvatarOption,
    responses: { 204: null },
    handler: (ctx) => {
      setAvatar(ctx.env, ctx.doer, ctx.body.image ?? "");
      return reply.noContent();
    },
  }),
  operation({
    method: "DELETE",
    path: "/user/avatar",
    operationId: "userDeleteAvatar",
    tag: "user",
    summary: "Delete Avatar",
    access: { scope: "user", signIn: true },
    responses: { 204: null },
    handler: ({ env, doer }) => {
      deleteAvatar(env, doer);
      return reply.noContent();
    },
  }),
];
