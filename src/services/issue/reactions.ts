import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import type { ReactionRow, UserRow } from "../../db/schema/index.ts";
import * as issues from "../../models/issue.ts";
import * as reactions from "../../models/reaction.ts";
import * as users from "../../models/user.ts";
import { Forbidden, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { ghostUser } from "../user/profile.ts";
import { unitOf, type IssueContext } from "./lookup.ts";
import { commentOfRepo, type CommentContext } from "./comments.ts";
import type { RepoContext } from "../repo/lookup.ts";
import type { SignedIn } from "../access/repo-access.ts";
import type { Doer } from "../access/permission.ts";

/** A reaction with the user who made it. */
export interface ReactionView {
  reaction: ReactionRow;
  user: UserRow;
}

const targetOf = (c: IssueContext | CommentContext): reactions.ReactionTarget => ({
  issueId: c.issue.id,
  commentId: "comment" in c ? c.comment.id : 0,
});

/**
 * Gitea's ReactionList.LoadUsers: a migrated reaction is shown under its original author's name, a
 * reaction of a deleted account as the Ghost.
 */
function views(env: Env, rows: ReactionRow[]): ReactionView[] {
  const people = new Map(users.getUsersByIds(env.db, [...new Set(rows.map((r) => r.userId))]).map((u) => [u.id, u]));
  return rows.map((reaction) => {
    if (reaction.originalAuthor) {
      const ghost = ghostUser();
      const name = reaction.originalAuthor;
      return { reaction, user: { ...ghost, name, lowerName: name.toLowerCase(), fullName: name } };
    }
    return { reaction, user: people.get(reaction.userId) ?? ghostUser() };
  });
}

/** Reactions are read where the issue is read; Gitea answers 403 (not 404) for a hidden unit here. */
function requireReader(c: IssueContext | CommentContext): void {
  if (!c.perm.canRead(unitOf(c.issue))) throw new Forbidden("no permission to get reactions");
}

/** Gitea's GetIssueReactions: a page of the issue's own reactions, of the currently allowed types. */
export function listIssueReactions(
  env: Env,
  rc: RepoContext,
  index: string,
  page: { offset: number; limit: number },
): { views: ReactionView[]; total: number } {
  const issue = /^\d{1,15}$/.test(index) ? issues.getIssueByIndex(env.db, rc.repo.id, Number(index)) : undefined;
  if (!issue) throw new NotFound();
  const ic = { ...rc, issue };
  requireReader(ic);
  const { rows, total } = reactions.findReactions(env.db, targetOf(ic), env.settings.ui.reactions, page);
  return { views: views(env, rows), total };
}

/** Gitea's GetIssueCommentReactions: all of a comment's reactions of the allowed types. */
export function listCommentReactions(env: Env, rc: RepoContext, id: string): ReactionView[] {
  const cc = commentOfRepo(env, rc, id);
  requireReader(cc);
  return views(env, reactions.findReactions(env.db, targetOf(cc), env.settings.ui.reactions).rows);
}

/** On a locked issue only writers of its unit react (Gitea's changeIssueReaction). */
function requireUnlocked(c: IssueContext | CommentContext): void {
  if (c.issue.isLocked && !c.perm.canWrite(unitOf(c.issue))) throw new Forbidden("no permission to change reaction");
}

/**
 * Gitea's CreateReaction: only types in `[ui] REACTIONS` are allowed (a custom emoji is a reaction
 * only when it is listed there). Reacting twice the same way keeps the first reaction and says so.
 */
export function addReaction(
  env: Env,
  doer: Doer,
  c: SignedIn<IssueContext | CommentContext>,
  content: string,
): { view: ReactionView; created: boolean } {
  requireUnlocked(c);
  if (!env.settings.ui.reactions.includes(content)) throw new Forbidden(`'${content}' is not an allowed reaction`);
  const { row, created } = writeTx(env.db, (tx) => reactions.addReaction(tx, targetOf(c), doer.id, content, nowUnix()));
  return { view: { reaction: row, user: doer }, created };
}

/** Gitea's DeleteIssueReaction / DeleteCommentReaction: removing a reaction that is not there is fine. */
export function removeReaction(env: Env, doer: Doer, c: SignedIn<IssueContext | CommentContext>, content: string): void {
  requireUnlocked(c);
  writeTx(env.db, (tx) => reactions.deleteUserReaction(tx, targetOf(c), doer.id, content));
}
