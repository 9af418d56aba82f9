import type { Env } from "../env.ts";
import { AccessMode, UnitType, UserType, type AccessModeValue, type UserRow } from "../../db/schema/index.ts";
import * as teamModel from "../../models/team.ts";
import { canSeeOwner, type Doer } from "../access/permission.ts";
import { Forbidden, Unauthorized } from "../../lib/errors.ts";

/**
 * Gitea's determineAccessMode for packages: site admins and the owner itself own them; in an
 * organization, a member has the best package-unit access of their teams (the Owners team: owner);
 * anyone who may see the owner may read. A public-only token reaches public owners only.
 */
export function packageAccessMode(env: Env, doer: Doer | undefined, owner: UserRow): AccessModeValue {
  if (doer && (doer.isAdmin || doer.id === owner.id) && !(doer.publicOnly && owner.visibility !== 0)) return AccessMode.Owner;
  let mode: AccessModeValue = AccessMode.None;
  if (owner.type === UserType.Organization && doer && !doer.publicOnly) {
    const teams = teamModel.listUserTeams(env.db, doer.id, { orgId: owner.id, offset: 0, limit: 1000 }).rows;
    const units = teamModel.unitsOfTeams(env.db, teams.map((t) => t.id));
    for (const team of teams) {
      const unit =
        team.authorize >= AccessMode.Owner
          ? AccessMode.Owner
          : ((units.get(team.id) ?? []).find((u) => u.type === UnitType.Packages)?.accessMode ?? AccessMode.None);
      if (unit > mode) mode = unit as AccessModeValue;
    }
  }
  if (mode === AccessMode.None && canSeeOwner(env, owner, doer)) mode = AccessMode.Read;
  return mode;
}

/**
 * Gitea's reqPackageAccess: the access `need`ed to the packages of `owner`, else a 401 for the
 * anonymous (the client then sends credentials) and a 403 for anyone signed in. Returns the mode.
 */
export function requirePackageAccess(env: Env, doer: Doer | undefined, owner: UserRow, need: "read" | "write"): AccessModeValue {
  const mode = packageAccessMode(env, doer, owner);
  if (mode >= (need === "write" ? AccessMode.Write : AccessMode.Read)) return mode;
  if (!doer) throw new Unauthorized("reqPackageAccess");
  throw new Forbidden("reqPackageAccess");
}
