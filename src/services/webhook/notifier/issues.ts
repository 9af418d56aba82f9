import type { Env } from "../../env.ts";
import type { IssueRow, RepoRow, UserRow } from "../../../db/schema/index.ts";
import type { IssueEvent } from "../../issue/hooks.ts";
import type { HookEventType } from "../event-types.ts";
import type {
  ChangesPayload,
  HookIssueAction,
  IssueCommentPayload,
  IssuePayload,
  PullRequestPayload,
} from "../payload-types.ts";
import type { PayloadAccess } from "../sources.ts";
import {
  commentView,
  currentIssueView,
  currentPullView,
  currentRepo,
  isPlainComment,
  userById,
} from "../sources.ts";
import { toAPIIssue } from "../../../convert/issue.ts";
import { toAPIPullRequest } from "../../../convert/pull.ts";
import { toAPIComment } from "../../../convert/comment.ts";
import { repoJson, userJson, webhookSink, type PayloadSink } from "./common.ts";

/** One Gitea notification about an issue or pull request: which hook event, action and extras. */
interface Change {
  /** The hook event for an issue; a pull request's is derived (issues → pull_request, issue_label → pull_request_label...). */
  event: "issues" | "issue_assign" | "issue_label" | "issue_milestone";
  action: HookIssueAction;
  /** Whose access the repository is shown with (Gitea varies it per notification). */
  access: "poster" | "doer" | "owner";
  changes?: ChangesPayload;
  commitId?: string;
}

const PULL_EVENT: Record<Change["event"], HookEventType> = {
  issues: "pull_request",
  issue_assign: "pull_request_assign",
  issue_label: "pull_request_label",
  issue_milestone: "pull_request_milestone",
};

/**
 * Gitea's webhook notifier for issues (NewIssue, NewPullRequest, IssueChangeTitle/Content/Status/
 * Assignee/Milestone/Labels, IssueClearLabels, MergePullRequest, CreateIssueComment, UpdateComment,
 * DeleteComment). An edit that changed several things sends one payload per change, in the order
 * Gitea's EditIssue makes them: title, body, assignees, milestone, state.
 */
export async function onIssueEvent(env: Env, e: IssueEvent, sink: PayloadSink = webhookSink): Promise<void> {
  if (e.kind === "deleted") return; // Gitea sends no webhook for a deleted issue.
  if (!sink.mayWant(env, e.repo.id)) return;
  const where = currentRepo(env, e.repo.id);
  if (!where) return;
  const { repo, owner } = where;
  switch (e.kind) {
    case "created":
      return send(env, sink, repo, owner, e.issue, e.doer, { event: "issues", action: "opened", access: "poster" });
    case "edited": {
      const { before, issue } = e;
      const changes: Change[] = [];
      if (before.title !== issue.title) changes.push({ event: "issues", action: "edited", access: "poster", changes: { title: { from: before.title } } });
      if (before.content !== issue.content) changes.push({ event: "issues", action: "edited", access: "poster", changes: { body: { from: before.content } } });
      for (const _ of e.unassigned ?? []) changes.push({ event: "issue_assign", action: "unassigned", access: "doer" });
      for (const _ of e.assigned ?? []) changes.push({ event: "issue_assign", action: "assigned", access: "doer" });
      if (before.milestoneId !== issue.milestoneId) {
        changes.push({ event: "issue_milestone", action: issue.milestoneId > 0 ? "milestoned" : "demilestoned", access: "doer" });
      }
      if (before.isClosed !== issue.isClosed) {
        changes.push({ event: "issues", action: issue.isClosed ? "closed" : "reopened", access: "poster", commitId: e.commitId ?? "" });
      }
      for (const change of changes) await send(env, sink, repo, owner, issue, e.doer, change);
      return;
    }
    case "labels":
      return send(env, sink, repo, owner, e.issue, e.doer, {
        event: "issue_label",
        action: e.cleared ? "label_cleared" : "label_updated",
        // Gitea shows a pull request's repository with owner access on label_updated only.
        access: e.issue.isPull && !e.cleared ? "owner" : "poster",
      });
    case "commented":
      if (!isPlainComment(e.comment)) return;
      return sendComment(env, sink, repo, owner, e.issue, e.comment, e.doer, "created");
    case "comment-edited":
      return sendComment(env, sink, repo, owner, e.issue, e.comment, e.doer, "edited", { body: { from: e.oldContent } });
    case "comment-deleted":
      return sendComment(env, sink, repo, owner, e.issue, e.comment, e.doer, "deleted");
  }
}

function accessOf(env: Env, issue: IssueRow, doer: UserRow, access: Change["access"]): PayloadAccess {
  if (access === "owner") return "owner";
  return { doer: access === "doer" ? doer : userById(env, issue.posterId) };
}

async function send(env: Env, sink: PayloadSink, repo: RepoRow, owner: UserRow, issue: IssueRow, doer: UserRow, change: Change): Promise<void> {
  const event = issue.isPull ? PULL_EVENT[change.event] : change.event;
  if (!sink.wants(env, repo, event)) return;
  const repository = repoJson(env, repo, owner, accessOf(env, issue, doer, change.access));
  const sender = userJson(env, doer);
  if (issue.isPull) {
    const view = await currentPullView(env, repo, owner, issue, doer);
    if (!view) return;
    const payload: PullRequestPayload = {
      action: change.action,
      number: issue.index,
      ...(change.changes ? { changes: change.changes } : {}),
      pull_request: toAPIPullRequest(env.settings, view, doer),
      requested_reviewer: null,
      repository,
      sender,
      commit_id: change.commitId ?? "",
      review: null,
    };
    return sink.deliver(env, { event, payload, repo, owner, doer });
  }
  const payload: IssuePayload = {
    action: change.action,
    number: issue.index,
    ...(change.changes ? { changes: change.changes } : {}),
    issue: { ...toAPIIssue(env.settings, currentIssueView(env, repo, owner, issue), doer) },
    repository,
    sender,
    commit_id: change.commitId ?? "",
  };
  return sink.deliver(env, { event, payload, repo, owner, doer });
}

async function sendComment(
  env: Env,
  sink: PayloadSink,
  repo: RepoRow,
  owner: UserRow,
  issue: IssueRow,
  comment: Parameters<typeof commentView>[3],
  doer: UserRow,
  action: IssueCommentPayload["action"],
  changes?: ChangesPayload,
): Promise<void> {
  const event = issue.isPull ? "pull_request_comment" : "issue_comment";
  if (!sink.wants(env, repo, event)) return;
  const pull = issue.isPull ? await currentPullView(env, repo, owner, issue, doer) : undefined;
  const current = currentIssueView(env, repo, owner, issue);
  const payload: IssueCommentPayload = {
    action,
    issue: { ...toAPIIssue(env.settings, current, doer) },
    ...(pull ? { pull_request: toAPIPullRequest(env.settings, pull, doer) } : {}),
    comment: { ...toAPIComment(env.settings, commentView(env, repo, owner, comment, current.issue)) },
    ...(changes ? { changes } : {}),
    repository: repoJson(env, repo, owner, { doer }),
    sender: userJson(env, doer),
    is_pull: issue.isPull,
  };
  return sink.deliver(env, { event, payload, repo, owner, doer });
}
