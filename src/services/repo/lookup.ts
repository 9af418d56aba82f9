import type { Env } from "../env.ts";
import type { RepoRow, UserRow } from "../../db/schema/index.ts";
import * as repos from "../../models/repo.ts";
import * as users from "../../models/user.ts";
import { NotFound } from "../../lib/errors.ts";
import { repoPath as repoDiskPath } from "../../git/repo-init.ts";
import { repoPermission, type RepoPermission } from "../access/permission.ts";

/** A repository as a request sees it: the row, its owner, and the doer's permission on it. */
export interface RepoContext {
  repo: RepoRow;
  owner: UserRow;
  perm: RepoPermission;
}

/**
 * The path named a repository by a former name: `ownerRenamed` when its owner was renamed (Gitea
 * then redirects to the account, 307), otherwise the repository itself was renamed or transferred
 * (Gitea's RedirectToRepo, 301).
 */
export class RepoMoved extends Error {
  constructor(
    readonly repoId: number,
    readonly ownerRenamed = false,
  ) {
    super("repository moved");
  }
}

/**
 * Finds `owner/name` for `doer`. A repository the doer may not see is reported exactly like one
 * that does not exist (404), so private names do not leak; one that only the doer's public-only
 * token keeps out of reach answers Gitea's 403. A renamed or transferred repository
 * throws RepoMoved with its id, for the caller to redirect.
 */
export function resolveRepo(env: Env, doer: UserRow | undefined, ownerName: string, repoName: string): RepoContext {
  const owner = users.getUserByName(env.db, ownerName);
  if (!owner) {
    // The owner was renamed: the repository now lives under the new name.
    const renamedTo = users.getUserRedirect(env.db, ownerName);
    const moved = renamedTo === undefined ? undefined : repos.getRepoByOwner(env.db, renamedTo, repoName);
    const newOwner = moved && users.getUserById(env.db, moved.ownerId);
    if (moved && newOwner && repoPermission(env, doer, moved, newOwner).hasAccess()) throw new RepoMoved(moved.id, true);
    throw new NotFound();
  }
  const repo = repos.getRepoByOwner(env.db, owner.id, repoName);
  if (!repo) {
    const movedTo = repos.getRedirect(env.db, owner.id, repoName);
    if (movedTo !== undefined) {
      const target = repos.getRepoById(env.db, movedTo);
      const targetOwner = target && users.getUserById(env.db, target.ownerId);
      if (target && targetOwner && repoPermission(env, doer, target, targetOwner).hasAccess()) throw new RepoMoved(movedTo);
    }
    throw new NotFound();
  }
  const perm = repoPermission(env, doer, repo, owner);
  if (!perm.hasAccess()) throw perm.refusal();
  return { repo, owner, perm };
}

export function resolveRepoById(env: Env, doer: UserRow | undefined, id: number): RepoContext {
  const repo = repos.getRepoById(env.db, id);
  const owner = repo && users.getUserById(env.db, repo.ownerId);
  if (!repo || !owner) throw new NotFound();
  const perm = repoPermission(env, doer, repo, owner);
  if (!perm.hasAccess()) throw perm.refusal();
  return { repo, owner, perm };
}

export function repoTopics(env: Env, repoId: number): string[] {
  return repos.listTopics(env.db, repoId);
}

/** The path of a repository's bare git directory. */
export function gitDirOf(env: Env, owner: Pick<UserRow, "name">, repo: Pick<RepoRow, "name">): string {
  return repoDiskPath(env.settings.repository.root, owner.name, repo.name);
}
