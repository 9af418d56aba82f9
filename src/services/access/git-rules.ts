import type { Env } from "../env.ts";
import * as users from "../../models/user.ts";
import * as repos from "../../models/repo.ts";
import { Forbidden, NotFound } from "../../lib/errors.ts";
import { RepoArchived } from "./refusals.ts";

/** Where a repository named by a former name now lives, for git to be redirected there. */
export interface GitMove {
  owner: string;
  name: string;
  /** The repository itself was renamed or moved (301); else its owner was renamed (307). */
  permanent: boolean;
}

export const ARCHIVED_PUSH = "This repo is archived. You can view files and clone it, but cannot push or open issues/pull-requests.";

/**
 * The rules of Gitea's smart-HTTP access (httpBase) that no access declaration expresses, because
 * git asks them before anyone's permission: a renamed repository or owner redirects whoever asks
 * (returned, for the git door to word as a redirect); a missing repository is NotFound (the git
 * door challenges an anonymous caller, whose credentials may reveal it); a disabled owner's
 * repositories refuse everything; a push to an archived repository is refused before the pusher
 * is asked for. The permission itself is the repository declaration's, checked after this by the
 * one resolver (http/access.ts).
 */
export function gitRepoRules(env: Env, ownerName: string, repoName: string, write: boolean): GitMove | undefined {
  const owner = users.getUserByName(env.db, ownerName);
  if (!owner) {
    const renamedTo = users.getUserRedirect(env.db, ownerName);
    const newOwner = renamedTo === undefined ? undefined : users.getUserById(env.db, renamedTo);
    if (newOwner && repos.getRepoByOwner(env.db, newOwner.id, repoName)) return { owner: newOwner.name, name: repoName, permanent: false };
    throw new NotFound("Repository not found");
  }
  if (!owner.isActive) throw new Forbidden("Repository cannot be accessed. You cannot push or open issues/pull-requests.");
  const repo = repos.getRepoByOwner(env.db, owner.id, repoName);
  if (!repo) {
    const moved = repos.getRedirect(env.db, owner.id, repoName);
    const target = moved !== undefined ? repos.getRepoById(env.db, moved) : undefined;
    const targetOwner = target && users.getUserById(env.db, target.ownerId);
    if (target && targetOwner) return { owner: targetOwner.name, name: target.name, permanent: true };
    throw new NotFound("Repository not found");
  }
  if (write && repo.isArchived) throw new RepoArchived(ARCHIVED_PUSH);
  return undefined;
}
