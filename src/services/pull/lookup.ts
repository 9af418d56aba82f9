import type { Env } from "../env.ts";
import type { PullRequestRow, RepoRow, UserRow } from "../../db/schema/index.ts";
import * as pulls from "../../models/pull.ts";
import * as repos from "../../models/repo.ts";
import * as users from "../../models/user.ts";
import { NotFound } from "../../lib/errors.ts";
import { repoPermission, requireCodeReader, type RepoPermission } from "../access/permission.ts";
import { issueFromPath, type IssueContext } from "../issue/lookup.ts";
import { gitDirOf, type RepoContext } from "../repo/lookup.ts";
import { canEnablePulls, type CheckOf } from "../access/repo-access.ts";

/** A pull request of the path's repository (its base), as the doer may see it. */
export interface PullContext extends IssueContext {
  pull: PullRequestRow;
}

/**
 * Gitea's guards of the `/pulls` routes: a repository that takes pull requests (not a mirror, not
 * empty) whose pull requests unit is readable (404 otherwise, as mustAllowPulls), and the code
 * readable (403, as reqRepoReader(Code)).
 */
export function requirePullsReader(rc: RepoContext): void {
  if (!canEnablePulls(rc.repo) || !rc.perm.canRead("pulls")) throw new NotFound();
  requireCodeReader(rc);
}

/** `{index}` of a `/pulls/{index}` route: 404 when it is not a pull request of this repository. */
export function pullFromPath<R extends RepoContext>(env: Env, rc: R, index: string): PullContext & CheckOf<R> {
  requirePullsReader(rc);
  const ic = issueFromPath(env, rc, index);
  const pull = ic.issue.isPull ? pulls.getPullByIssueId(env.db, ic.issue.id) : undefined;
  if (!pull) throw new NotFound();
  return { ...ic, pull } as PullContext & CheckOf<R>;
}

/** A repository on a pull request's side, with the doer's permission on it. */
export interface PullSide {
  repo: RepoRow;
  owner: UserRow;
  perm: RepoPermission;
  gitDir: string;
}

export function sideOf(env: Env, doer: UserRow | undefined, repoId: number): PullSide | undefined {
  const repo = repos.getRepoById(env.db, repoId);
  const owner = repo && users.getUserById(env.db, repo.ownerId);
  if (!repo || !owner) return undefined;
  return { repo, owner, perm: repoPermission(env, doer, repo, owner), gitDir: gitDirOf(env, owner, repo) };
}
