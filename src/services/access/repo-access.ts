import { Forbidden, NotFound, Unauthorized } from "../../lib/errors.ts";
import { ReadRefused, RepoArchived, WriteRefused } from "./refusals.ts";
import type { Doer, RepoPermission, RepoUnit } from "./permission.ts";
import type { RepoContext } from "../repo/lookup.ts";

/**
 * What an operation needs of the repository it works on, declared once on the operation (or asked
 * by another front door) and checked by `checkRepoAccess` alone, in Gitea's order of refusals:
 * `read`, then `notArchived: "editor"`, then `doer`, then `write`/`admin`/`owner`, then
 * `notArchived: true`. Each field is one of Gitea's repository middlewares.
 */
export interface RepoAccess {
  /**
   * A unit that must be readable (Gitea's reqRepoReader: 403, a repository admin passes), or
   * `"tracker"`: the issues or the pull requests readable (mustEnableIssuesOrPulls: 404), or
   * `"pulls"`: pull requests readable (404) and the code too (403).
   */
  read?: RepoUnit | "tracker";
  /** A signed-in doer, asked after the repository was found (reqToken inside the repository group: 401). */
  doer?: true;
  /** A unit the doer must be able to write (reqRepoWriter: 403, a repository admin passes); implies `doer`. */
  write?: RepoUnit;
  /** A repository administrator (reqAdmin: 403); implies `doer`. */
  admin?: true;
  /** The repository's owner, an owner of its organization or a site admin (reqOwner: 403); implies `doer`. */
  owner?: true;
  /**
   * Refuse an archived repository (423): `true` after the other checks (mustNotBeArchived),
   * `"editor"` before sign-in, in the file editor's words (mustEnableEditor: "repo is not allowed to edit").
   */
  notArchived?: true | "editor";
}

/** Whether a declaration can only be met by a signed-in doer (so the handler may count on one). */
export function repoAccessNeedsDoer(need: RepoAccess): boolean {
  return Boolean(need.doer || need.write || need.admin || need.owner);
}

function requireRead(perm: RepoPermission, unit: RepoUnit | "tracker"): void {
  if (unit === "tracker") {
    if (!perm.canRead("issues") && !perm.canRead("pulls")) throw new NotFound();
    return;
  }
  if (unit === "pulls") {
    if (!perm.canRead("pulls")) throw new NotFound();
    unit = "code";
  }
  if (!perm.canRead(unit) && !perm.isAdmin()) throw new ReadRefused();
}

const archived = (rc: RepoContext) => new RepoArchived(`${rc.owner.name}/${rc.repo.name} is archived`);

/**
 * Applies a declaration to a repository the doer has found (the lookup already answered 404 for
 * one it may not see). Returns the doer, defined whenever the declaration needs one.
 */
export function checkRepoAccess(rc: RepoContext, doer: Doer | undefined, need: RepoAccess): Doer | undefined {
  const { perm } = rc;
  if (need.read) requireRead(perm, need.read);
  if (need.notArchived === "editor" && rc.repo.isArchived) throw new RepoArchived("repo is not allowed to edit");
  if (repoAccessNeedsDoer(need) && !doer) throw new Unauthorized("token is required");
  if (need.write && !perm.canWrite(need.write) && !perm.isAdmin()) throw new WriteRefused();
  if (need.admin && !perm.isAdmin()) throw new Forbidden("user should be an owner or a collaborator with admin write of a repository");
  if (need.owner && !perm.isOwner()) throw new Forbidden("user should be the owner of the repo");
  if (need.notArchived === true && rc.repo.isArchived) throw archived(rc);
  return doer;
}
