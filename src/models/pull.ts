import { and, asc, desc, eq, ne, or, type SQL } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { idsParam, inIdsPlaceholder } from "./id-list.ts";
import { listIssues } from "./issue.ts";
import {
  issues,
  pullRequests,
  type IssueRow,
  type NewPullRequestRow,
  type PullRequestRow,
} from "../db/schema/index.ts";

/** Pull requests (Gitea's pull_request table), each the companion of an issue row with is_pull. */

export function insertPull(tx: Tx, row: NewPullRequestRow): PullRequestRow {
  return tx.insert(pullRequests).values(row).returning().get();
}

export function updatePull(tx: Tx, id: number, patch: Partial<NewPullRequestRow>): PullRequestRow | undefined {
  return tx.update(pullRequests).set(patch).where(eq(pullRequests.id, id)).returning().get();
}

/** Gitea's UpdateColsIfNotMerged: a background check must not overwrite a request merged meanwhile. */
export function updatePullIfUnmerged(tx: Tx, id: number, patch: Partial<NewPullRequestRow>): PullRequestRow | undefined {
  return tx
    .update(pullRequests)
    .set(patch)
    .where(and(eq(pullRequests.id, id), eq(pullRequests.hasMerged, false)))
    .returning()
    .get();
}

export function getPullById(tx: Tx, id: number): PullRequestRow | undefined {
  return tx.select().from(pullRequests).where(eq(pullRequests.id, id)).get();
}

export function getPullByIssueId(tx: Tx, issueId: number): PullRequestRow | undefined {
  return tx.select().from(pullRequests).where(eq(pullRequests.issueId, issueId)).get();
}

/** The pull request `{index}` of a base repository. */
export function getPullByIndex(tx: Tx, baseRepoId: number, index: number): PullRequestRow | undefined {
  return tx
    .select()
    .from(pullRequests)
    .where(and(eq(pullRequests.baseRepoId, baseRepoId), eq(pullRequests.index, index)))
    .get();
}

export function pullsByIssueIds(tx: Tx, issueIds: number[]): Map<number, PullRequestRow> {
  if (issueIds.length === 0) return new Map();
  const rows = prepared(tx, "pull.byIssueIds", (t) => t.select().from(pullRequests).where(inIdsPlaceholder(pullRequests.issueId)).prepare()).all(idsParam(issueIds));
  return new Map(rows.map((p) => [p.issueId, p]));
}

/** The newest request from `headRepoId:headBranch` into `baseRepoId:baseBranch`, in any state. */
export function latestPullByBaseHead(
  tx: Tx,
  baseRepoId: number,
  baseBranch: string,
  headRepoId: number,
  headBranch: string,
): PullWithIssue | undefined {
  return tx
    .select({ pull: pullRequests, issue: issues })
    .from(pullRequests)
    .innerJoin(issues, eq(issues.id, pullRequests.issueId))
    .where(
      and(
        eq(pullRequests.baseRepoId, baseRepoId),
        eq(pullRequests.baseBranch, baseBranch),
        eq(pullRequests.headRepoId, headRepoId),
        eq(pullRequests.headBranch, headBranch),
      ),
    )
    .orderBy(desc(pullRequests.id))
    .get();
}

/** A pull request with its issue row. */
export interface PullWithIssue {
  pull: PullRequestRow;
  issue: IssueRow;
}

const openUnmerged = and(eq(issues.isClosed, false), eq(pullRequests.hasMerged, false));

/**
 * Gitea's GetUnmergedPullRequest: the open, unmerged request from `headRepoId:headBranch` into
 * `baseRepoId:baseBranch` (GitHub-style flow), if any; `exceptId` leaves one request out.
 */
export function findOpenPull(
  tx: Tx,
  q: { headRepoId: number; headBranch: string; baseRepoId: number; baseBranch: string; exceptId?: number },
): PullRequestRow | undefined {
  const conds: (SQL | undefined)[] = [
    eq(pullRequests.headRepoId, q.headRepoId),
    eq(pullRequests.headBranch, q.headBranch),
    eq(pullRequests.baseRepoId, q.baseRepoId),
    eq(pullRequests.baseBranch, q.baseBranch),
    eq(pullRequests.flow, 0),
    openUnmerged,
  ];
  if (q.exceptId !== undefined) conds.push(ne(pullRequests.id, q.exceptId));
  return tx
    .select({ pull: pullRequests })
    .from(pullRequests)
    .innerJoin(issues, eq(issues.id, pullRequests.issueId))
    .where(and(...conds))
    .get()?.pull;
}

/**
 * Open, unmerged requests touched by a push of `branch` in `repoId`: those whose head is that
 * branch, and those whose base is it.
 */
export function openPullsOnBranch(tx: Tx, repoId: number, branch: string): { asHead: PullWithIssue[]; asBase: PullWithIssue[] } {
  const rows = tx
    .select({ pull: pullRequests, issue: issues })
    .from(pullRequests)
    .innerJoin(issues, eq(issues.id, pullRequests.issueId))
    .where(
      and(
        openUnmerged,
        or(
          and(eq(pullRequests.headRepoId, repoId), eq(pullRequests.headBranch, branch)),
          and(eq(pullRequests.baseRepoId, repoId), eq(pullRequests.baseBranch, branch)),
        ),
      ),
    )
    .orderBy(asc(pullRequests.id))
    .all();
  return {
    asHead: rows.filter((r) => r.pull.headRepoId === repoId && r.pull.headBranch === branch),
    asBase: rows.filter((r) => r.pull.baseRepoId === repoId && r.pull.baseBranch === branch),
  };
}

export type PullSort = "oldest" | "recentupdate" | "leastupdate" | "mostcomment" | "leastcomment" | "priority" | "newest";

export interface PullListFilter {
  baseRepoId: number;
  isClosed?: boolean;
  /** Any of these labels. */
  labelIds?: number[];
  milestoneId?: number;
  posterId?: number;
  baseBranch?: string;
  sort: PullSort;
  offset: number;
  limit: number;
}

/**
 * Gitea's PullRequests: a base repository's requests with their issues, filtered and sorted (Gitea's
 * applySorts; anything else is newest first). A request's issue lives in its base repository, so the
 * page comes from the issue list's ordered indexes and the requests are joined to it afterwards.
 */
export function listPulls(tx: Tx, f: PullListFilter): { rows: PullWithIssue[]; total: number } {
  const { rows, total } = listIssues(tx, {
    repoIds: [f.baseRepoId],
    isPull: true,
    isClosed: f.isClosed,
    anyLabelIds: f.labelIds?.length ? f.labelIds : undefined,
    milestoneIds: f.milestoneId ? [f.milestoneId] : undefined,
    posterId: f.posterId,
    pullBase: f.baseBranch ? { repoId: f.baseRepoId, branch: f.baseBranch } : undefined,
    sort: f.sort === "newest" ? "latest" : f.sort,
    offset: f.offset,
    limit: f.limit,
  });
  const byIssue = pullsByIssueIds(tx, rows.map((i) => i.id));
  return { rows: rows.flatMap((issue) => (byIssue.has(issue.id) ? [{ pull: byIssue.get(issue.id)!, issue }] : [])), total };
}

/** Gitea's GetPullRequestByMergedCommit: the request of a repository merged as commit `sha`. */
export function getPullByMergedCommit(tx: Tx, baseRepoId: number, sha: string): PullRequestRow | undefined {
  return tx
    .select()
    .from(pullRequests)
    .where(and(eq(pullRequests.baseRepoId, baseRepoId), eq(pullRequests.mergedCommitId, sha)))
    .get();
}
