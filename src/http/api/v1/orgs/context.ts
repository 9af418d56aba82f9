import type { Principal } from "../../../../auth/principal.ts";
import type { UserRow } from "../../../../db/schema/index.ts";
import type { Env } from "../../../../services/env.ts";
import { Visibility } from "../../../../services/user/visibility.ts";
import { canSeeOrg, requireOrg, requireOrgMember, requireOrgOwner } from "../../../../services/org/lookup.ts";
import { Forbidden, NotFound } from "../../../../lib/errors.ts";

/** Gitea's checkTokenPublicOnly for organization routes. */
function checkPublicOnly(principal: Principal | undefined, org: UserRow): void {
  if (principal?.scope?.publicOnly && org.visibility !== Visibility.Public) {
    throw new Forbidden("token scope is limited to public orgs");
  }
}

/** The `{org}` of a route, resolved as Gitea's orgAssignment does, with the guard the route needs. */
export const orgFromPath = {
  checkPublicOnly,
  /** Any caller: the organization exists (visibility is the handler's business, as in Gitea). */
  get(env: Env, principal: Principal | undefined, name: string): UserRow {
    const org = requireOrg(env, name);
    checkPublicOnly(principal, org);
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
