import * as v from "valibot";
import type { AnyOperation } from "../../../route.ts";
import { actionsLevelOperations } from "../actions-level-routes.ts";
import { repoOwner } from "./secrets.ts";

/**
 * A repository's runners, registration tokens, and its lists of runs and jobs: Gitea 1.25
 * registers them with its secrets and variables (addActionsRoutes with reqToken and reqOwner), so a
 * collaborator, even one with admin access, is refused.
 */
export const repoActionsRunnerOperations: AnyOperation[] = actionsLevelOperations({
  path: "/repos/:owner/:repo/actions",
  tag: "repository",
  access: repoOwner,
  params: { owner: v.string(), repo: v.string() },
  ops: {
    listRunners: ["getRepoRunners", "Get repo-level runners"],
    getToken: ["repoGetRunnerRegistrationToken", "Get a repository's actions runner registration token"],
    createToken: ["repoCreateRunnerRegistrationToken", "Get a repository's actions runner registration token"],
    getRunner: ["getRepoRunner", "Get an repo-level runner"],
    deleteRunner: ["deleteRepoRunner", "Delete an repo-level runner"],
    listRuns: ["getWorkflowRuns", "Lists all runs for a repository run"],
    listJobs: ["listWorkflowJobs", "Lists all jobs for a repository"],
  },
  scope: ({ repo }) => ({ repoId: repo.repo.id }),
});
