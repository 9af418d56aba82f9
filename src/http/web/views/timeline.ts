import type { AttachmentRow, UserRow } from "../../../db/schema/index.ts";
import type { TimelineView } from "../../../services/issue/timeline.ts";
import { CommentType, ReviewType, type ConversationPage, type ReactionSummary } from "../../../services/issue/conversation.ts";
import type { Env } from "../../../services/env.ts";
import { secToTime } from "../../../lib/duration.ts";
import { fileSize } from "../../../lib/file-size.ts";
import { html, type Html, type HtmlValue } from "../../../lib/html.ts";
import { avatarImg } from "../layout.ts";
import { timeAgo } from "./time.ts";
import { labelChip } from "./label.ts";
import { issueHref, userLink } from "./issue-list.ts";

/** What the timeline's entries need beyond themselves. */
export interface TimelineContext {
  env: Env;
  base: string;
  /** `/{owner}/{repo}` of the conversation's repository, below base. */
  repoHref: string;
  isPull: boolean;
  /** The code is readable: commits and branches are linked. */
  codeLinks: boolean;
  page: ConversationPage;
  /** Rendered Markdown by comment id (plain comments, reviews, code comments). */
  bodies: Map<number, Html>;
  /** For a merged pull request's merge entry: its commit and base branch. */
  merge?: { commit: string; base: string };
}

const EMOJI: Record<string, string> = {
  "+1": "👍",
  "-1": "👎",
  laugh: "😄",
  hooray: "🎉",
  confused: "😕",
  heart: "❤️",
  rocket: "🚀",
  eyes: "👀",
};

/** Reactions summed per kind: the emoji, the count, and who (for screen readers and as a tooltip). */
export function reactionList(list: ReactionSummary[] | undefined): Html {
  if (!list?.length) return html``;
  return html`<ul class="reaction-list" aria-label="Reactions">${list.map((r) => {
    const more = r.count - r.names.length;
    const who = `${r.names.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
    return html`<li title="${who} reacted with ${r.type}"><span aria-hidden="true">${EMOJI[r.type] ?? `:${r.type}:`} ${r.count}</span><span class="sr-only">${r.count} ${
      r.count === 1 ? "reaction" : "reactions"
    } ${r.type} by ${who}</span></li>`;
  })}</ul>`;
}


/** Files attached to an issue or a comment, each a link to `/attachments/{uuid}`. */
export function attachmentList(base: string, files: AttachmentRow[] | undefined): Html {
  if (!files?.length) return html``;
  return html`<ul class="attachment-list" aria-label="Attachments">${files.map(
    (a) => html`<li><a href="${base}/attachments/${encodeURIComponent(a.uuid)}">${a.name}</a> <span class="muted small">${fileSize(a.size)}</span></li>`,
  )}</ul>`;
}

/** Who did it: the migrated author's name as recorded, else the account (the Ghost when deleted). */
function actor(t: TimelineContext, e: TimelineView): Html {
  if (e.comment.originalAuthor) return html`<span class="author">${e.comment.originalAuthor}</span>`;
  return userLink(t.base, e.poster);
}

function avatarOf(t: TimelineContext, user: Pick<UserRow, "avatar" | "name">): Html {
  return avatarImg(t.env, user, 20);
}

/** `commented 3 days ago`: the age links to the entry itself, as Gitea's anchors. */
const permalink = (e: TimelineView) => html`<a class="permalink" href="#issuecomment-${e.comment.id}">${timeAgo(e.comment.createdUnix)}</a>`;

function shortSha(sha: string): string {
  return sha.slice(0, 10);
}

function commitLink(t: TimelineContext, sha: string): Html {
  return t.codeLinks ? html`<a class="sha" href="${t.repoHref}/commit/${encodeURIComponent(sha)}"><code>${shortSha(sha)}</code></a>` : html`<code>${shortSha(sha)}</code>`;
}

/** A one-line event: who, what, when. */
function event(t: TimelineContext, e: TimelineView, what: HtmlValue, extra: HtmlValue = "", who?: Pick<UserRow, "id" | "name" | "avatar">): Html {
  const person = who ?? e.poster;
  return html`<li class="event" id="issuecomment-${e.comment.id}">${avatarOf(t, person)}<div class="event-body"><span>${who ? userLink(t.base, who) : actor(t, e)} ${what} ${permalink(e)}</span>${extra}</div></li>`;
}

function milestoneName(t: TimelineContext, m: { id: number; name: string } | undefined): Html {
  return m ? html`<a href="${t.repoHref}/milestone/${m.id}"><strong>${m.name}</strong></a>` : html`<strong>(deleted)</strong>`;
}

function refLink(t: TimelineContext, e: TimelineView): Html {
  const ref = e.refIssue;
  if (!ref) return html``;
  const here = ref.repo.id === e.context.repo.id;
  const repoHref = `${t.base}/${encodeURIComponent(ref.owner.name)}/${encodeURIComponent(ref.repo.name)}`;
  const anchor = e.comment.refCommentId > 0 ? `#issuecomment-${e.comment.refCommentId}` : "";
  return html`<a href="${issueHref(repoHref, ref.issue)}${anchor}">${here ? "" : `${ref.owner.name}/${ref.repo.name}`}#${ref.issue.index} ${ref.issue.title}</a>`;
}

/** The words of a plain comment or a review's head, with its body, files and reactions. */
function commentBox(t: TimelineContext, e: TimelineView, what: HtmlValue, extra: HtmlValue = ""): Html {
  const edited = e.comment.updatedUnix > e.comment.createdUnix + 1 && e.comment.type === CommentType.Comment;
  const body = t.bodies.get(e.comment.id);
  return html`<li class="comment" id="issuecomment-${e.comment.id}"><header>${avatarOf(t, e.poster)} <span>${actor(t, e)} ${what} ${permalink(e)}${
    edited ? html` <span class="muted small">(edited)</span>` : ""
  }</span></header>
${body ? html`<div class="markup">${body}</div>` : e.comment.type === CommentType.Comment ? html`<p class="markup muted">No content.</p>` : ""}${extra}
${attachmentList(t.base, t.page.attachments.get(e.comment.id))}${reactionList(t.page.reactions.get(e.comment.id))}</li>`;
}

function reviewEntry(t: TimelineContext, e: TimelineView): Html {
  const review = t.page.reviews.get(e.comment.reviewId);
  const type = review?.view.review.type;
  const what = type === ReviewType.Approve ? "approved these changes" : type === ReviewType.Reject ? "requested changes" : "reviewed";
  const dismissed = review?.view.review.dismissed ? html` <span class="tag">Dismissed</span>` : "";
  const stale = review?.view.review.stale && !review.view.review.dismissed ? html` <span class="tag">Outdated</span>` : "";
  const codeComments = review?.codeComments ?? [];
  const extra = codeComments.length
    ? html`<ul class="code-comments" aria-label="Comments on the code">${codeComments.map((c) => {
        const line = c.comment.line;
        const body = t.bodies.get(c.comment.id);
        return html`<li id="issuecomment-${c.comment.id}"><p class="small"><code>${c.comment.treePath}</code>${line ? html` line ${Math.abs(line)}${line < 0 ? " (old)" : ""}` : ""}${
          c.comment.invalidated ? html` <span class="tag">Outdated</span>` : ""
        } — ${userLink(t.base, c.poster)} <a class="permalink" href="#issuecomment-${c.comment.id}">${timeAgo(c.comment.createdUnix)}</a></p>${
          body ? html`<div class="markup">${body}</div>` : ""
        }${reactionList(t.page.reactions.get(c.comment.id))}</li>`;
      })}</ul>`
    : "";
  return commentBox(t, e, html`${what}${dismissed}${stale}`, extra);
}

function pushEntry(t: TimelineContext, e: TimelineView): Html {
  let data: { is_force_push?: boolean; commit_ids?: string[] } = {};
  try {
    data = JSON.parse(e.comment.content) as typeof data;
  } catch {
    /* an entry without its commits: shown as a push */
  }
  const ids = (data.commit_ids ?? []).filter((id) => typeof id === "string" && /^[0-9a-f]{7,64}$/i.test(id));
  if (data.is_force_push && ids.length >= 2) return event(t, e, html`force-pushed from ${commitLink(t, ids[0]!)} to ${commitLink(t, ids[1]!)}`);
  const shown = ids.slice(0, 50);
  const list = shown.length
    ? html`<ul class="pushed-commits">${shown.map((id) => html`<li>${commitLink(t, id)}</li>`)}${ids.length > shown.length ? html`<li class="muted">and ${ids.length - shown.length} more</li>` : ""}</ul>`
    : "";
  return event(t, e, `added ${ids.length} commit${ids.length === 1 ? "" : "s"}`, list);
}

const kindNoun = (t: TimelineContext) => (t.isPull ? "pull request" : "issue");

/** One timeline entry as Gitea words it (templates/repo/issue/view_content/comments.tmpl). */
export function timelineEntry(t: TimelineContext, e: TimelineView): Html {
  const c = e.comment;
  switch (c.type) {
    case CommentType.Comment:
      return commentBox(t, e, "commented");
    case CommentType.Reopen:
      return event(t, e, `reopened this ${kindNoun(t)}`);
    case CommentType.Close:
      return event(t, e, c.commitSha ? html`closed this ${kindNoun(t)} in ${commitLink(t, c.commitSha)}` : `closed this ${kindNoun(t)}`);
    case CommentType.IssueRef:
    case CommentType.PullRef:
    case CommentType.CommentRef: {
      const what =
        c.refAction === 1
          ? `referenced a pull request that will close this ${kindNoun(t)}`
          : c.refAction === 2
            ? `referenced a pull request that will reopen this ${kindNoun(t)}`
            : `referenced this ${kindNoun(t)}`;
      return event(t, e, e.refIssue ? html`${what} in ${refLink(t, e)}` : what);
    }
    case CommentType.CommitRef:
      return event(
        t,
        e,
        html`referenced this ${kindNoun(t)} from a commit${c.commitSha ? html` ${commitLink(t, c.commitSha)}` : ""}`,
        c.content ? html`<p class="event-detail">${c.content.split("\n")[0]}</p>` : "",
      );
    case CommentType.Label:
      return event(t, e, e.label ? html`${c.content ? "added" : "removed"} the ${labelChip(e.label.row)} label` : `${c.content ? "added" : "removed"} a label`);
    case CommentType.Milestone:
      if (c.oldMilestoneId > 0 && c.milestoneId > 0) return event(t, e, html`modified the milestone from ${milestoneName(t, e.oldMilestone)} to ${milestoneName(t, e.milestone)}`);
      if (c.milestoneId > 0) return event(t, e, html`added this to the ${milestoneName(t, e.milestone)} milestone`);
      return event(t, e, html`removed this from the ${milestoneName(t, e.oldMilestone)} milestone`);
    case CommentType.Assignees: {
      const who = e.assignee;
      if (!who) return event(t, e, c.removedAssignee ? "removed an assignee" : "assigned someone");
      if (who.id === e.poster.id) return event(t, e, c.removedAssignee ? "removed their assignment" : "self-assigned this");
      return event(t, e, html`was ${c.removedAssignee ? "unassigned" : "assigned"} by ${actor(t, e)}`, "", who);
    }
    case CommentType.ChangeTitle:
      return event(t, e, html`changed title from <del>${c.oldTitle}</del> to <strong>${c.newTitle}</strong>`);
    case CommentType.DeleteBranch:
      return event(t, e, html`deleted branch <code>${c.oldRef}</code>`);
    case CommentType.StartTracking:
      return event(t, e, "started working");
    case CommentType.StopTracking:
      return event(t, e, `stopped working${timeText(e)}`);
    case CommentType.AddTimeManual:
      return event(t, e, `added spent time${timeText(e)}`);
    case CommentType.DeleteTimeManual:
      return event(t, e, `deleted spent time${timeText(e)}`);
    case CommentType.CancelTracking:
      return event(t, e, "cancelled time tracking");
    case CommentType.AddedDeadline:
      return event(t, e, html`added the due date <strong>${c.content}</strong>`);
    case CommentType.ModifiedDeadline: {
      const [now, before] = c.content.split("|");
      return event(t, e, html`modified the due date from <strong>${before ?? ""}</strong> to <strong>${now ?? ""}</strong>`);
    }
    case CommentType.RemovedDeadline:
      return event(t, e, html`removed the due date <strong>${c.content}</strong>`);
    case CommentType.AddDependency:
    case CommentType.RemoveDependency: {
      const dep = e.dependentIssue;
      const link = dep
        ? html` <a href="${issueHref(`${t.base}/${encodeURIComponent(dep.owner.name)}/${encodeURIComponent(dep.repo.name)}`, dep.issue)}">#${dep.issue.index} ${dep.issue.title}</a>`
        : "";
      return event(t, e, html`${c.type === CommentType.AddDependency ? "added a new dependency" : "removed a dependency"}${link}`);
    }
    case CommentType.Review:
      return reviewEntry(t, e);
    case CommentType.Lock:
      return event(t, e, c.content ? html`locked as <strong>${c.content}</strong> and limited conversation to collaborators` : "locked and limited conversation to collaborators");
    case CommentType.Unlock:
      return event(t, e, "unlocked this conversation");
    case CommentType.ChangeTargetBranch:
      return event(t, e, html`changed target branch from <code>${c.oldRef}</code> to <code>${c.newRef}</code>`);
    case CommentType.ReviewRequest: {
      const whom = e.assigneeTeam ? html`<strong>${e.assigneeTeam.org.name}/${e.assigneeTeam.team.name}</strong>` : e.assignee ? userLink(t.base, e.assignee) : html`someone`;
      if (c.removedAssignee && e.assignee && e.assignee.id === e.poster.id) return event(t, e, "refused to review");
      return event(t, e, c.removedAssignee ? html`removed review request for ${whom}` : html`requested review from ${whom}`);
    }
    case CommentType.MergePull:
      return event(
        t,
        e,
        t.merge?.commit ? html`merged commit ${commitLink(t, t.merge.commit)} into <code>${t.merge.base}</code>` : html`merged this pull request`,
      );
    case CommentType.PullRequestPush:
      return pushEntry(t, e);
    case CommentType.DismissReview: {
      const reviewer = t.page.reviews.get(c.reviewId)?.view.reviewer;
      return event(
        t,
        e,
        reviewer ? html`dismissed ${userLink(t.base, reviewer)}’s review` : "dismissed a review",
        c.content ? html`<p class="event-detail">${c.content}</p>` : "",
      );
    }
    case CommentType.ChangeIssueRef:
      if (c.oldRef && c.newRef) return event(t, e, html`changed reference from <del>${c.oldRef}</del> to <strong>${c.newRef}</strong>`);
      return event(t, e, c.newRef ? html`added reference <strong>${c.newRef}</strong>` : html`removed reference <strong>${c.oldRef}</strong>`);
    case CommentType.PRScheduledToAutoMerge:
      return event(t, e, "scheduled this pull request to auto merge when all checks succeed");
    case CommentType.PRUnScheduledToAutoMerge:
      return event(t, e, "canceled auto merging this pull request when all checks succeed");
    case CommentType.Pin:
      return event(t, e, `pinned this`);
    case CommentType.Unpin:
      return event(t, e, `unpinned this`);
    default:
      // Projects (not kept by hearth) and types this page does not know: nothing to say.
      return html``;
  }
}

function timeText(e: TimelineView): string {
  const seconds = e.storedSeconds ?? e.trackedTime?.time.time;
  if (seconds !== undefined) return ` ${secToTime(seconds)}`;
  return e.comment.content ? ` ${e.comment.content}` : "";
}

/**
 * Label events of one person within a minute of each other read as one line in Gitea ("added bug,
 * docs and removed wontfix"): here each stays its own line, so every event keeps its anchor.
 */
export function timelineList(t: TimelineContext, entries: TimelineView[], first: HtmlValue = ""): Html {
  return html`<ol class="timeline">${first}${entries.map((e) => timelineEntry(t, e))}</ol>`;
}

/**
 * On the first page of a long conversation: one hidden link per comment shown on a later page,
 * under the comment's own anchor. A link to `#issuecomment-{id}` (every comment's `html_url`)
 * makes that link the page's target, which the stylesheet then shows: "this comment is on page 3".
 */
export function elsewhereAnchors(page: ConversationPage): Html {
  if (!page.elsewhere.length) return html``;
  // Kept short (a 5,000-comment conversation has thousands): the stylesheet adds the words around "page 3".
  return html`<div class="elsewhere">${page.elsewhere.map((x) => html`<a id="issuecomment-${x.id}" href="?page=${x.page}#issuecomment-${x.id}">page ${x.page}</a>`)}</div>`;
}
