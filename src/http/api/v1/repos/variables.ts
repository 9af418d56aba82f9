import * as v from "valibot";
import type { AnyOperation } from "../../../route.ts";
import { repoOwner, repoTarget } from "./secrets.ts";
import { variableOperations } from "../variable-routes.ts";

/**
 * A repository's Actions variables, under Gitea 1.25's reqToken and reqOwner as its secrets: the
 * owner, an owner of the owning organization (or a member of one of its admin teams), or a site
 * admin; a collaborator with admin access is refused.
 */
export const repoVariableOperations: AnyOperation[] = variableOperations({
  name: "Repo",
  path: "/repos/:owner/:repo/actions/variables",
  tag: "repository",
  summaries: {
    list: "Get repo-level variables list",
    get: "Get a repo-level variable",
    create: "Create a repo-level variable",
    update: "Update a repo-level variable",
    delete: "Delete a repo-level variable",
  },
  access: repoOwner,
  params: { owner: v.string(), repo: v.string() },
  level: repoTarget,
});
