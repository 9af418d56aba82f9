/**
 * The `wechatwork` hook type (Gitea's services/webhook/wechatwork.go): a Markdown message for a
 * WeChat Work (WeCom) group robot, with its `<font color>` highlights.
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
  refShortName,
  reviewAction,
  shortCommitId,
} from "./general.ts";
import { goJSON } from "./json.ts";

interface WechatworkPayload {
  msgtype: string;
  text: { content: string; mentioned_list: null; mentioned_mobile_list: null };
  markdown: { content: string };
}

const emptyText = () => ({ content: "", mentioned_list: null, mentioned_mobile_list: null });

const markdown = (content: string): WechatworkPayload => ({ msgtype: "markdown", text: emptyText(), markdown: { content } });

const wechatworkConvertor: Convertor<WechatworkPayload> = {
  create: (p) => markdown(`[${p.repository.full_name}] ${p.ref_type} ${refShortName(p.ref)} created`),
  delete: (p) => markdown(`[${p.repository.full_name}] ${p.ref_type} ${refShortName(p.ref)} deleted`),
  fork: (p) => markdown(`${p.forkee.full_name} is forked to ${p.repository.full_name}`),
  push(p) {
    // Gitea leaves the commit count out of this title (its commitDesc is never set).
    const title = `# ${p.repository.full_name}:${refShortName(p.ref)} <font color="warning">    </font>`;
    const lines = (p.commits ?? []).map((c) => {
      const author = c.author ? `Author: ${c.author.name}` : "";
      const message = c.message.replaceAll("\n\n", "\r\n");
      return ` > [${shortCommitId(c.id)}](${c.url}) \r\n ><font color="info">${message}</font> \n ><font color="warning">${author}</font>`;
    });
    return markdown(`${title}\r\n\r\n${lines.join("\n")}`);
  },
  issue(p) {
    const { text, issueTitle, extraMarkdown } = getIssuesPayloadInfo(p, noneLinkFormatter, true);
    const url = p.issue.html_url;
    return markdown(` ><font color="info">${text}</font>\n >${extraMarkdown} \n ><font color="warning"> ${issueTitle}</font> \n [${url}](${url})`);
  },
  issueComment(p) {
    const { text, issueTitle } = getIssueCommentPayloadInfo(p, noneLinkFormatter, true);
    const url = p.comment.html_url;
    return markdown(` ><font color="info">${text}</font>\n >${p.comment.body} \n ><font color="warning">${issueTitle}</font> \n [${url}](${url})`);
  },
  pullRequest(p) {
    const { text, issueTitle, extraMarkdown } = getPullRequestPayloadInfo(p, noneLinkFormatter, true);
    return markdown(
      `> <font color="info"> ${text} </font> \r\n > <font color="comment">${issueTitle} </font> \r\n > <font color="comment">${extraMarkdown} </font> \r\n`,
    );
  },
  review(p, event) {
    let title = "";
    let text = "";
    if (p.action === "reviewed") {
      title = `[${p.repository.full_name}] Pull request review ${reviewAction(event)} : #${p.number} ${p.pull_request.title}`;
      text = p.review?.content ?? "";
    }
    return markdown(`# ${title}\r\n\r\n >${text}`);
  },
  repository(p) {
    if (p.action === "created") return markdown(`[${p.repository.full_name}] Repository created`);
    if (p.action === "deleted") return markdown(`[${p.repository.full_name}] Repository deleted`);
    return { msgtype: "", text: emptyText(), markdown: { content: "" } };
  },
  wiki: (p) => markdown(getWikiPayloadInfo(p, noneLinkFormatter, true).text),
  release: (p) => markdown(getReleasePayloadInfo(p, noneLinkFormatter, true).text),
  package: (p) => markdown(getPackagePayloadInfo(p, noneLinkFormatter, true).text),
  status: (p) => markdown(getStatusPayloadInfo(p, noneLinkFormatter, true).text),
};

export const formatWechatwork: PayloadFormatter = (_hook, event, payload) => ({
  body: goJSON(convertPayload(wechatworkConvertor, event, payload)),
  contentType: "application/json",
});
