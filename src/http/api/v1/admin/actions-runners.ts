import type { AnyOperation } from "../../../route.ts";
import { actionsLevelOperations } from "../actions-level-routes.ts";

/**
 * The instance's runners and registration tokens, and every run and job (Gitea's admin group:
 * reqToken, reqSiteAdmin). The admin level lists and reaches every runner, its own and the
 * levels' below; the GET form of its registration token lives at `/admin/runners/registration-token`.
 */
export const adminActionsRunnerOperations: AnyOperation[] = actionsLevelOperations({
  path: "/admin/actions",
  tag: "admin",
  access: { scope: "admin", signIn: "admin" },
  params: {},
  ops: {
    listRunners: ["getAdminRunners", "Get all runners"],
    getToken: ["adminGetRunnerRegistrationToken", "Get an global actions runner registration token", "/admin/runners/registration-token"],
    createToken: ["adminCreateRunnerRegistrationToken", "Get an global actions runner registration token"],
    getRunner: ["getAdminRunner", "Get an global runner"],
    deleteRunner: ["deleteAdminRunner", "Delete an global runner"],
    listRuns: ["listAdminWorkflowRuns", "Lists all runs"],
    listJobs: ["listAdminWorkflowJobs", "Lists all jobs"],
  },
  scope: () => ({ site: true }),
});
