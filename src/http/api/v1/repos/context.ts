import type { Principal } from "../../../../auth/principal.ts";
import type { Env } from "../../../../services/env.ts";
import { RepoMoved, resolveRepo, resolveRepoById, repoTopics, type RepoContext } from "../../../../services/repo/lookup.ts";
import { NotFound, Redirect } from "../../../../lib/errors.ts";
import type { Doer } from "../../../../services/access/permission.ts";
import { toAPIRepo } from "../../../../convert/repo.ts";
import { pendingTransferOf } from "../../../../services/repo/transfer.ts";
import type { APIRepository } from "../../../../shapes/repo.ts";

/**
 * The repository named by `{owner}/{repo}` in the path, as the doer may see it: 404 when it
 * does not exist or is not visible, 301 to its new name when it was renamed or transferred (307
 * when its owner was renamed, as Gitea redirects to the account), 403 for a public-only token on
 * a repository out of its reach (the lookup decides all of these).
 */
export function repoFromPath(
  env: Env,
  principal: Principal | undefined,
  url: URL,
  params: { owner: string; repo: string },
): RepoContext {
  let rc: RepoContext;
  try {
    rc = resolveRepo(env, principal?.user, params.owner, params.repo);
  } catch (err) {
    if (err instanceof RepoMoved) {
      const target = resolveRepoById(env, principal?.user, err.repoId);
      const prefix = `/api/v1/repos/${encodeURIComponent(params.owner)}/${encodeURIComponent(params.repo)}`;
      const rest = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : "";
      const location = `/api/v1/repos/${encodeURIComponent(target.owner.name)}/${encodeURIComponent(target.repo.name)}${rest}${url.search}`;
      throw new Redirect(location, err.ownerRenamed ? 307 : 301);
    }
    throw err;
  }
  return rc;
}

/** Repository JSON with topics and, for a fork, its parent (when the doer may see it). */
export function repoJson(env: Env, rc: RepoContext, doer: Doer | undefined) {
  let parent: APIRepository | undefined;
  if (rc.repo.isFork && rc.repo.forkId) {
    try {
      const p = resolveRepoById(env, doer, rc.repo.forkId);
      // Gitea renders the parent with the child's permission (a known quirk kept for compatibility).
      parent = toAPIRepo(env.settings, { ...p, perm: rc.perm, topics: repoTopics(env, p.repo.id) });
    } catch {
      parent = undefined;
    }
  }
  return toAPIRepo(env.settings, {
    ...rc,
    topics: repoTopics(env, rc.repo.id),
    parent,
    transfer: pendingTransferOf(env, rc.repo.id),
  });
}

/**
 * The rest of a `/*` path (a branch, tag, ref or file name that may contain `/`), unescaped as
 * Gitea's PathParam does; Elysia leaves wildcards escaped. A malformed escape names nothing (404).
 */
export function wildcard(params: Record<string, string>): string {
  try {
    return decodeURIComponent(params["*"] ?? "");
  } catch {
    throw new NotFound("The target couldn't be found.");
  }
}
