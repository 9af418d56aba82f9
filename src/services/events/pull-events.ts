import type { IssueRow, PullRequestRow, RepoRow, ReviewRow, UserRow } from "../../db/schema/index.ts";
import { createChannel } from "./channel.ts";

/**
 * What happens to pull requests beyond their issue (opened, edited, closed, labels... travel as
 * issue events): new commits on the head, a new base branch, reviews and review requests.
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
    };

export const pullEvents = createChannel<PullEvent>("pull request events");
