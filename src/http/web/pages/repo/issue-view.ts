import type { Doer } from "../../../../services/access/permission.ts";
import type { IssueContext } from "../../../../services/issue/lookup.ts";
import { issueView, type IssueView } from "../../../../services/issue/view.ts";
import { CommentType, conversationPage, conversationSidebar, type ConversationPage } from "../../../../services/issue/conversation.ts";
import { renderMarkdown } from "../../../../services/markup/markdown.ts";
import { secToTime } from "../../../../lib/duration.ts";
import { html, trusted, type Html, type HtmlValue } from "../../../../lib/html.ts";
import { page, type PageContext } from "../../page.ts";
import { avatarImg } from "../../layout.ts";
import { repoHeader, repoPath } from "../../views/repo-header.ts";
import { pageNumber, pager } from "../../views/pager.ts";
import { dateOnly, timeAgo } from "../../views/time.ts";
import { labelChip } from "../../views/label.ts";
import { stateOf, userLink } from "../../views/issue-list.ts";
import { attachmentList, elsewhereAnchors, reactionList, timelineList, type TimelineContext } from "../../views/timeline.ts";

/**
 * Timeline entries a page: Gitea shows a conversation whole; past this many entries hearth pages
 * it (`?page=`), so a conversation of thousands of comments never makes a page too big to open.
 */
export const TIMELINE_PAGE = 200;

export type IssuePage = PageContext & { doer: Doer | undefined };

/** Markdown of an issue, a comment or a review, rendered for the viewer in the repository's context (links, mentions, `#12`). */
function renderer(ctx: IssuePage, ic: IssueContext) {
  return async (text: string): Promise<Html | undefined> =>
    text.trim() ? trusted(await renderMarkdown(ctx.env, text, { mode: "comment", viewer: ctx.doer, repo: ic })) : undefined;
}

/** Every body the page shows, rendered at once (plain comments, reviews, code comments). */
async function renderBodies(ctx: IssuePage, ic: IssueContext, conv: ConversationPage): Promise<Map<number, Html>> {
  const render = renderer(ctx, ic);
  const texts: [number, string][] = [];
  for (const e of conv.entries) {
    if (e.comment.type === CommentType.Comment || e.comment.type === CommentType.Review) texts.push([e.comment.id, e.comment.content]);
  }
  for (const r of conv.reviews.values()) for (const c of r.codeComments) texts.push([c.comment.id, c.comment.content]);
  const out = new Map<number, Html>();
  await Promise.all(
    texts.map(async ([id, text]) => {
      const body = await render(text);
      if (body) out.set(id, body);
    }),
  );
  return out;
}

function sidebarSection(title: string, id: string, body: HtmlValue): Html {
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${title}</h2>${body}</section>`;
}

/** The sidebar: reviewers (pull requests), labels, milestone, assignees, participants, due date, time spent. */
function sidebar(ctx: IssuePage, ic: IssueContext, v: IssueView, extra: HtmlValue): Html {
  const { env, base } = ctx;
  const repoHref = repoPath(base, ic);
  const list = ic.issue.isPull ? "pulls" : "issues";
  const side = conversationSidebar(env, ic, v.poster);
  const none = (text: string) => html`<p class="muted small">${text}</p>`;
  const people = (users: { id: number; name: string; avatar: string }[]) =>
    html`<ul class="people">${users.map((u) => html`<li>${avatarImg(env, u, 20)} ${userLink(base, u)}</li>`)}</ul>`;
  const issue = ic.issue;
  const overdue = issue.deadlineUnix > 0 && !issue.isClosed && issue.deadlineUnix < Date.now() / 1000;
  return html`<aside class="sidebar issue-sidebar" aria-label="Details">
${extra}
${sidebarSection(
  "Labels",
  "side-labels",
  v.labels.length ? html`<p class="labels">${v.labels.map((l) => labelChip(l, `${repoHref}/${list}?labels=${l.id}`))}</p>` : none("No labels"),
)}
${sidebarSection(
  "Milestone",
  "side-milestone",
  v.milestone
    ? html`<p><a href="${repoHref}/milestone/${v.milestone.id}">${v.milestone.name}</a>${v.milestone.isClosed ? html` <span class="tag">Closed</span>` : ""}</p>`
    : none("No milestone"),
)}
${sidebarSection("Assignees", "side-assignees", v.assignees.length ? people(v.assignees) : none("No one assigned"))}
${sidebarSection(`${side.participants.length} ${side.participants.length === 1 ? "participant" : "participants"}`, "side-participants", people(side.participants))}
${
  issue.deadlineUnix > 0
    ? sidebarSection(
        "Due date",
        "side-due",
        html`<p class="${overdue ? "overdue" : ""}"><time datetime="${dateOnly(issue.deadlineUnix)}">${dateOnly(issue.deadlineUnix)}</time>${overdue ? " (overdue)" : ""}</p>`,
      )
    : ""
}
${side.trackedSeconds ? sidebarSection("Time spent", "side-time", html`<p>${secToTime(side.trackedSeconds)}</p>`) : ""}
${issue.isLocked ? sidebarSection("Conversation", "side-lock", html`<p>Locked: only collaborators can comment.</p>`) : ""}
</aside>`;
}

/** What a pull request's page adds to the conversation: its branches line, tabs and summary (above) and reviewers (in the sidebar). */
export interface PullParts {
  /** Who wants to merge (or merged) what into what: in place of "opened this issue". */
  stateLine: Html;
  tabs: Html;
  summary: Html;
  sidebar: Html;
  merge?: TimelineContext["merge"];
}

/**
 * An issue's or a pull request's conversation (Gitea's ViewIssue): title, state, author and age,
 * the body, the timeline a page at a time, the sidebar. Read-only.
 */
export async function conversation(ctx: IssuePage, ic: IssueContext, pull?: PullParts): Promise<Response> {
  const { env, base } = ctx;
  const issue = ic.issue;
  const v = issueView(env, ic.repo, ic.owner, issue);
  const pageNo = pageNumber(ctx.query);
  const conv = conversationPage(env, ctx.doer, ic, pageNo, TIMELINE_PAGE);
  const render = renderer(ctx, ic);
  const [bodies, issueBody] = await Promise.all([renderBodies(ctx, ic, conv), pageNo === 1 ? render(issue.content) : undefined]);
  const repoHref = repoPath(base, ic);
  const noun = issue.isPull ? "pull request" : "issue";
  const state = stateOf(v);
  const stateWord = state === "merged" ? "Merged" : state === "closed" ? "Closed" : "Open";
  const author = issue.originalAuthor ? html`<span class="author">${issue.originalAuthor}</span>` : userLink(base, v.poster);
  const t: TimelineContext = { env, base, repoHref, isPull: issue.isPull, codeLinks: ic.perm.canRead("code"), page: conv, bodies, merge: pull?.merge };

  const opening =
    pageNo === 1
      ? html`<li class="comment opening" id="issue-${issue.id}"><header>${avatarImg(env, v.poster, 20)} <span>${author} opened this ${noun} ${timeAgo(issue.createdUnix)}</span></header>
${issueBody ? html`<div class="markup">${issueBody}</div>` : html`<p class="markup muted">No description provided.</p>`}
${attachmentList(base, v.attachments)}${reactionList(conv.reactions.get(0))}</li>`
      : "";
  const paged = conv.total > TIMELINE_PAGE;
  const pages = paged ? pager(ctx.url, pageNo, TIMELINE_PAGE, conv.total) : html``;
  const from = (pageNo - 1) * TIMELINE_PAGE + 1;
  const upTo = Math.min(conv.total, pageNo * TIMELINE_PAGE);

  return ctx.render({
    title: `${issue.title} - ${noun === "issue" ? "Issue" : "Pull request"} #${issue.index} - ${ic.owner.name}/${ic.repo.name}`,
    body: html`${repoHeader(base, ic, issue.isPull ? "pulls" : "issues")}
<div class="issue-head">
<h2 class="issue-title">${issue.title} <span class="muted">#${issue.index}</span></h2>
<p class="issue-state"><span class="state ${state}">${stateWord}</span>${v.pull?.draft ? html` <span class="tag">Draft</span>` : ""}${
      issue.isLocked ? html` <span class="tag">Locked</span>` : ""
    } ${pull?.stateLine ?? html`${author} opened this ${noun} ${timeAgo(issue.createdUnix)} · ${issue.numComments} ${issue.numComments === 1 ? "comment" : "comments"}`}</p>
</div>
${pull?.tabs ?? ""}
${pull?.summary ?? ""}
<div class="layout-2">
<section class="conversation" aria-label="Conversation">
${paged ? html`<p class="muted small">Timeline entries ${from}–${upTo} of ${conv.total}; the pages are linked below.</p>` : ""}
${pageNo === 1 ? elsewhereAnchors(conv) : ""}
${timelineList(t, conv.entries, opening)}
${conv.entries.length === 0 && pageNo > 1 ? html`<p class="empty">This page of the conversation is empty.</p>` : ""}
${pages}
</section>
${sidebar(ctx, ic, v, pull?.sidebar ?? "")}
</div>`,
  });
}

/**
 * `/{owner}/{repo}/issues/{index}`: an issue's conversation. A pull request's number redirects to
 * its page under `/pulls/`, as Gitea's ViewIssue does.
 */
export const viewIssue = page({
  access: { scope: "public", signIn: false, repo: { read: "issues" }, issue: true },
  handler(ctx) {
    const ic = ctx.issue;
    if (ic.issue.isPull) return ctx.redirect(`${repoPath("", ic)}/pulls/${ic.issue.index}${ctx.url.search}`);
    return conversation(ctx, ic);
  },
});
