import type { Env } from "../env.ts";
import type { IssueRow, UserRow } from "../../db/schema/index.ts";
import * as repos from "../../models/repo.ts";
import * as users from "../../models/user.ts";
import { repoPermission } from "../access/permission.ts";
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
 * `known` seeds the cache with contexts the request already resolved (the repository of the path).
 * A public-only token's doer reads nothing of a private repository: the permission says so.
 */
export function issueAccess(env: Env, doer: UserRow | undefined, known: RepoContext[] = []): IssueAccess {
  // Only the repository part of what is known: an IssueContext also carries its issue.
  const cache = new Map<number, RepoContext | undefined>(known.map((rc) => [rc.repo.id, { repo: rc.repo, owner: rc.owner, perm: rc.perm }]));
  const repo = (repoId: number): RepoContext | undefined => {
    if (!cache.has(repoId)) {
      const row = repos.getRepoById(env.db, repoId);
      const owner = row && users.getUserById(env.db, row.ownerId);
      cache.set(repoId, row && owner ? { repo: row, owner, perm: repoPermission(env, doer, row, owner) } : undefined);
    }
    return cache.get(repoId);
  };
  return {
    repo,
    canRead(issue) {
      const rc = repo(issue.repoId);
      return rc !== undefined && rc.perm.canRead(unitOf(issue));
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
