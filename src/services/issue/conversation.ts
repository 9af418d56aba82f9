import type { Env } from "../env.ts";
import { CommentType, PullStatus, ReviewType, type AttachmentRow, type ReactionRow, type UserRow } from "../../db/schema/index.ts";
import * as comments from "../../models/comment.ts";
import * as reactionModel from "../../models/reaction.ts";
import * as users from "../../models/user.ts";
import { attachmentsOfComments } from "../../models/attachment.ts";
import { totalTrackedTime } from "../../models/tracked-time.ts";
import { ghostUser } from "../user/profile.ts";
import { listPullReviews, reviewCommentViews, type ReviewCommentView, type ReviewView } from "../pull/review-view.ts";
import type { IssueContext } from "./lookup.ts";
import { issueTimeline, type TimelineView } from "./timeline.ts";
import { timeTrackerEnabled } from "./times.ts";

/** The numbers the conversation pages tell timeline entries, reviews and merge states apart by. */
export { CommentType, PullStatus, ReviewType };

/** The reactions of one type on an issue or a comment. */
export interface ReactionSummary {
  type: string;
  count: number;
  /** Who reacted, the first few (the rest are counted only). */
  names: string[];
}

/** A review of the page's timeline with its code comments (those still standing). */
export interface ReviewOnPage {
  view: ReviewView;
  codeComments: ReviewCommentView[];
}

/** One page of an issue's conversation, with what its entries show. */
export interface ConversationPage {
  entries: TimelineView[];
  /** Comment rows of the issue in all (the pager counts these). */
  total: number;
  /** Reactions by comment id; the issue's own under 0 (on the first page only). */
  reactions: Map<number, ReactionSummary[]>;
  /** Files attached to the page's comments, by comment id. */
  attachments: Map<number, AttachmentRow[]>;
  /** The reviews whose timeline entries are on the page, by review id. */
  reviews: Map<number, ReviewOnPage>;
  /**
   * On the first page of a paged conversation: the comments shown on later pages and where, so a
   * link to `#issuecomment-{id}` (every comment's `html_url`) still leads to its comment.
   */
  elsewhere: { id: number; page: number }[];
}

/** How many reactors a summary names. */
const NAMED_REACTORS = 10;

function summarize(env: Env, rows: ReactionRow[], key: (r: ReactionRow) => number): Map<number, ReactionSummary[]> {
  const people = new Map(users.getUsersByIds(env.db, [...new Set(rows.map((r) => r.userId))]).map((u) => [u.id, u.name]));
  const order = env.settings.ui.reactions;
  const out = new Map<number, ReactionSummary[]>();
  for (const r of rows) {
    const list = out.get(key(r)) ?? [];
    out.set(key(r), list);
    let s = list.find((x) => x.type === r.type);
    if (!s) list.push((s = { type: r.type, count: 0, names: [] }));
    s.count++;
    if (s.names.length < NAMED_REACTORS) s.names.push(r.originalAuthor || people.get(r.userId) || ghostUser().name);
  }
  for (const list of out.values()) list.sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type));
  return out;
}

/**
 * A page of the issue's timeline (Gitea's ViewIssue, which shows it all at once: here
 * `perPage` entries a page, so a conversation of thousands of comments stays a page a browser
 * opens), with the reactions, attachments and reviews its entries show.
 */
export function conversationPage(env: Env, doer: UserRow | undefined, ic: IssueContext, pageNo: number, perPage: number): ConversationPage {
  const order = comments.commentOrder(env.db, ic.issue.id);
  const offset = (pageNo - 1) * perPage;
  const entries = offset < order.length ? issueTimeline(env, doer, ic, { page: { offset, limit: perPage } }) : [];

  // Reviews and dismissals of reviews name their review; a review's entry shows its code comments.
  const named = (type: number) => new Set(entries.filter((e) => e.comment.type === type && e.comment.reviewId > 0).map((e) => e.comment.reviewId));
  const reviewed = named(CommentType.Review);
  const dismissed = named(CommentType.DismissReview);
  const reviews = new Map<number, ReviewOnPage>();
  if (reviewed.size + dismissed.size > 0) {
    const place = { repo: ic.repo, owner: ic.owner, issue: ic.issue };
    for (const view of listPullReviews(env, place).views) {
      const id = view.review.id;
      if (view.review.type === ReviewType.Pending || !(reviewed.has(id) || dismissed.has(id))) continue;
      reviews.set(id, { view, codeComments: reviewed.has(id) ? reviewCommentViews(env, place, view.review) : [] });
    }
  }

  const commentIds = [
    ...entries.map((e) => e.comment.id),
    ...[...reviews.values()].flatMap((r) => r.codeComments.map((c) => c.comment.id)),
  ];
  const types = env.settings.ui.reactions;
  const reactions = summarize(env, reactionModel.reactionsOfComments(env.db, commentIds, types), (r) => r.commentId);
  if (pageNo === 1) {
    const own = reactionModel.findReactions(env.db, { issueId: ic.issue.id, commentId: 0 }, types).rows;
    const summary = summarize(env, own, () => 0).get(0);
    if (summary) reactions.set(0, summary);
  }
  const plain = entries.filter((e) => e.comment.type === CommentType.Comment).map((e) => e.comment.id);
  const attachments = attachmentsOfComments(env.db, plain);

  const elsewhere: { id: number; page: number }[] = [];
  if (pageNo === 1 && order.length > perPage) {
    const pageOf = (i: number) => Math.floor(i / perPage) + 1;
    const reviewPage = new Map<number, number>();
    order.forEach((c, i) => {
      if (c.type === CommentType.Review && c.reviewId > 0) reviewPage.set(c.reviewId, pageOf(i));
    });
    order.forEach((c, i) => {
      // A code comment is shown inside its review's entry; a pending review's are not shown at all.
      const page = c.type === CommentType.Code ? reviewPage.get(c.reviewId) : pageOf(i);
      if (page !== undefined && page > 1) elsewhere.push({ id: c.id, page });
    });
  }
  return { entries, total: order.length, reactions, attachments, reviews, elsewhere };
}

/** What the sidebar of a conversation adds to the issue: who took part, and the time spent on it. */
export interface ConversationSidebar {
  participants: UserRow[];
  /** Seconds spent, when the repository tracks time. */
  trackedSeconds: number | undefined;
}

/** How many participants the sidebar shows at most. */
const PARTICIPANTS_SHOWN = 50;

export function conversationSidebar(env: Env, ic: IssueContext, poster: UserRow): ConversationSidebar {
  const ids = comments.participantIds(env.db, ic.issue.id, PARTICIPANTS_SHOWN + 1).filter((id) => id !== poster.id && id > 0);
  const others = users.getUsersByIds(env.db, ids.slice(0, PARTICIPANTS_SHOWN - 1));
  others.sort((a, b) => a.lowerName.localeCompare(b.lowerName));
  return {
    participants: [poster, ...others],
    trackedSeconds: timeTrackerEnabled(ic.repo) ? totalTrackedTime(env.db, ic.issue.id) : undefined,
  };
}
