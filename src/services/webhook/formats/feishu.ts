/**
 * The `feishu` hook type (Gitea's services/webhook/feishu.go): a plain text message for a Feishu
 * (Lark) custom bot.
 */
import type { PayloadFormatter } from "../contracts.ts";
import { convertPayload, type Convertor } from "./convert.ts";
import {
  getIssuesCommentInfo,
  getIssuesInfo,
  getPackagePayloadInfo,
  getPullRequestInfo,
  getReleasePayloadInfo,
  getStatusPayloadInfo,
  getWikiPayloadInfo,
  noneLinkFormatter,
  refShortName,
  reviewAction,
  shortCommitId,
  type PlainInfo,
} from "./general.ts";
import { goJSON } from "./json.ts";

interface FeishuPayload {
  msg_type: string;
  content: { text: string };
}

const text = (s: string): FeishuPayload => ({ msg_type: "text", content: { text: s.trim() } });

/** Gitea's Issue/PullRequest text: the operation's result only for (un)assignments and milestones. */
function issueLike(info: PlainInfo, action: string, body: string): FeishuPayload {
  const { title, link, by, operator, operateResult, assignees } = info;
  if (assignees !== "") {
    if (action === "assigned" || action === "unassigned" || action === "milestoned") {
      return text(`${title}\n${link}\n${by}\n${operator}\n${operateResult}\n${assignees}\n\n${body}`);
    }
    return text(`${title}\n${link}\n${by}\n${operator}\n${assignees}\n\n${body}`);
  }
  return text(`${title}\n${link}\n${by}\n${operator}\n\n${body}`);
}

const feishuConvertor: Convertor<FeishuPayload> = {
  create: (p) => text(`[${p.repository.full_name}] ${p.ref_type} ${refShortName(p.ref)} created`),
  delete: (p) => text(`[${p.repository.full_name}] ${p.ref_type} ${refShortName(p.ref)} deleted`),
  fork: (p) => text(`${p.forkee.full_name} is forked to ${p.repository.full_name}`),
  push(p) {
    // Gitea leaves the commit count out of this title (its commitDesc is never set).
    const head = `[${p.repository.full_name}:${refShortName(p.ref)}] \r\n`;
    const lines = (p.commits ?? []).map(
      (c) => `[${shortCommitId(c.id)}](${c.url}) ${c.message.replace(/[\r\n]+$/, "")}` + (c.author ? ` - ${c.author.name}` : ""),
    );
    return text(head + lines.join("\r\n"));
  },
  issue: (p) => issueLike(getIssuesInfo(p), p.action, p.issue.body),
  issueComment(p) {
    const { title, link, by, operator } = getIssuesCommentInfo(p);
    return text(`${title}\n${link}\n${by}\n${operator}\n\n${p.comment.body}`);
  },
  pullRequest: (p) => issueLike(getPullRequestInfo(p), p.action, p.pull_request.body),
  review(p, event) {
    const title = `[${p.repository.full_name}] Pull request review ${reviewAction(event)} : #${p.number} ${p.pull_request.title}`;
    return text(`${title}\r\n\r\n${p.review?.content ?? ""}`);
  },
  repository(p) {
    if (p.action === "created") return text(`[${p.repository.full_name}] Repository created`);
    if (p.action === "deleted") return text(`[${p.repository.full_name}] Repository deleted`);
    return { msg_type: "", content: { text: "" } };
  },
  wiki: (p) => text(getWikiPayloadInfo(p, noneLinkFormatter, true).text),
  release: (p) => text(getReleasePayloadInfo(p, noneLinkFormatter, true).text),
  package: (p) => text(getPackagePayloadInfo(p, noneLinkFormatter, true).text),
  status: (p) => text(getStatusPayloadInfo(p, noneLinkFormatter, true).text),
};

export const formatFeishu: PayloadFormatter = (_hook, event, payload) => ({
  body: goJSON(convertPayload(feishuConvertor, event, payload)),
  contentType: "application/json",
});
