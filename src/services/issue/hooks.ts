import type { Env } from "../env.ts";
import type { Tx } from "../../db/client.ts";
import type { CommentRow, IssueRow, RepoRow, UserRow } from "../../db/schema/index.ts";
import { issueEvents } from "../events/issue-events.ts";
import type { HeldEvent } from "../events/bus.ts";

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

/**
 * Called by the issue services inside the transaction of the change: the event is put on the bus
 * with the change, for the in-app notifications, the webhooks and the other subscribers, which
 * hear of it once it committed (a subscriber that fails is logged; the change stands).
 */
export function issueChanged(tx: Tx, env: Env, event: IssueEvent): void {
  issueEvents.emit(tx, env, event);
}

/**
 * issueChanged for a change that goes on after this transaction (a new pull request's head and
 * check): the event is held back until the caller releases it (`releaseEvent`).
 */
export function issueChangedHeld(tx: Tx, env: Env, event: IssueEvent): HeldEvent {
  return issueEvents.hold(tx, env, event);
}
