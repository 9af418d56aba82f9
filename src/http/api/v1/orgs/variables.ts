import * as v from "valibot";
import type { AnyOperation } from "../../../route.ts";
import { orgFromPath } from "./context.ts";
import { variableOperations } from "../variable-routes.ts";

/**
 * An organization's Actions variables: its owners and site admins only (Gitea's reqToken and
 * reqOrgOwnership, as for its secrets); an organization the caller cannot see is 404.
 */
export const orgVariableOperations: AnyOperation[] = variableOperations({
  name: "Org",
  path: "/orgs/:org/actions/variables",
  tag: "organization",
  summaries: {
    list: "Get an org-level variables list",
    get: "Get an org-level variable",
    create: "Create an org-level variable",
    update: "Update an org-level variable",
    delete: "Delete an org-level variable",
  },
  access: { scope: "organization", signIn: true },
  params: { org: v.string() },
  level: ({ env, principal, params }) => ({ ownerId: orgFromPath.owned(env, principal, params.org ?? "").id }),
});
