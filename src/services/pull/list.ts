import type { Env } from "../env.ts";
import { UserType, type IssueRow, type PullRequestRow } from "../../db/schema/index.ts";
import * as pulls from "../../models/pull.ts";
import * as users from "../../models/user.ts";
import { listPinned } from "../../models/issue-pin.ts";
import { BadRequest, NotFound } from "../../lib/errors.ts";
import * as repos from "../../models/repo.ts";
import * as issueModel from "../../models/issue.ts";
import type { RepoContext } from "../repo/lookup.ts";
import { requirePullsReader } from "./lookup.ts";

export interface PullListQuery {
  state?: string;
  sort?: string;
  milestone?: number;
  labels?: number[];
  poster?: string;
  baseBranch?: string;
  offset: number;
  limit: number;
}

const SORTS = new Set(["oldest", "recentupdate", "leastupdate", "mostcomment", "leastcomment", "priority"]);

/**
 * Gitea's ListPullRequests: the repository's requests (as base), open by default (`state` open,
 * closed or all), filtered by milestone id, any of the label ids, poster (400 when unknown) and
 * base branch, sorted as Gitea's applySorts (newest first by default).
 */
export function listPullRequests(env: Env, rc: RepoContext, q: PullListQuery): { rows: { pull: PullRequestRow; issue: IssueRow }[]; total: number } {
  requirePullsReader(rc);
  let posterId: number | undefined;
  if (q.poster) {
    const poster = users.getUserByName(env.db, q.poster);
    if (!poster || poster.type !== UserType.Individual) throw new BadRequest(`user does not exist [uid: 0, name: ${q.poster}]`);
    posterId = poster.id;
  }
  const state = q.state || "open";
  return pulls.listPulls(env.db, {
    baseRepoId: rc.repo.id,
    isClosed: state === "closed" ? true : state === "open" ? false : undefined,
    labelIds: q.labels?.filter((id) => id > 0),
    milestoneId: q.milestone && q.milestone > 0 ? q.milestone : undefined,
    posterId,
    baseBranch: q.baseBranch || undefined,
    sort: q.sort && SORTS.has(q.sort) ? (q.sort as pulls.PullSort) : "newest",
    offset: q.offset,
    limit: q.limit,
  });
}

/** Gitea's ListPinnedPullRequests: the pinned pull requests in pin order. */
export function pinnedPullRequests(env: Env, rc: RepoContext): { pull: PullRequestRow; issue: IssueRow }[] {
  requirePullsReader(rc);
  const issues = listPinned(env.db, rc.repo.id, true);
  const byIssue = pulls.pullsByIssueIds(env.db, issues.map((i) => i.id));
  return issues.flatMap((issue) => {
    const pull = byIssue.get(issue.id);
    return pull ? [{ pull, issue }] : [];
  });
}

/**
 * Gitea's GetPullRequestByBaseHead: `{head}` is a branch of this repository, or `owner:branch` /
 * `owner/repo:branch` of another; 404 when no request (in any state) matches. Of several
 * (closed ones and a newer one), the newest.
 */
export function pullByBaseHead(env: Env, rc: RepoContext, base: string, head: string): { pull: PullRequestRow; issue: IssueRow } {
  requirePullsReader(rc);
  let headRepoId = rc.repo.id;
  let headBranch = head;
  const colon = head.indexOf(":");
  if (colon >= 0) {
    headBranch = head.slice(colon + 1);
    const where = head.slice(0, colon);
    const [ownerName, repoName] = where.includes("/") ? (where.split("/", 2) as [string, string]) : [where, rc.repo.name];
    const owner = users.getUserByName(env.db, ownerName);
    const repo = owner && repos.getRepoByOwner(env.db, owner.id, repoName);
    if (!repo) throw new NotFound();
    headRepoId = repo.id;
  }
  const found = pulls.latestPullByBaseHead(env.db, rc.repo.id, base, headRepoId, headBranch);
  if (!found) throw new NotFound();
  return found;
}

/** Gitea's GetCommitPullRequest: the request of this repository merged as commit `sha` (the full id). */
export function pullMergedAs(env: Env, rc: RepoContext, sha: string): { pull: PullRequestRow; issue: IssueRow } {
  requirePullsReader(rc);
  const pull = /^[0-9a-f]{40}$|^[0-9a-f]{64}$/.test(sha) ? pulls.getPullByMergedCommit(env.db, rc.repo.id, sha) : undefined;
  const issue = pull && issueModel.getIssueById(env.db, pull.issueId);
  if (!pull || !issue) throw new NotFound();
  return { pull, issue };
}
