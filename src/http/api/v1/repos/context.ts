import type { Principal } from "../../../../auth/principal.ts";
import type { Env } from "../../../../services/env.ts";
import { resolveRepoById, repoTopics, type RepoContext } from "../../../../services/repo/lookup.ts";
import { NotFound } from "../../../../lib/errors.ts";
import { repoByPath } from "../../../access.ts";
import { apiRedirect } from "../../../doors/api.ts";
import type { Doer } from "../../../../services/access/permission.ts";
import { toAPIRepo } from "../../../../convert/repo.ts";
import { pendingTransferOf } from "../../../../services/repo/transfer.ts";
import { pullMirrorOf, pullMirrorsOf } from "../../../../services/mirror/pull-mirror-admin.ts";
import { topicsOfRepos } from "../../../../services/repo/topics.ts";
import type { APIRepository } from "../../../../shapes/repo.ts";

/**
 * The repository named by `{owner}/{repo}` in the path, as the doer may see it, for the few
 * handlers whose route names a repository it does not declare (stars of the doer): the shared
 * lookup (http/access.ts) with the API's redirect.
 */
export function repoFromPath(
  env: Env,
  principal: Principal | undefined,
  url: URL,
  params: { owner: string; repo: string },
): RepoContext {
  return repoByPath(env, principal?.user, params, (moved) => apiRedirect(moved, url));
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
    mirror: rc.repo.isMirror ? pullMirrorOf(env, rc.repo.id) : undefined,
  });
}

/**
 * The rest of a `/*` path (a branch, tag, ref or file name that may contain `/`), unescaped as
 * Gitea's PathParam does; the router leaves the `*` rest escaped. A malformed escape names nothing (404).
 */
export function wildcard(params: Record<string, string>): string {
  try {
    return decodeURIComponent(params["*"] ?? "");
  } catch {
    throw new NotFound("The target couldn't be found.");
  }
}

/** Repository JSON of a page of repositories: their topics and pull mirror rows in one query each. */
export function reposJson(env: Env, rcs: RepoContext[]): APIRepository[] {
  const topics = topicsOfRepos(env, rcs.map((rc) => rc.repo.id));
  const mirrors = pullMirrorsOf(env, rcs.filter((rc) => rc.repo.isMirror).map((rc) => rc.repo.id));
  return rcs.map((rc) => toAPIRepo(env.settings, { ...rc, topics: topics.get(rc.repo.id) ?? [], mirror: mirrors.get(rc.repo.id) }));
}
