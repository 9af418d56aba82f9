import * as v from "valibot";
import type { AnyOperation, Granted, OpContext } from "../../../route.ts";
import { variableOperations } from "../variable-routes.ts";

/**
 * An organization's Actions variables: its owners and site admins only (Gitea's reqToken,
 * orgAssignment and reqOrgOwnership, as for its secrets); an organization the caller cannot see is 404.
 */
const access = { scope: "organization", signIn: true, org: "owner" } as const;

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
  access,
  params: { org: v.string() },
  // The builder hands the runner's context through, resolved by the declaration above.
  level: ({ org }: OpContext<Record<string, string>, unknown, unknown> & Granted<typeof access>) => ({ ownerId: org.id }),
});
