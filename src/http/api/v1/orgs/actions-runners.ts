import * as v from "valibot";
import type { AnyOperation } from "../../../route.ts";
import { actionsLevelOperations } from "../actions-level-routes.ts";

/** An organization's runners, registration tokens, runs and jobs: its owners only (Gitea's reqToken, orgAssignment, reqOrgOwnership). */
export const orgActionsRunnerOperations: AnyOperation[] = actionsLevelOperations({
  path: "/orgs/:org/actions",
  tag: "organization",
  access: { scope: "organization", signIn: true, org: "owner" },
  params: { org: v.string() },
  ops: {
    listRunners: ["getOrgRunners", "Get org-level runners"],
    getToken: ["orgGetRunnerRegistrationToken", "Get an organization's actions runner registration token"],
    createToken: ["orgCreateRunnerRegistrationToken", "Get an organization's actions runner registration token"],
    getRunner: ["getOrgRunner", "Get an org-level runner"],
    deleteRunner: ["deleteOrgRunner", "Delete an org-level runner"],
    listRuns: ["getOrgWorkflowRuns", "Get org-level workflow runs"],
    listJobs: ["getOrgWorkflowJobs", "Get org-level workflow jobs"],
  },
  scope: ({ org }) => ({ ownerId: org.id }),
});
