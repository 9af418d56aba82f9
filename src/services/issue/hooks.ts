import type { Env } from "../env.ts";
import type { CommentRow, IssueRow, RepoRow, UserRow } from "../../db/schema/index.ts";
import { notifyIssueEvent } from "../notification/issue-events.ts";

/** Something happened to an issue that others may need to hear about (notifications, later webhooks). */
export type IssueEvent =
  | { kind: "created"; issue: IssueRow; repo: RepoRow; doer: UserRow }
  | { kind: "edited"; issue: IssueRow; before: IssueRow; repo: RepoRow; doer: UserRow; /** users newly assigned */ assigned?: number[] }
  | { kind: "commented"; issue: IssueRow; comment: CommentRow; repo: RepoRow; doer: UserRow }
  | { kind: "deleted"; issue: IssueRow; repo: RepoRow };

/** Called by the issue services after their transaction committed. */
export function issueChanged(env: Env, event: IssueEvent): void {
  notifyIssueEvent(env, event);
}
