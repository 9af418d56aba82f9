import type { AnyOperation } from "../../../route.ts";
import { hookCrudOperations, hookDeliveryOperations, hookListOperation, type HookLevel } from "../hook-routes.ts";

/** The signed-in user's own hooks, which fire for every repository the user owns. */
const level: HookLevel = {
  name: "user",
  path: "/user/hooks",
  tag: "user",
  summaryOwner: "the authenticated user",
  access: { scope: "user", signIn: true },
  params: {},
  owner: ({ principal }) => ({ ownerId: principal!.user.id }),
};

export const userHookOperations: AnyOperation[] = [hookListOperation(level), ...hookCrudOperations(level), ...hookDeliveryOperations(level)];
