import type { Env } from "../env.ts";
import { AccessMode, Visibility, type AccessModeValue, type RepoRow, type UserRow } from "../../db/schema/index.ts";
import { getCollaboration } from "../../models/collaboration.ts";
import { Forbidden } from "../../lib/errors.ts";

/** The units a repository's permission is split into, as Gitea's unit types. */
export type RepoUnit = "code" | "issues" | "pulls" | "releases" | "wiki" | "packages" | "actions" | "projects";

const UNIT_FLAG: Record<RepoUnit, keyof RepoRow> = {
  code: "hasCode",
  issues: "hasIssues",
  pulls: "hasPullRequests",
  releases: "hasReleases",
  wiki: "hasWiki",
  packages: "hasPackages",
  actions: "hasActions",
  projects: "hasProjects",
};

/** A doer's access to one repository: the mode, and per unit whether the unit is on at all. */
export class RepoPermission {
  constructor(
    readonly mode: AccessModeValue,
    private readonly repo: RepoRow,
  ) {}

  unitEnabled(unit: RepoUnit): boolean {
    return Boolean(this.repo[UNIT_FLAG[unit]]);
  }

  /** Whether the doer can see the repository at all (its metadata, `GET /repos/{o}/{r}`). */
  hasAccess(): boolean {
    return this.mode >= AccessMode.Read;
  }

  canRead(unit: RepoUnit = "code"): boolean {
    return this.mode >= AccessMode.Read && this.unitEnabled(unit);
  }

  canWrite(unit: RepoUnit = "code"): boolean {
    return this.mode >= AccessMode.Write && this.unitEnabled(unit);
  }

  isAdmin(): boolean {
    return this.mode >= AccessMode.Admin;
  }

  isOwner(): boolean {
    return this.mode >= AccessMode.Owner;
  }
}

/**
 * The one answer to "what may this doer do with this repository", for the API, git transport and
 * (later) the web alike: site admins and the owner have everything; collaborators have their mode;
 * everyone else reads a public repository whose owner they may see, unless they are a restricted
 * account, which sees only what it was given.
 */
export function repoPermission(env: Env, doer: UserRow | undefined, repo: RepoRow, owner: UserRow): RepoPermission {
  const mode = ((): AccessModeValue => {
    if (doer?.isAdmin) return AccessMode.Owner;
    if (doer && doer.id === repo.ownerId) return AccessMode.Owner;
    const collaboration = doer ? getCollaboration(env.db, repo.id, doer.id) : undefined;
    if (collaboration) return collaboration.mode as AccessModeValue;
    if (repo.isPrivate || doer?.isRestricted) return AccessMode.None;
    if (owner.visibility === Visibility.Public) return AccessMode.Read;
    if (owner.visibility === Visibility.Limited && doer) return AccessMode.Read;
    return AccessMode.None;
  })();
  return new RepoPermission(mode, repo);
}

/** Gitea's reqRepoReader(code): the code unit readable, or a repository administrator (who passes even with it off). */
export function requireCodeReader(rc: { perm: RepoPermission }): void {
  if (!rc.perm.canRead("code") && !rc.perm.isAdmin()) {
    throw new Forbidden("user should have specific read permission or be a repo admin or a site admin");
  }
}
