import type { Principal } from "../../../../auth/principal.ts";
import type { UserRow } from "../../../../db/schema/index.ts";
import type { Env } from "../../../../services/env.ts";
import { requireOwnerInReach } from "../../../../services/access/permission.ts";
import { canSeeOrg, requireOrg, requireOrgMember, requireOrgOwner } from "../../../../services/org/lookup.ts";
import { NotFound } from "../../../../lib/errors.ts";

/** The `{org}` of a route, resolved as Gitea's orgAssignment does, with the guard the route needs. */
export const orgFromPath = {
  /**
   * Any caller: the organization exists (visibility is the handler's business, as in Gitea) and is
   * within a public-only token's reach (Gitea's checkTokenPublicOnly: 403 "... public orgs").
   */
  get(env: Env, principal: Principal | undefined, name: string): UserRow {
    const org = requireOrg(env, name);
    requireOwnerInReach(env, org, principal?.user);
    return org;
  },
  /** reqOrgOwnership; an organization the caller may not even see is a 404, so private ones do not leak. */
  owned(env: Env, principal: Principal | undefined, name: string): UserRow {
    const org = orgFromPath.visible(env, principal, name);
    requireOrgOwner(env, org, principal!.user);
    return org;
  },
  /** reqOrgMembership, with the same 404 for an organization the caller may not see. */
  membered(env: Env, principal: Principal | undefined, name: string): UserRow {
    const org = orgFromPath.visible(env, principal, name);
    requireOrgMember(env, org, principal!.user);
    return org;
  },
  /** The organization if the caller may see it, else 404. */
  visible(env: Env, principal: Principal | undefined, name: string): UserRow {
    const org = orgFromPath.get(env, principal, name);
    if (!canSeeOrg(env, org, principal?.user)) throw new NotFound();
    return org;
  },
};
