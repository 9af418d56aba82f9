import type { RepoContext } from "../repo/lookup.ts";

/**
 * Drafts (and their assets) are seen only by those who may write releases (Gitea's ListReleases
 * IncludeDrafts rule, extended to single releases and assets by Gitea #36659); to everyone else a
 * draft does not exist.
 */
export function canSeeDrafts(rc: RepoContext): boolean {
  return rc.perm.canWrite("releases") || rc.perm.isAdmin();
}

