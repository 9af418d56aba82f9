import type { AnyOperation, Granted, OpContext } from "../../../route.ts";
import { hookCrudOperations, hookDeliveryOperations, hookListOperation, type HookLevel } from "../hook-routes.ts";

const access = { scope: "user", signIn: true } as const;

/** The signed-in user's own hooks, which fire for every repository the user owns. */
const level: HookLevel = {
  name: "user",
  path: "/user/hooks",
  tag: "user",
  summaryOwner: "the authenticated user",
  access,
  params: {},
  // The builder hands the runner's context through; the declaration guarantees the doer.
  owner: ({ doer }: OpContext<Record<string, string>, unknown, unknown> & Granted<typeof access>) => ({ ownerId: doer.id }),
};

export const userHookOperations: AnyOperation[] = [hookListOperation(level), ...hookCrudOperations(level), ...hookDeliveryOperations(level)];
