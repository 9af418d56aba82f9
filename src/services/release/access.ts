import type { UserRow } from "../../db/schema/index.ts";
import { Forbidden, HearthError, Unauthorized } from "../../lib/errors.ts";
import type { RepoContext } from "../repo/lookup.ts";

/** Gitea's reqRepoReader(unit.TypeReleases), which guards every release route. */
export function requireReleaseReader(rc: RepoContext): void {
  if (!rc.perm.canRead("releases") && !rc.perm.isAdmin()) {
    throw new Forbidden("user should have specific read permission or be a repo admin or a site admin");
  }
}

/**
 * Drafts (and their assets) are seen only by those who may write releases (Gitea's ListReleases
 * IncludeDrafts rule, extended to single releases and assets by Gitea #36659); to everyone else a
 * draft does not exist.
 */
export function canSeeDrafts(rc: RepoContext): boolean {
  return rc.perm.canWrite("releases") || rc.perm.isAdmin();
}

/**
 * For changes: a token (401), Gitea's reqRepoWriter(unit.TypeReleases) (403), and a repository
 * that is not archived (423; Gitea fails later, with a 500, when it tries to create the tag).
 */
export function requireReleaseWriter(rc: RepoContext, doer: UserRow | undefined): UserRow {
  if (!doer) throw new Unauthorized("token is required");
  if (!rc.perm.canWrite("releases") && !rc.perm.isAdmin()) throw new Forbidden("user should have a permission to write to a repo");
  if (rc.repo.isArchived) throw new HearthError(423, `${rc.owner.name}/${rc.repo.name} is archived`);
  return doer;
}
