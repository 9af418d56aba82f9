import type { Env } from "../env.ts";
import type { Tx } from "../../db/client.ts";
import { ReviewType, type CommentRow, type IssueRow, type PullRequestRow, type RepoRow, type ReviewRow } from "../../db/schema/index.ts";
import * as data from "../../models/migration.ts";
import { getRepoById } from "../../models/repo.ts";
import { getUserById } from "../../models/user.ts";
import { resolveCommits } from "../../git/pull-heads.ts";
import { pullHeadRef } from "../../git/pull-refs.ts";
import { isWorkInProgress } from "../pull/draft.ts";
import {
  dumpTime,
  type IssueRecord,
  type PullRequestRecord,
  type ReactionRecord,
  type ReviewCommentRecord,
  type ReviewRecord,
  type ReviewState,
} from "./format.ts";

/**
 * The pull request half of dump-repo, as Gitea's RepositoryDumper writes it: pull_request.yml
 * holds every pull request with its issue fields and both branches, `reviews/{n}.yml` the reviews
 * of pull request n with their code comments; the heads stay in the git data as
 * `refs/pull/{n}/head` (the mirror clone copies them). A request from a fork is written as Gitea's
 * dumper rewrites one: head owner and repository are the base's, since the head lives in the
 * base's `refs/pull/{n}/head`.
 */

export interface Person {
  id: number;
  name: string;
  email: string;
}

export type PersonOf = (id: number, originalAuthor: string, originalAuthorId: number) => Person;

const STATE_OF: Record<number, ReviewState> = {
  [ReviewType.Approve]: "APPROVED",
  [ReviewType.Comment]: "COMMENTED",
  [ReviewType.Reject]: "CHANGES_REQUESTED",
  [ReviewType.Request]: "REQUEST_REVIEW",
};

/** What the dump's transaction reads of the pull requests; the head commits are read from the dumped git data after. */
export interface PullDump {
  rows: { issue: IssueRow; pull: PullRequestRow; record: Omit<PullRequestRecord, "head"> & { head: Omit<PullRequestRecord["head"], "sha"> } }[];
  reviews: Map<number, ReviewRecord[]>;
}

/** The reviews and code comments of these pull requests (their posters are needed before records are built). */
export function readReviewRows(tx: Tx, issueIds: number[]): { reviews: ReviewRow[]; codeComments: CommentRow[] } {
  const reviews = data.reviewsOfIssues(tx, issueIds);
  return { reviews, codeComments: data.codeCommentsOfReviews(tx, reviews.map((r) => r.id)) };
}

function cloneUrl(env: Env, tx: Tx, repoId: number): string {
  const repo = getRepoById(tx, repoId);
  const owner = repo && getUserById(tx, repo.ownerId);
  return repo && owner ? `${env.settings.server.rootUrl}${owner.name}/${repo.name}.git` : "";
}

/** Builds the records from the rows, in the dump's transaction. `issueRecord` is the issue half, as issue.yml writes it. */
export function buildPullDump(
  env: Env,
  tx: Tx,
  repo: RepoRow & { ownerName: string },
  rows: { issue: IssueRow; pull: PullRequestRow }[],
  review: { reviews: ReviewRow[]; codeComments: CommentRow[] },
  issueRecord: (i: IssueRow) => IssueRecord,
  person: PersonOf,
  commentReactions: Map<number, ReactionRecord[]>,
): PullDump {
  const baseUrl = `${env.settings.server.rootUrl}${repo.ownerName}/${repo.name}.git`;
  const out: PullDump = { rows: [], reviews: new Map() };
  for (const { issue, pull } of rows) {
    const { ref: _ref, ...fields } = issueRecord(issue);
    out.rows.push({
      issue,
      pull,
      record: {
        ...fields,
        patch_url: "",
        merged: pull.hasMerged,
        merged_time: pull.hasMerged && pull.mergedUnix > 0 ? dumpTime(pull.mergedUnix) : null,
        merge_commit_sha: pull.mergedCommitId,
        head: {
          clone_url: pull.headRepoId === repo.id || pull.headRepoId === 0 ? baseUrl : cloneUrl(env, tx, pull.headRepoId),
          ref: pull.headBranch,
          repo_name: repo.name,
          owner_name: repo.ownerName,
        },
        base: { clone_url: baseUrl, ref: pull.baseBranch, sha: pull.mergeBase, repo_name: repo.name, owner_name: repo.ownerName },
        foreignindex: issue.index,
        ensured_safe: true,
        is_draft: isWorkInProgress(issue.title),
      },
    });
  }
  const numberOf = new Map(rows.map(({ issue }) => [issue.id, issue.index]));
  const commentsOf = new Map<number, CommentRow[]>();
  for (const c of review.codeComments) commentsOf.set(c.reviewId, [...(commentsOf.get(c.reviewId) ?? []), c]);
  for (const r of review.reviews) {
    const state = STATE_OF[r.type];
    const number = numberOf.get(r.issueId);
    if (!state || number === undefined) continue;
    const who = person(r.reviewerId, r.originalAuthor, r.originalAuthorId);
    const comments = (commentsOf.get(r.id) ?? []).map(
      (c): ReviewCommentRecord => ({
        id: c.id,
        in_reply_to: 0,
        content: c.content,
        tree_path: c.treePath,
        // Gitea's restorer skips a code comment without a hunk and cuts the hunk again from git.
        diff_hunk: c.patch,
        position: 0,
        line: c.line,
        commit_id: c.commitSha,
        poster_id: person(c.posterId, c.originalAuthor, c.originalAuthorId).id,
        reactions: commentReactions.get(c.id) ?? [],
        created_at: dumpTime(c.createdUnix),
        updated_at: dumpTime(c.updatedUnix),
      }),
    );
    const record: ReviewRecord = {
      id: r.id,
      issue_index: number,
      reviewer_id: who.id,
      reviewer_name: who.name,
      official: r.official,
      commit_id: r.commitId,
      content: r.content,
      created_at: dumpTime(r.createdUnix),
      state,
      comments,
    };
    out.reviews.set(number, [...(out.reviews.get(number) ?? []), record]);
  }
  return out;
}

/**
 * pull_request.yml's records, each head commit read from the dumped git data (its
 * `refs/pull/{n}/head`): what the dump holds is what a restore will find.
 */
export async function pullRecords(dumpGitDir: string, dump: PullDump): Promise<PullRequestRecord[]> {
  const heads = await resolveCommits(
    dumpGitDir,
    dump.rows.map(({ issue }) => pullHeadRef(issue.index)),
  );
  return dump.rows.map(({ record }, i) => ({ ...record, head: { ...record.head, sha: heads[i] ?? "" } }));
}
