import type { Principal } from "../../../../auth/principal.ts";
import type { UserRow } from "../../../../db/schema/index.ts";
import type { Env } from "../../../../services/env.ts";
import { requireOwnerInReach } from "../../../../services/access/permission.ts";
import { canSeeOrg, requireOrg } from "../../../../services/org/lookup.ts";
import { NotFound } from "../../../../lib/errors.ts";

/**
 * The `{org}` of a route, resolved as Gitea's orgAssignment does; the runner asks it for an
 * operation's declared `org` (http/access.ts), which adds the member and owner levels.
 */
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
  /** The organization if the caller may see it, else 404, so private ones do not leak. */
  visible(env: Env, principal: Principal | undefined, name: string): UserRow {
    const org = orgFromPath.get(env, principal, name);
    if (!canSeeOrg(env, org, principal?.user)) throw new NotFound();
    return org;
  },
};
