import type { Env } from "../env.ts";
import type { IssueRow, PullRequestRow, RepoRow, TeamRow, TeamUnitRow, UserRow } from "../../db/schema/index.ts";
import { getTeamById, unitsOfTeams } from "../../models/team.ts";
import * as branchModel from "../../models/branch.ts";
import * as users from "../../models/user.ts";
import { reviewCommentCounts, reviewRequestsOfIssues } from "../../models/review.ts";
import { readPullHeads } from "../../git/pull-refs.ts";
import { cachedChangedPaths } from "./changed-paths-cache.ts";
import { repoTopics } from "../repo/lookup.ts";
import { issueViews, type IssueView } from "../issue/view.ts";
import { ghostUser } from "../user/profile.ts";
import { sideOf, type PullSide } from "./lookup.ts";
import { isWorkInProgress } from "./draft.ts";
import { isMergeable } from "./check.ts";

/** A side of the request as its JSON shows it. */
export interface PullBranchView {
  branch: string;
  ref: string;
  sha: string;
  side: (PullSide & { topics: string[] }) | undefined;
}

/** A pull request with everything its JSON shows, loaded by the service. */
export interface PullView {
  pull: PullRequestRow;
  issue: IssueView;
  draft: boolean;
  /** Gitea's PullRequest.Mergeable. */
  mergeable: boolean;
  base: PullBranchView;
  head: PullBranchView;
  requestedReviewers: UserRow[];
  /** Teams asked for a review, with what the Team JSON shows. */
  requestedTeams: { team: TeamRow; units: TeamUnitRow[]; org: UserRow }[];
  reviewComments: number;
  merger: UserRow | undefined;
  /** Line and file counts from the merge base to the head; only for a single request (Gitea leaves them out of lists). */
  stats?: { additions: number; deletions: number; changedFiles: number };
}

function withTopics(env: Env, side: PullSide | undefined) {
  return side ? { ...side, topics: repoTopics(env, side.repo.id) } : undefined;
}

/**
 * Gitea's ToAPIPullRequests: the base's head commit from the branch table; the head's from the
 * head branch (ref = the branch), or, when that branch is gone, from `refs/pull/{index}/head`
 * (ref = that ref).
 */
export async function pullViews(
  env: Env,
  doer: UserRow | undefined,
  base: { repo: RepoRow; owner: UserRow },
  rows: { pull: PullRequestRow; issue: IssueRow }[],
  opts: { stats: boolean } = { stats: false },
): Promise<PullView[]> {
  const issues = issueViews(env, () => base, rows.map((r) => r.issue));
  const ids = rows.map((r) => r.issue.id);
  const requests = reviewRequestsOfIssues(env.db, ids);
  const counts = reviewCommentCounts(env.db, ids);
  const reviewerIds = [...requests.values()].flat().map((r) => r.reviewerId).filter((id) => id > 0);
  const teams = new Map<number, { team: TeamRow; units: TeamUnitRow[]; org: UserRow }>();
  const teamIds = [...new Set([...requests.values()].flat().map((r) => r.reviewerTeamId).filter((id) => id > 0))];
  const teamUnits = unitsOfTeams(env.db, teamIds);
  for (const id of teamIds) {
    const team = getTeamById(env.db, id);
    const org = team && users.getUserById(env.db, team.orgId);
    if (team && org) teams.set(id, { team, units: teamUnits.get(id) ?? [], org });
  }
  const mergerIds = rows.map((r) => r.pull.mergerId).filter((id) => id > 0);
  const people = new Map(users.getUsersByIds(env.db, [...new Set([...reviewerIds, ...mergerIds])]).map((u) => [u.id, u]));
  const sides = new Map<number, ReturnType<typeof withTopics>>();
  const side = (id: number) => {
    if (!sides.has(id)) sides.set(id, withTopics(env, sideOf(env, doer, id)));
    return sides.get(id);
  };
  const baseSide = side(base.repo.id);
  // The heads from the branch table (kept in step with the refs by every push, merge and branch
  // change): one query per head repository for the whole page, no git process.
  const headBranches = new Map<number, Map<string, string>>();
  const headOf = (pull: PullRequestRow) => {
    if (!headBranches.has(pull.headRepoId)) {
      const names = [...new Set(rows.filter((r) => r.pull.headRepoId === pull.headRepoId).map((r) => r.pull.headBranch))];
      headBranches.set(pull.headRepoId, new Map(branchModel.branchesNamed(env.db, pull.headRepoId, names).map((b) => [b.name, b.commitId])));
    }
    return headBranches.get(pull.headRepoId)!.get(pull.headBranch);
  };
  const baseBranches = new Map(
    branchModel.branchesNamed(env.db, base.repo.id, [...new Set(rows.map((r) => r.pull.baseBranch))]).map((b) => [b.name, b.commitId]),
  );
  // Requests whose head branch is gone: the head the base repository keeps, in one git call.
  const orphaned = rows.filter((r) => side(r.pull.headRepoId) === undefined || headOf(r.pull) === undefined).map((r) => r.pull.index);
  const keptHeads = baseSide && orphaned.length ? await readPullHeads(baseSide.gitDir, orphaned) : new Map<number, string>();

  return Promise.all(
    rows.map(async ({ pull, issue }, i) => {
      const headSide = side(pull.headRepoId);
      let headSha = "";
      let headRef = `refs/pull/${pull.index}/head`;
      const branchSha = headSide ? headOf(pull) : undefined;
      if (branchSha) {
        headSha = branchSha;
        headRef = pull.headBranch;
      } else {
        headSha = keptHeads.get(pull.index) ?? "";
      }
      const view: PullView = {
        pull,
        issue: issues[i]!,
        draft: isWorkInProgress(issue.title),
        mergeable: isMergeable(pull.status, isWorkInProgress(issue.title)),
        base: { branch: pull.baseBranch, ref: pull.baseBranch, sha: baseBranches.get(pull.baseBranch) ?? "", side: baseSide },
        head: { branch: pull.headBranch, ref: headRef, sha: headSha, side: headSide },
        requestedReviewers: (requests.get(issue.id) ?? []).map((r) => people.get(r.reviewerId)).filter((u): u is UserRow => !!u),
        requestedTeams: (requests.get(issue.id) ?? []).flatMap((r) => {
          const t = teams.get(r.reviewerTeamId);
          return t ? [t] : [];
        }),
        reviewComments: counts.get(issue.id) ?? 0,
        merger: pull.hasMerged ? (people.get(pull.mergerId) ?? ghostUser()) : undefined,
      };
      if (opts.stats && baseSide && headSha && pull.mergeBase) {
        const files = await cachedChangedPaths(baseSide.gitDir, pull.mergeBase, headSha).catch(() => undefined);
        if (files) {
          view.stats = {
            additions: files.reduce((n, f) => n + f.additions, 0),
            deletions: files.reduce((n, f) => n + f.deletions, 0),
            changedFiles: files.length,
          };
        }
      }
      return view;
    }),
  );
}

export async function pullView(env: Env, doer: UserRow | undefined, base: { repo: RepoRow; owner: UserRow }, pull: PullRequestRow, issue: IssueRow): Promise<PullView> {
  return (await pullViews(env, doer, base, [{ pull, issue }], { stats: true }))[0]!;
}
