import type { Env } from "../env.ts";
import type { CommentRow, IssueRow, RepoRow, UserRow } from "../../db/schema/index.ts";
import { notifyIssueEvent } from "../notification/issue-events.ts";
import { issueEvents } from "../events/issue-events.ts";

/** Something happened to an issue that others may need to hear about (notifications, webhooks). */
export type IssueEvent =
  | { kind: "created"; issue: IssueRow; repo: RepoRow; doer: UserRow }
  | {
      kind: "edited";
      issue: IssueRow;
      before: IssueRow;
      repo: RepoRow;
      doer: UserRow;
      /** users newly assigned */
      assigned?: number[];
      /** users no longer assigned */
      unassigned?: number[];
      /** The commit whose message closed or reopened the issue (Gitea's commit_id); absent otherwise. */
      commitId?: string;
    }
  | { kind: "commented"; issue: IssueRow; comment: CommentRow; repo: RepoRow; doer: UserRow }
  | { kind: "comment-edited"; issue: IssueRow; comment: CommentRow; oldContent: string; repo: RepoRow; doer: UserRow }
  | { kind: "comment-deleted"; issue: IssueRow; comment: CommentRow; repo: RepoRow; doer: UserRow }
  /** Labels added, replaced or removed (`cleared`: all taken off by DELETE …/labels). */
  | { kind: "labels"; issue: IssueRow; repo: RepoRow; doer: UserRow; cleared: boolean }
  | { kind: "deleted"; issue: IssueRow; repo: RepoRow };

/** Called by the issue services after their transaction committed. */
export function issueChanged(env: Env, event: IssueEvent): void {
  if (event.kind !== "labels" && event.kind !== "comment-edited" && event.kind !== "comment-deleted") notifyIssueEvent(env, event);
  issueEvents.emit(env, event);
}
