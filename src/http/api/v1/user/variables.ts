import type { AnyOperation, Granted, OpContext } from "../../../route.ts";
import { variableOperations } from "../variable-routes.ts";

const access = { scope: "user", signIn: true } as const;

/** The signed-in user's own Actions variables (Gitea's /user/actions/variables, the doer's level). */
export const userVariableOperations: AnyOperation[] = variableOperations({
  name: "User",
  path: "/user/actions/variables",
  tag: "user",
  summaries: {
    list: "Get the user-level list of variables which is created by current doer",
    get: "Get a user-level variable which is created by current doer",
    create: "Create a user-level variable",
    update: "Update a user-level variable which is created by current doer",
    delete: "Delete a user-level variable which is created by current doer",
  },
  access,
  params: {},
  // The builder hands the runner's context through; the declaration guarantees the doer.
  level: ({ doer }: OpContext<Record<string, string>, unknown, unknown> & Granted<typeof access>) => ({ ownerId: doer.id }),
});
