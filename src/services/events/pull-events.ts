import type { IssueRow, PullRequestRow, RepoRow, ReviewRow, UserRow } from "../../db/schema/index.ts";
import { createChannel } from "./channel.ts";

/**
 * What happens to pull requests beyond their issue (opened, edited, closed, labels... travel as
 * issue events): new commits on the head, a new base branch, reviews and review requests, and the
 * merge (Gitea's MergePullRequest / AutoMergePullRequest notifications; the close it makes is an
 * issue event too, which is what the webhooks announce).
 */
export type PullEvent =
  | { kind: "synchronized"; pull: PullRequestRow; issue: IssueRow; repo: RepoRow; doer: UserRow }
  | { kind: "retargeted"; pull: PullRequestRow; issue: IssueRow; repo: RepoRow; doer: UserRow; oldBranch: string }
  | { kind: "reviewed"; pull: PullRequestRow; issue: IssueRow; repo: RepoRow; review: ReviewRow; reviewer: UserRow }
  | {
      kind: "review-requested" | "review-request-removed";
      pull: PullRequestRow;
      issue: IssueRow;
      repo: RepoRow;
      doer: UserRow;
      /** A team's request is announced once per member, as Gitea does. */
      reviewer: UserRow;
    }
  | {
      kind: "merged";
      pull: PullRequestRow;
      issue: IssueRow;
      repo: RepoRow;
      owner: UserRow;
      /** Who merged it; for a merge when checks succeeded, the user who scheduled it. */
      doer: UserRow;
      /** Merged outside hearth and marked so (`manually-merged`). */
      manually: boolean;
      /** Merged on its own once its checks succeeded. */
      automerge: boolean;
    };

export const pullEvents = createChannel<PullEvent>("pull request events");

/** A pull request's mergeability was checked again and found mergeable (automerge may be waiting for it). */
export interface PullCheckEvent {
  pullId: number;
  status: number;
}

export const pullCheckEvents = createChannel<PullCheckEvent>("pull request checks");
