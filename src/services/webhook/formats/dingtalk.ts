/**
 * The `dingtalk` hook type (Gitea's services/webhook/dingtalk.go): an action card with a title, a
 * Markdown text and one button that opens the event's page in the browser.
 */
import type { PayloadFormatter } from "../contracts.ts";
import { convertPayload, type Convertor } from "./convert.ts";
import {
  getIssueCommentPayloadInfo,
  getIssuesPayloadInfo,
  getPackagePayloadInfo,
  getPullRequestPayloadInfo,
  getReleasePayloadInfo,
  getStatusPayloadInfo,
  getWikiPayloadInfo,
  noneLinkFormatter,
  pathEscape,
  pathEscapeSegments,
  queryEscape,
  refShortName,
  reviewAction,
  shortCommitId,
} from "./general.ts";
import { goJSON } from "./json.ts";

/** gitea.com/lunny/dingtalk_webhook's Payload, every field as Go writes it. */
interface DingtalkPayload {
  msgtype: string;
  text: { content: string };
  link: { text: string; title: string; picUrl: string; messageUrl: string };
  markdown: { text: string; title: string };
  actionCard: {
    text: string;
    title: string;
    hideAvatar: string;
    btnOrientation: string;
    singleTitle: string;
    singleURL: string;
    btns: null;
  };
  feedCard: { links: null };
  at: { atMobiles: null; isAtAll: boolean };
}

function emptyPayload(): DingtalkPayload {
  return {
    msgtype: "",
    text: { content: "" },
    link: { text: "", title: "", picUrl: "", messageUrl: "" },
    markdown: { text: "", title: "" },
    actionCard: { text: "", title: "", hideAvatar: "", btnOrientation: "", singleTitle: "", singleURL: "", btns: null },
    feedCard: { links: null },
    at: { atMobiles: null, isAtAll: false },
  };
}

function actionCard(title: string, text: string, singleTitle: string, singleURL: string): DingtalkPayload {
  const p = emptyPayload();
  p.msgtype = "actionCard";
  p.actionCard = {
    ...p.actionCard,
    text: text.trim(),
    title: title.trim(),
    hideAvatar: "0",
    singleTitle,
    // DingTalk opens this form of link in the browser rather than inside its client, where
    // non-public URLs are hard to reach (Gitea's comment).
    singleURL: "dingtalk://dingtalkclient/page/link?pc_slide=false&url=" + queryEscape(singleURL),
  };
  return p;
}

const dingtalkConvertor: Convertor<DingtalkPayload> = {
  create(p) {
    const refName = refShortName(p.ref);
    const title = `[${p.repository.full_name}] ${p.ref_type} ${refName} created`;
    return actionCard(title, title, `view ref ${refName}`, `${p.repository.html_url}/src/${pathEscapeSegments(refName)}`);
  },
  delete(p) {
    const refName = refShortName(p.ref);
    const title = `[${p.repository.full_name}] ${p.ref_type} ${refName} deleted`;
    return actionCard(title, title, `view ref ${refName}`, `${p.repository.html_url}/src/${pathEscapeSegments(refName)}`);
  },
  fork(p) {
    const title = `${p.forkee.full_name} is forked to ${p.repository.full_name}`;
    return actionCard(title, title, `view forked repo ${p.repository.full_name}`, p.repository.html_url);
  },
  push(p) {
    const branchName = refShortName(p.ref);
    const commits = p.commits ?? [];
    const one = p.total_commits === 1;
    const commitDesc = one ? "1 new commit" : `${p.total_commits} new commits`;
    const linkText = one ? "view commit" : "view commits";
    let titleLink = (one ? commits[0]?.url : p.compare_url) ?? "";
    if (titleLink === "") titleLink = `${p.repository.html_url}/src/${pathEscapeSegments(branchName)}`;
    const title = `[${p.repository.full_name}:${branchName}] ${commitDesc}`;
    const text = commits
      .map((c) => `[${shortCommitId(c.id)}](${c.url}) ${c.message.replace(/[\r\n]+$/, "")}` + (c.author ? ` - ${c.author.name}` : ""))
      .join("\r\n");
    return actionCard(title, text, linkText, titleLink);
  },
  issue(p) {
    const info = getIssuesPayloadInfo(p, noneLinkFormatter, true);
    return actionCard(info.issueTitle, `${info.text}\r\n\r\n${info.extraMarkdown}`, "view issue", p.issue.html_url);
  },
  issueComment(p) {
    const info = getIssueCommentPayloadInfo(p, noneLinkFormatter, true);
    return actionCard(info.issueTitle, `${info.text}\r\n\r\n${p.comment.body}`, "view issue comment", p.comment.html_url);
  },
  pullRequest(p) {
    const info = getPullRequestPayloadInfo(p, noneLinkFormatter, true);
    return actionCard(info.issueTitle, `${info.text}\r\n\r\n${info.extraMarkdown}`, "view pull request", p.pull_request.html_url);
  },
  review(p, event) {
    let title = "";
    let text = "";
    if (p.action === "reviewed") {
      title = `[${p.repository.full_name}] Pull request review ${reviewAction(event)} : #${p.number} ${p.pull_request.title}`;
      text = p.review?.content ?? "";
    }
    return actionCard(title, `${title}\r\n\r\n${text}`, "view pull request", p.pull_request.html_url);
  },
  repository(p) {
    if (p.action === "created") {
      const title = `[${p.repository.full_name}] Repository created`;
      return actionCard(title, title, "view repository", p.repository.html_url);
    }
    const deleted = emptyPayload();
    if (p.action === "deleted") {
      // A deleted repository has no page to open: a plain text message.
      deleted.msgtype = "text";
      deleted.text.content = `[${p.repository.full_name}] Repository deleted`;
    }
    return deleted;
  },
  wiki(p) {
    const { text } = getWikiPayloadInfo(p, noneLinkFormatter, true);
    return actionCard(text, text, "view wiki", `${p.repository.html_url}/wiki/${pathEscape(p.page)}`);
  },
  release(p) {
    const { text } = getReleasePayloadInfo(p, noneLinkFormatter, true);
    return actionCard(text, text, "view release", p.release.html_url);
  },
  package(p) {
    const { text } = getPackagePayloadInfo(p, noneLinkFormatter, true);
    return actionCard(text, text, "view package", p.package.html_url);
  },
  status(p) {
    const { text } = getStatusPayloadInfo(p, noneLinkFormatter, true);
    return actionCard(text, text, "Status Changed", p.target_url);
  },
};

export const formatDingtalk: PayloadFormatter = (_hook, event, payload) => ({
  body: goJSON(convertPayload(dingtalkConvertor, event, payload)),
  contentType: "application/json",
});
