import type { Env } from "../env.ts";
import type { Tx } from "../../db/client.ts";
import { CommentType, type CommentRow, type IssueRow, type PullRequestRow, type ReviewRow } from "../../db/schema/index.ts";
import * as reviewModel from "../../models/review.ts";
import { lineBlame } from "../../git/blame.ts";
import { rawFileDiff } from "../../git/file-diff.ts";
import { recordActivity } from "../issue/touch.ts";
import { cutDiffAroundLine } from "./review-patch.ts";

/** Gitea's setting.UI.CodeCommentLines: lines of diff kept above a commented line. */
export const CODE_COMMENT_LINES = 4;

/** A comment on a line of the request's diff: `line` > 0 on the new side, < 0 on the old side. */
export interface CodeCommentInput {
  treePath: string;
  line: number;
  content: string;
}

/** What a code comment records besides its text, worked out from git before it is written. */
export interface PreparedCodeComment extends CodeCommentInput {
  commitSha: string;
  patch: string;
  invalidated: boolean;
}

/**
 * Gitea's createCodeComment, the git half. A new-side line records the commit that last changed it
 * (blamed at the review's commit, else the head), or copies commit, hunk and invalidation from the
 * review's first comment on that line; otherwise the commit is the head. The hunk is the file's
 * diff from the merge base to the head, cut around the line.
 */
export async function prepareCodeComment(
  env: Env,
  gitDir: string,
  pull: Pick<PullRequestRow, "mergeBase">,
  headCommitId: string,
  review: Pick<ReviewRow, "id" | "commitId">,
  input: CodeCommentInput,
): Promise<PreparedCodeComment> {
  let commitSha = "";
  let patch = "";
  let invalidated = false;
  if (input.line > 0) {
    const first = reviewModel.firstCodeCommentAt(env.db, review.id, input.treePath, input.line);
    if (first) {
      ({ commitSha, patch, invalidated } = first);
    } else {
      // A review commit git does not know blames nothing, as a path that is not there.
      commitSha = (await lineBlame(gitDir, review.commitId || headCommitId, input.treePath, input.line).catch(() => undefined)) ?? "";
    }
  }
  if (patch === "") {
    if (commitSha === "") commitSha = headCommitId;
    const diff = pull.mergeBase ? await rawFileDiff(gitDir, pull.mergeBase, headCommitId, input.treePath).catch(() => "") : "";
    patch = cutDiffAroundLine(diff, Math.abs(input.line), input.line < 0, CODE_COMMENT_LINES);
  }
  return { ...input, commitSha, patch, invalidated };
}

/** The database half: the comment row, in the caller's transaction. */
export function insertCodeComment(tx: Tx, issue: Pick<IssueRow, "id">, doerId: number, reviewId: number, c: PreparedCodeComment): CommentRow {
  return recordActivity(tx, issue, { id: doerId }, CommentType.Code, {
    content: c.content,
    treePath: c.treePath,
    line: c.line,
    commitSha: c.commitSha,
    patch: c.patch,
    invalidated: c.invalidated,
    reviewId,
  });
}
