import type { Env } from "../env.ts";
import { savepoint, type Tx } from "../../db/client.ts";
import type { CommentRow, IssueRow, RepoRow, UserRow } from "../../db/schema/index.ts";
import { notifyIssueEvent } from "../notification/issue-events.ts";
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
 * Called by the issue services inside the transaction of the change: the in-app notifications are
 * written in it (a reader who sees the change sees them), and the event is put on the bus for the
 * webhooks and other subscribers. Notifications that fail are logged and rolled back alone; the
 * change stands.
 */
export function issueChanged(tx: Tx, env: Env, event: IssueEvent): void {
  notify(tx, env, event);
  issueEvents.emit(tx, env, event);
}

/**
 * issueChanged for a change that goes on after this transaction (a new pull request's head and
 * check): the event is held back until the caller releases it (`releaseEvent`).
 */
export function issueChangedHeld(tx: Tx, env: Env, event: IssueEvent): HeldEvent {
  notify(tx, env, event);
  return issueEvents.hold(tx, env, event);
}

function notify(tx: Tx, env: Env, event: IssueEvent): void {
  if (event.kind === "labels" || event.kind === "comment-edited" || event.kind === "comment-deleted") return;
  try {
    savepoint(tx, (sp) => notifyIssueEvent(sp, env, event));
  } catch (err) {
    env.log.error("notifications not recorded", { issue: event.issue.id, error: (err as Error)?.stack ?? String(err) });
  }
}
