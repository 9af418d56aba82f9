import * as v from "valibot";
import type { AnyOperation, Granted, OpContext } from "../../../route.ts";
import { hookCrudOperations, hookDeliveryOperations, hookListOperation, type HookLevel } from "../hook-routes.ts";

/** An organization's hooks: its owners only (Gitea's reqToken, orgAssignment, reqOrgOwnership; an org the caller cannot see is 404). */
const access = { scope: "organization", signIn: true, org: "owner" } as const;

const level: HookLevel = {
  name: "org",
  path: "/orgs/:org/hooks",
  tag: "organization",
  summaryOwner: "an organization",
  access,
  params: { org: v.string() },
  // The builders hand the runner's context through, resolved by the declaration above.
  owner: ({ org }: OpContext<Record<string, string>, unknown, unknown> & Granted<typeof access>) => ({ ownerId: org.id }),
};

export const orgHookOperations: AnyOperation[] = [hookListOperation(level), ...hookCrudOperations(level), ...hookDeliveryOperations(level)];
