import type { Env } from "../env.ts";
import type { UserRow } from "../../db/schema/index.ts";
import * as users from "../../models/user.ts";
import * as repos from "../../models/repo.ts";
import { repoPermission } from "../access/permission.ts";
import { gitDirOf, type RepoContext } from "./lookup.ts";

export type GitAccessResult =
  | { kind: "ok"; rc: RepoContext; gitDir: string }
  /** `permanent`: the repository was renamed or moved (301); else its owner was renamed (307). */
  | { kind: "redirect"; owner: string; name: string; permanent: boolean }
  /** Credentials would help: answer 401 with a Basic challenge. */
  | { kind: "challenge" }
  | { kind: "denied"; status: 403 | 404; message: string };

/**
 * Gitea's smart-HTTP access decision, in its order: a renamed repository or owner redirects before
 * anything else; anyone, signed in or not, may read public repositories of public owners; a caller
 * without access gets 404 ("Repository not found"), so private names never leak; pushing needs
 * write access and a repository that is not archived. A public-only token reaches public
 * repositories of public owners only (the permission function decides; 403 otherwise).
 */
export function decideGitAccess(
  env: Env,
  doer: UserRow | undefined,
  ownerName: string,
  repoName: string,
  write: boolean,
): GitAccessResult {
  const notFound = { kind: "denied", status: 404, message: "Repository not found" } as const;
  const owner = users.getUserByName(env.db, ownerName);
  if (!owner) {
    const renamedTo = users.getUserRedirect(env.db, ownerName);
    const newOwner = renamedTo === undefined ? undefined : users.getUserById(env.db, renamedTo);
    if (newOwner && repos.getRepoByOwner(env.db, newOwner.id, repoName)) return { kind: "redirect", owner: newOwner.name, name: repoName, permanent: false };
    return doer ? notFound : { kind: "challenge" };
  }
  if (!owner.isActive) {
    return { kind: "denied", status: 403, message: "Repository cannot be accessed. You cannot push or open issues/pull-requests." };
  }
  const repo = repos.getRepoByOwner(env.db, owner.id, repoName);
  if (!repo) {
    const moved = repos.getRedirect(env.db, owner.id, repoName);
    const target = moved !== undefined ? repos.getRepoById(env.db, moved) : undefined;
    const targetOwner = target && users.getUserById(env.db, target.ownerId);
    if (target && targetOwner) return { kind: "redirect", owner: targetOwner.name, name: target.name, permanent: true };
    return doer ? notFound : { kind: "challenge" };
  }
  if (write && repo.isArchived) {
    return {
      kind: "denied",
      status: 403,
      message: "This repo is archived. You can view files and clone it, but cannot push or open issues/pull-requests.",
    };
  }
  let perm = repoPermission(env, doer, repo, owner);
  if (doer && !write && !perm.canRead("code") && !env.settings.service.requireSigninView) {
    // Gitea's httpBase asks nothing of a pull that anonymous callers may make (a public repository of a
    // public owner): whoever could clone it signed out clones it signed in too, a restricted account included.
    const anonymous = repoPermission(env, undefined, repo, owner);
    if (anonymous.canRead("code")) perm = anonymous;
  }
  const allowed = write ? perm.canWrite("code") : perm.canRead("code");
  if (!allowed) {
    if (!doer) return { kind: "challenge" };
    // A public-only token used as the password: Gitea's refusal, for a repository the account could use.
    if (perm.refusedByToken) return { kind: "denied", status: 403, message: "token scope is limited to public repos" };
    if (write && perm.canRead("code")) {
      return { kind: "denied", status: 403, message: "User permission denied for writing." };
    }
    return notFound;
  }
  return { kind: "ok", rc: { repo, owner, perm }, gitDir: gitDirOf(env, owner, repo) };
}
