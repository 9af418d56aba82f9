import type { AnyOperation } from "../../../route.ts";
import { variableOperations } from "../variable-routes.ts";

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
  access: { scope: "user", signIn: true },
  params: {},
  level: ({ principal }) => ({ ownerId: principal!.user.id }),
});
