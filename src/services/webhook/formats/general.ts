/**
 * The texts the chat-style hook types share (Gitea's services/webhook/general.go): one line per
 * event, with links rendered by each type's link formatter (Slack's `<url|text>`, HTML for Matrix
 * and Telegram, plain text for the rest), and the colour the event is shown in.
 */
import type {
  CommitStatusPayload,
  IssueCommentPayload,
  IssuePayload,
  PackagePayload,
  PayloadUserRef,
  PullRequestPayload,
  ReleasePayload,
  WikiPayload,
} from "./payload-shapes.ts";
import type { HookEventType } from "../event-types.ts";

/** Gitea's colours (discord.go), as integers; Slack and MS Teams print them in hex. */
const color = (hex: string) => Number.parseInt(hex, 16);
export const greenColor = color("1ac600");
export const greenColorLight = color("bfe5bf");
export const yellowColor = color("ffd930");
export const greyColor = color("4f545c");
export const purpleColor = color("7289da");
export const orangeColor = color("eb6420");
export const orangeColorLight = color("e68d60");
export const redColor = color("ff3232");

/** Go's `%x` of a colour. */
export const hexColor = (c: number) => c.toString(16);

export type LinkFormatter = (url: string, text: string) => string;

export const noneLinkFormatter: LinkFormatter = (_url, text) => text;

/** Go's html.EscapeString. */
export function htmlEscape(s: string): string {
  return s.replace(/[&'<>"]/g, (c) => ({ "&": "&amp;", "'": "&#39;", "<": "&lt;", ">": "&gt;", '"': "&#34;" })[c] ?? c);
}

export const htmlLinkFormatter: LinkFormatter = (url, text) => `<a href="${htmlEscape(url)}">${htmlEscape(text)}</a>`;

const hex = (b: number) => "%" + b.toString(16).toUpperCase().padStart(2, "0");

/** Go's url.PathEscape: unreserved characters and `$&+,:;=@` stay, everything else is %-encoded. */
export function pathEscape(s: string): string {
  let out = "";
  for (const b of new TextEncoder().encode(s)) {
    const c = String.fromCharCode(b);
    out += /[A-Za-z0-9\-_.~$&+,:;=@]/.test(c) ? c : hex(b);
  }
  return out;
}

/** Go's url.QueryEscape: unreserved characters stay, a space becomes `+`. */
export function queryEscape(s: string): string {
  let out = "";
  for (const b of new TextEncoder().encode(s)) {
    const c = String.fromCharCode(b);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : c === " " ? "+" : hex(b);
  }
  return out;
}

/** Gitea's util.PathEscapeSegments: each `/`-separated segment path-escaped. */
export const pathEscapeSegments = (path: string) => path.split("/").map(pathEscape).join("/");

/** Gitea's git.RefName(ref).ShortName(). */
export function refShortName(ref: string): string {
  for (const prefix of ["refs/heads/", "refs/tags/", "refs/remotes/", "refs/for/"]) {
    if (ref.startsWith(prefix)) return ref.slice(prefix.length);
  }
  const pull = /^refs\/pull\/(.+)\/head$/.exec(ref);
  return pull?.[1] ?? ref;
}

const SHA = /^[0-9a-f]{40}$/;

/**
 * Gitea's git.RefURL: where a ref is browsed. A short name that is not a commit id is taken for a
 * branch (create payloads carry short names, so a created tag links to /src/branch/ as in Gitea).
 */
export function refURL(repoURL: string, ref: string): string {
  const name = pathEscapeSegments(refShortName(ref));
  if (ref.startsWith("refs/heads/")) return `${repoURL}/src/branch/${name}`;
  if (ref.startsWith("refs/tags/")) return `${repoURL}/src/tag/${name}`;
  if (!SHA.test(ref)) return `${repoURL}/src/branch/${name}`;
  return `${repoURL}/src/commit/${name}`;
}

/** Gitea's base.ShortSha. */
export const shortSha = (sha: string) => sha.slice(0, 10);

/** A commit id as Gitea's `commit.ID[:7]` prints it. */
export const shortCommitId = (id: string) => id.slice(0, 7);

/**
 * A user's profile URL, which Gitea writes as setting.AppURL + the user name: a payload's user
 * carries exactly that as `html_url`.
 */
export const profileURL = (u: PayloadUserRef | null | undefined) => u?.html_url ?? "";

const login = (u: PayloadUserRef | null | undefined) => u?.login ?? "";

function bySender(sender: PayloadUserRef, link: LinkFormatter): string {
  return ` by ${link(profileURL(sender), login(sender))}`;
}

export interface IssuesPayloadInfo {
  text: string;
  issueTitle: string;
  extraMarkdown: string;
  color: number;
}

export function getIssuesPayloadInfo(p: IssuePayload, link: LinkFormatter, withSender: boolean): IssuesPayloadInfo {
  let color = yellowColor;
  const issueTitle = `#${p.number} ${p.issue.title}`;
  const titleLink = link(`${p.repository.html_url}/issues/${p.number}`, issueTitle);
  const repoLink = link(p.repository.html_url, p.repository.full_name);
  let text = "";
  switch (p.action) {
    case "opened":
      text = `[${repoLink}] Issue opened: ${titleLink}`;
      color = orangeColor;
      break;
    case "closed":
      text = `[${repoLink}] Issue closed: ${titleLink}`;
      color = redColor;
      break;
    case "reopened":
      text = `[${repoLink}] Issue re-opened: ${titleLink}`;
      break;
    case "edited":
      text = `[${repoLink}] Issue edited: ${titleLink}`;
      break;
    case "assigned": {
      const list = (p.issue.assignees ?? []).map((u) => link(profileURL(u), u.login));
      text = `[${repoLink}] Issue assigned to ${list.join(", ")}: ${titleLink}`;
      color = greenColor;
      break;
    }
    case "unassigned":
      text = `[${repoLink}] Issue unassigned: ${titleLink}`;
      break;
    case "label_updated":
      text = `[${repoLink}] Issue labels updated: ${titleLink}`;
      break;
    case "label_cleared":
      text = `[${repoLink}] Issue labels cleared: ${titleLink}`;
      break;
    case "synchronized":
      text = `[${repoLink}] Issue synchronized: ${titleLink}`;
      break;
    case "milestoned": {
      const milestone = p.issue.milestone;
      const milestoneLink = `${p.repository.html_url}/milestone/${milestone?.id ?? 0}`;
      text = `[${repoLink}] Issue milestoned to ${link(milestoneLink, milestone?.title ?? "")}: ${titleLink}`;
      break;
    }
    case "demilestoned":
      text = `[${repoLink}] Issue milestone cleared: ${titleLink}`;
      break;
  }
  if (withSender) text += bySender(p.sender, link);
  const extraMarkdown = p.action === "opened" || p.action === "edited" ? p.issue.body : "";
  return { text, issueTitle, extraMarkdown, color };
}

export function getPullRequestPayloadInfo(p: PullRequestPayload, link: LinkFormatter, withSender: boolean): IssuesPayloadInfo {
  let color = yellowColor;
  const pr = p.pull_request;
  const issueTitle = `#${p.number} ${pr.title}`;
  const titleLink = link(pr.url ?? pr.html_url, issueTitle);
  const repoLink = link(p.repository.html_url, p.repository.full_name);
  let text = "";
  let extraMarkdown = "";
  switch (p.action) {
    case "opened":
      text = `[${repoLink}] Pull request opened: ${titleLink}`;
      extraMarkdown = pr.body;
      color = greenColor;
      break;
    case "closed":
      if (pr.merged) {
        text = `[${repoLink}] Pull request merged: ${titleLink}`;
        color = purpleColor;
      } else {
        text = `[${repoLink}] Pull request closed: ${titleLink}`;
        color = redColor;
      }
      break;
    case "reopened":
      text = `[${repoLink}] Pull request re-opened: ${titleLink}`;
      break;
    case "edited":
      text = `[${repoLink}] Pull request edited: ${titleLink}`;
      extraMarkdown = pr.body;
      break;
    case "assigned": {
      const list = (pr.assignees ?? []).map((u) => link(profileURL(u), u.login));
      text = `[${repoLink}] Pull request assigned to ${list.join(", ")}: ${titleLink}`;
      color = greenColor;
      break;
    }
    case "unassigned":
      text = `[${repoLink}] Pull request unassigned: ${titleLink}`;
      break;
    case "label_updated":
      text = `[${repoLink}] Pull request labels updated: ${titleLink}`;
      break;
    case "label_cleared":
      text = `[${repoLink}] Pull request labels cleared: ${titleLink}`;
      break;
    case "synchronized":
      text = `[${repoLink}] Pull request synchronized: ${titleLink}`;
      break;
    case "milestoned": {
      const milestone = pr.milestone;
      const milestoneLink = `${p.repository.html_url}/milestone/${milestone?.id ?? 0}`;
      text = `[${repoLink}] Pull request milestoned to ${link(milestoneLink, milestone?.title ?? "")}: ${titleLink}`;
      break;
    }
    case "demilestoned":
      text = `[${repoLink}] Pull request milestone cleared: ${titleLink}`;
      break;
    case "reviewed":
      text = `[${repoLink}] Pull request reviewed: ${titleLink}`;
      extraMarkdown = p.review?.content ?? "";
      break;
    case "review_requested":
      text = `[${repoLink}] Pull request review requested: ${titleLink}`;
      break;
    case "review_request_removed":
      text = `[${repoLink}] Pull request review request removed: ${titleLink}`;
      break;
  }
  if (withSender) text += bySender(p.sender, link);
  return { text, issueTitle, extraMarkdown, color };
}

export function getReleasePayloadInfo(p: ReleasePayload, link: LinkFormatter, withSender: boolean): { text: string; color: number } {
  const repoLink = link(p.repository.html_url, p.repository.full_name);
  const refLink = link(`${p.repository.html_url}/releases/tag/${pathEscapeSegments(p.release.tag_name)}`, p.release.tag_name);
  let text = "";
  let color = 0;
  switch (p.action) {
    case "published":
      text = `[${repoLink}] Release created: ${refLink}`;
      color = greenColor;
      break;
    case "updated":
      text = `[${repoLink}] Release updated: ${refLink}`;
      color = yellowColor;
      break;
    case "deleted":
      text = `[${repoLink}] Release deleted: ${refLink}`;
      color = redColor;
      break;
  }
  if (withSender) text += bySender(p.sender, link);
  return { text, color };
}

export function getWikiPayloadInfo(p: WikiPayload, link: LinkFormatter, withSender: boolean): { text: string; color: number; pageLink: string } {
  const repoLink = link(p.repository.html_url, p.repository.full_name);
  const pageLink = link(`${p.repository.html_url}/wiki/${pathEscape(p.page)}`, p.page);
  let text = "";
  let color = greenColor;
  switch (p.action) {
    case "created":
      text = `[${repoLink}] New wiki page '${pageLink}'`;
      break;
    case "edited":
      text = `[${repoLink}] Wiki page '${pageLink}' edited`;
      color = yellowColor;
      break;
    case "deleted":
      text = `[${repoLink}] Wiki page '${pageLink}' deleted`;
      color = redColor;
      break;
  }
  if (p.action !== "deleted" && p.comment !== "") text += ` (${p.comment})`;
  if (withSender) text += bySender(p.sender, link);
  return { text, color, pageLink };
}

export function getIssueCommentPayloadInfo(
  p: IssueCommentPayload,
  link: LinkFormatter,
  withSender: boolean,
): { text: string; issueTitle: string; color: number } {
  const repoLink = link(p.repository.html_url, p.repository.full_name);
  const issueTitle = `#${p.issue.number} ${p.issue.title}`;
  const typ = p.is_pull ? "pull request" : "issue";
  const titleLink = link((p.is_pull ? p.comment.pull_request_url : p.comment.issue_url) ?? "", issueTitle);
  let text = "";
  let color = yellowColor;
  switch (p.action) {
    case "created":
      text = `[${repoLink}] New comment on ${typ} ${titleLink}`;
      color = p.is_pull ? greenColorLight : orangeColorLight;
      break;
    case "edited":
      text = `[${repoLink}] Comment edited on ${typ} ${titleLink}`;
      break;
    case "deleted":
      text = `[${repoLink}] Comment deleted on ${typ} ${titleLink}`;
      color = redColor;
      break;
  }
  if (withSender) text += bySender(p.sender, link);
  return { text, issueTitle, color };
}

export function getPackagePayloadInfo(p: PackagePayload, link: LinkFormatter, withSender: boolean): { text: string; color: number } {
  const refLink = link(p.package.html_url, `${p.package.name}:${p.package.version}`);
  let text = "";
  let color = 0;
  switch (p.action) {
    case "created":
      text = `Package created: ${refLink}`;
      color = greenColor;
      break;
    case "deleted":
      text = `Package deleted: ${refLink}`;
      color = redColor;
      break;
  }
  if (withSender) text += bySender(p.sender, link);
  return { text, color };
}

export function getStatusPayloadInfo(p: CommitStatusPayload, link: LinkFormatter, withSender: boolean): { text: string; color: number } {
  const refLink = link(p.target_url, `${p.context}[${p.sha}]:${p.description}`);
  let text = `Commit Status changed: ${refLink}`;
  if (withSender) text += bySender(p.sender, link);
  return { text, color: greenColor };
}

/** The plain-text blocks Feishu renders (getIssuesInfo / getPullRequestInfo / getIssuesCommentInfo). */
export interface PlainInfo {
  title: string;
  link: string;
  by: string;
  operator: string;
  operateResult: string;
  assignees: string;
}

function assigneesOf(list: PayloadUserRef[]): string {
  return list.length > 0 ? `Assignees: ${list.map((u) => u.login).join(", ")}` : "";
}

function operateResultOf(action: string, sender: PayloadUserRef, assignees: PayloadUserRef[], repoURL: string, milestoneId: number | undefined): string {
  if (action === "assigned") return `${login(sender)} assign this to ${assignees.at(-1)?.login ?? ""}`;
  if (action === "unassigned") return `${login(sender)} unassigned this for someone`;
  if (action === "milestoned") return `${repoURL}/milestone/${milestoneId ?? 0}`;
  return "";
}

export function getIssuesInfo(p: IssuePayload): PlainInfo {
  const assignees = p.issue.assignees ?? [];
  return {
    title: `[Issue-${p.repository.full_name} #${p.issue.number}]: ${p.action}\n${p.issue.title}`,
    link: p.issue.html_url,
    by: `Issue by ${login(p.issue.user)}`,
    operator: `Operator: ${login(p.sender)}`,
    operateResult: operateResultOf(p.action, p.sender, assignees, p.repository.html_url, p.issue.milestone?.id),
    assignees: assigneesOf(assignees),
  };
}

export function getPullRequestInfo(p: PullRequestPayload): PlainInfo {
  const pr = p.pull_request;
  const assignees = pr.assignees ?? [];
  return {
    title: `[PullRequest-${p.repository.full_name} #${pr.number}]: ${p.action}\n${pr.title}`,
    link: pr.html_url,
    by: `PullRequest by ${login(pr.user)}`,
    operator: `Operator: ${login(p.sender)}`,
    operateResult: operateResultOf(p.action, p.sender, assignees, p.repository.html_url, pr.milestone?.id),
    assignees: assigneesOf(assignees),
  };
}

export function getIssuesCommentInfo(p: IssueCommentPayload): Pick<PlainInfo, "title" | "link" | "by" | "operator"> {
  return {
    title: `[Comment-${p.repository.full_name} #${p.issue.number}]: ${p.action}\n${p.issue.title}`,
    link: p.issue.html_url,
    by: `${p.is_pull ? "PullRequest" : "Issue"} by ${login(p.issue.user)}`,
    operator: `Operator: ${login(p.sender)}`,
  };
}

/** Gitea's parseHookPullRequestEventType: the review verb of a review event. */
/** The colour a review's verdict is shown in (Discord's embed, MS Teams' card). */
export function reviewColor(event: HookEventType): number {
  switch (event) {
    case "pull_request_review_approved":
      return greenColor;
    case "pull_request_review_rejected":
      return redColor;
    case "pull_request_review_comment":
      return greyColor;
    default:
      return yellowColor;
  }
}

export function reviewAction(event: HookEventType): string {
  switch (event) {
    case "pull_request_review_approved":
      return "approved";
    case "pull_request_review_rejected":
      return "rejected";
    case "pull_request_review_comment":
      return "comment";
    default:
      throw new Error(`unknown event type: ${event}`);
  }
}
