import type { Env } from "../env.ts";
import type { IssueRow, UserRow } from "../../db/schema/index.ts";
import * as repos from "../../models/repo.ts";
import type { RepoAccessRow } from "../../models/repo.ts";
import * as users from "../../models/user.ts";
import { forManyRepos, repoPermission, type RepoPermission } from "../access/permission.ts";
import type { RepoContext } from "../repo/lookup.ts";
import { issueViews, type IssueView } from "./view.ts";
import { unitOf } from "./lookup.ts";

/**
 * What a doer may see of issues spread over many repositories (dependencies, tracked times,
 * search): each repository is loaded and its permission asked once per request.
 */
export interface IssueAccess {
  /** The repository with its owner and the doer's permission; undefined when it no longer exists. */
  repo(repoId: number): RepoContext | undefined;
  /** Whether the doer reads the issue's unit (issues or pull requests) in its repository. */
  canRead(issue: Pick<IssueRow, "repoId" | "isPull">): boolean;
  /** The Issue JSON inputs of these issues; issues whose repository vanished are left out. */
  views(rows: IssueRow[]): IssueView[];
}

/**
 * `known` seeds the cache with contexts the request already resolved (the repository of the path);
 * `many`, with repositories the caller has loaded already (the candidates of a search).
 * A public-only token's doer reads nothing of a private repository: the permission says so.
 */
export function issueAccess(env: Env, doer: UserRow | undefined, known: RepoContext[] = [], many: RepoAccessRow[] = []): IssueAccess {
  // Only the repository part of what is known: an IssueContext also carries its issue.
  const cache = new Map<number, RepoContext | undefined>(known.map((rc) => [rc.repo.id, { repo: rc.repo, owner: rc.owner, perm: rc.perm }]));
  // Many repositories (a search): their owners in one query, the doer's memberships read once, and
  // a full repository row loaded only for the few whose issues are shown.
  const source = many.length > 1 ? forManyRepos(env, doer) : env;
  const owners = new Map(users.getUsersByIds(env.db, [...new Set(many.map((r) => r.ownerId))]).map((u) => [u.id, u]));
  const scope = new Map(many.map((r) => [r.id, r]));
  const perms = new Map<number, RepoPermission | undefined>();
  const permOf = (repoId: number): RepoPermission | undefined => {
    const slim = scope.get(repoId);
    if (!slim) return repo(repoId)?.perm;
    if (!perms.has(repoId)) {
      const owner = owners.get(slim.ownerId);
      perms.set(repoId, owner && repoPermission(source, doer, slim, owner));
    }
    return perms.get(repoId);
  };
  const repo = (repoId: number): RepoContext | undefined => {
    if (!cache.has(repoId)) {
      const row = repos.getRepoById(env.db, repoId);
      const owner = row && (owners.get(row.ownerId) ?? users.getUserById(env.db, row.ownerId));
      cache.set(repoId, row && owner ? { repo: row, owner, perm: repoPermission(source, doer, row, owner) } : undefined);
    }
    return cache.get(repoId);
  };
  return {
    repo,
    canRead(issue) {
      return permOf(issue.repoId)?.canRead(unitOf(issue)) ?? false;
    },
    views(rows) {
      const present = rows.filter((i) => repo(i.repoId) !== undefined);
      return issueViews(
        env,
        (i) => {
          const { repo: row, owner } = repo(i.repoId)!;
          return { repo: row, owner };
        },
        present,
      );
    },
  };
}
