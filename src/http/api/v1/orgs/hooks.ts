import * as v from "valibot";
import type { AnyOperation } from "../../../route.ts";
import { orgFromPath } from "./context.ts";
import { hookCrudOperations, hookDeliveryOperations, hookListOperation, type HookLevel } from "../hook-routes.ts";

/** An organization's hooks: its owners only (Gitea's reqOrgOwnership; an org the caller cannot see is 404). */
const level: HookLevel = {
  name: "org",
  path: "/orgs/:org/hooks",
  tag: "organization",
  summaryOwner: "an organization",
  access: { scope: "organization", signIn: true },
  params: { org: v.string() },
  owner: ({ env, principal, params }) => ({ ownerId: orgFromPath.owned(env, principal, params.org ?? "").id }),
};

export const orgHookOperations: AnyOperation[] = [hookListOperation(level), ...hookCrudOperations(level), ...hookDeliveryOperations(level)];
