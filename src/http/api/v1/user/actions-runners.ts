import type { AnyOperation } from "../../../route.ts";
import { actionsLevelOperations } from "../actions-level-routes.ts";

/** The signed-in user's own runners, registration tokens, and the runs and jobs of the user's repositories. */
export const userActionsRunnerOperations: AnyOperation[] = actionsLevelOperations({
  path: "/user/actions",
  tag: "user",
  access: { scope: "user", signIn: true },
  params: {},
  ops: {
    listRunners: ["getUserRunners", "Get user-level runners"],
    getToken: ["userGetRunnerRegistrationToken", "Get an user's actions runner registration token"],
    createToken: ["userCreateRunnerRegistrationToken", "Get an user's actions runner registration token"],
    getRunner: ["getUserRunner", "Get an user-level runner"],
    deleteRunner: ["deleteUserRunner", "Delete an user-level runner"],
    listRuns: ["getUserWorkflowRuns", "Get workflow runs"],
    listJobs: ["getUserWorkflowJobs", "Get workflow jobs"],
  },
  scope: ({ doer }) => ({ ownerId: doer.id }),
});
