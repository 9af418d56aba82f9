import type { Env } from "../env.ts";
import type { Tx } from "../../db/client.ts";
import { CommentType, PullStatus, ReviewType, type PullRequestRow, type RepoRow } from "../../db/schema/index.ts";
import * as data from "../../models/migration.ts";
import { rawFileDiff } from "../../git/file-diff.ts";
import { mergeBase } from "../../git/log.ts";
import { fetchPullHeads, resolveCommits } from "../../git/pull-heads.ts";
import { pullHeadRef } from "../../git/pull-refs.ts";
import { computePullCheck, storedCheck } from "../pull/check.ts";
import { WORK_IN_PROGRESS_PREFIXES, isWorkInProgress } from "../pull/draft.ts";
import { CODE_COMMENT_LINES } from "../pull/review-comment.ts";
import { cutDiffAroundLine } from "../pull/review-patch.ts";
import { parseRFC3339, REVIEW_STATES, type ReviewCommentRecord, type ReviewRecord } from "./format.ts";
import type { LoadedPull } from "./pull-load.ts";
import type { AuthorOf } from "./release-restore.ts";

/**
 * The pull request half of restore-repo, as Gitea's GiteaLocalUploader.CreatePullRequests and
 * CreateReviews: each head is copied from the dump's git data into `refs/pull/{n}/head`, the head
 * and base branches are the recorded names (a request from a fork becomes one inside the restored
 * repository, as Gitea's restorer makes it), the merge base is the recorded one or else computed,
 * and a merged request keeps its merge commit and time with the restoring administrator as its
 * merger (Gitea's uploader sets the doer). A draft gets Gitea's first work-in-progress prefix.
 * Code comments are restored with their hunk cut again from git, as Gitea does; one without a
 * hunk is skipped, as Gitea skips it.
 */

export interface PreparedPull {
  loaded: LoadedPull;
  headSha: string;
  mergeBase: string;
  /** What a mergeability check found for a request that is not merged. */
  check?: Partial<PullRequestRow>;
}

export interface PreparedReview {
  record: ReviewRecord;
  comments: { record: ReviewCommentRecord; patch: string; commitSha: string }[];
}

/** Gitea's restored review types (convertReviewState). */
const TYPE_OF: Record<ReviewRecord["state"], number> = REVIEW_STATES;

/** Everything of the pull requests that needs git, done after the branches are fetched and before the restore's transaction. */
export async function preparePulls(
  env: Env,
  repo: RepoRow,
  gitDir: string,
  dumpGitDir: string,
  pulls: LoadedPull[],
  reviews: Map<number, ReviewRecord[]>,
): Promise<{ pulls: PreparedPull[]; reviews: PreparedReview[] }> {
  await fetchPullHeads(
    gitDir,
    dumpGitDir,
    pulls.map((p) => ({ index: p.record.number, from: p.headFrom })),
  );
  const heads = await resolveCommits(
    gitDir,
    pulls.map((p) => pullHeadRef(p.record.number)),
  );
  // A recorded merge base the git data does not hold is worked out again, as Gitea does for a missing one.
  const bases = await resolveCommits(
    gitDir,
    pulls.map((p) => p.record.base.sha ?? ""),
  );
  const prepared: PreparedPull[] = [];
  for (const [i, loaded] of pulls.entries()) {
    const headSha = heads[i]!;
    const baseTip = (await resolveCommits(gitDir, [`refs/heads/${loaded.record.base.ref}`]))[0];
    const mb = bases[i] ?? (baseTip ? await mergeBase(gitDir, baseTip, headSha) : undefined) ?? "";
    const pull: PreparedPull = { loaded, headSha, mergeBase: mb };
    if (!loaded.record.merged) {
      const row = { baseRepoId: repo.id, headRepoId: repo.id, baseBranch: loaded.record.base.ref, index: loaded.record.number, mergeBase: mb };
      pull.check = storedCheck(await computePullCheck(env, row as PullRequestRow));
    }
    prepared.push(pull);
  }

  const byNumber = new Map(prepared.map((p) => [p.loaded.record.number, p]));
  const out: PreparedReview[] = [];
  for (const [number, list] of reviews) {
    const pull = byNumber.get(number)!;
    for (const record of list) {
      const review: PreparedReview = { record, comments: [] };
      out.push(review);
      // Gitea: without a merge base there is nothing to cut a hunk from, and the code comments are dropped.
      if (!pull.mergeBase) continue;
      for (const cm of record.comments ?? []) {
        if (!cm.diff_hunk) continue;
        const diff = await rawFileDiff(gitDir, pull.mergeBase, pull.headSha, cm.tree_path).catch(() => "");
        const patch = cutDiffAroundLine(diff, Math.abs(cm.line), cm.line < 0, CODE_COMMENT_LINES);
        const [known] = cm.commit_id ? await resolveCommits(gitDir, [cm.commit_id]) : [undefined];
        review.comments.push({ record: cm, patch, commitSha: known ?? pull.headSha });
      }
    }
  }
  return { pulls: prepared, reviews: out };
}

const time = (value: string): number => parseRFC3339(value)!;

/**
 * The pull request rows of the restore, after their issue rows (which the caller writes with the
 * issues' code): `issueIds` maps each number to its issue row.
 */
export function insertPulls(
  tx: Tx,
  repoId: number,
  mergerId: number,
  prepared: { pulls: PreparedPull[]; reviews: PreparedReview[] },
  issueIds: Map<number, number>,
  author: AuthorOf,
  now: number,
): void {
  for (const p of prepared.pulls) {
    const r = p.loaded.record;
    const merged = r.merged;
    data.insertPullRow(tx, {
      issueId: issueIds.get(r.number)!,
      index: r.number,
      baseRepoId: repoId,
      headRepoId: repoId,
      headBranch: r.head.ref,
      baseBranch: r.base.ref,
      mergeBase: p.mergeBase,
      ...(merged
        ? {
            status: PullStatus.Mergeable,
            hasMerged: true,
            mergedCommitId: r.merge_commit_sha ?? "",
            mergerId,
            mergedUnix: r.merged_time ? time(r.merged_time) : r.closed ? time(r.closed) : time(r.updated),
          }
        : p.check),
    });
  }
  for (const { record, comments } of prepared.reviews) {
    const issueId = issueIds.get(record.issue_index)!;
    const who = author(record.reviewer_id, record.reviewer_name);
    const type = TYPE_OF[record.state];
    const created = time(record.created_at);
    const review = data.insertReviewRow(tx, {
      type,
      reviewerId: who.posterId,
      originalAuthor: who.originalAuthor,
      originalAuthorId: who.originalAuthorId,
      issueId,
      content: record.content ?? "",
      official: record.official ?? false,
      commitId: record.commit_id ?? "",
      createdUnix: created,
      updatedUnix: created,
    });
    // Gitea's InsertReviews adds the review's timeline entry; hearth keeps one for submitted reviews only.
    if (type === ReviewType.Approve || type === ReviewType.Comment || type === ReviewType.Reject) {
      data.insertCommentRow(tx, {
        type: CommentType.Review,
        issueId,
        posterId: who.posterId,
        originalAuthor: who.originalAuthor,
        originalAuthorId: who.originalAuthorId,
        content: record.content ?? "",
        reviewId: review.id,
        createdUnix: created,
        updatedUnix: created,
      });
    }
    for (const { record: cm, patch, commitSha } of comments) {
      // A code comment's poster is the reviewer unless the dump names someone else (by id only: Gitea records no name).
      const poster = cm.poster_id === record.reviewer_id ? who : author(cm.poster_id, undefined);
      const cmCreated = time(cm.created_at);
      const row = data.insertCommentRow(tx, {
        type: CommentType.Code,
        issueId,
        ...poster,
        content: cm.content,
        treePath: cm.tree_path,
        line: cm.line,
        patch,
        commitSha,
        reviewId: review.id,
        createdUnix: cmCreated,
        updatedUnix: cm.updated_at ? time(cm.updated_at) : cmCreated,
      });
      for (const rx of cm.reactions ?? []) {
        const by = author(rx.user_id, rx.user_name);
        data.insertReactionRow(tx, {
          type: rx.content,
          issueId,
          commentId: row.id,
          userId: by.posterId,
          originalAuthor: by.originalAuthor,
          originalAuthorId: by.originalAuthorId,
          createdUnix: now,
        });
      }
    }
  }
}

/** Gitea's uploader: a draft's title gets the first work-in-progress prefix unless it has one. */
export function pullTitle(title: string, isDraft: boolean | undefined): string {
  return isDraft && !isWorkInProgress(title) ? `${WORK_IN_PROGRESS_PREFIXES[0]} ${title}` : title;
}
