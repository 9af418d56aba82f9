/**
 * The `slack` hook type (Gitea's services/webhook/slack.go): a message with Slack's `<url|text>`
 * links, posted with the channel, username, icon and colour of the hook's meta.
 */
import type { PayloadFormatter } from "../contracts.ts";
import { convertPayload, metaString, parseMeta, type Convertor } from "./convert.ts";
import {
  getIssueCommentPayloadInfo,
  getIssuesPayloadInfo,
  getPackagePayloadInfo,
  getPullRequestPayloadInfo,
  getReleasePayloadInfo,
  getStatusPayloadInfo,
  getWikiPayloadInfo,
  hexColor,
  profileURL,
  refShortName,
  refURL,
  reviewAction,
  shortCommitId,
} from "./general.ts";
import { goJSON } from "./json.ts";

/** Gitea's SlackMeta, as stored in the hook's meta column. */
export interface SlackMeta {
  channel: string;
  username: string;
  icon_url: string;
  color: string;
}

interface SlackAttachment {
  fallback: string;
  color: string;
  title: string;
  title_link: string;
  text: string;
}

interface SlackPayload {
  channel: string;
  text: string;
  username: string;
  icon_url: string;
  unfurl_links: number;
  link_names: number;
  attachments: SlackAttachment[] | null;
}

/** Slack's escaping of `&`, `<` and `>` (https://api.slack.com/docs/formatting). */
export const slackTextFormatter = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

const slackShortTextFormatter = (s: string) => slackTextFormatter(s.split("\n")[0] ?? "");

export const slackLinkFormatter = (url: string, text: string) => `<${url}|${slackTextFormatter(text)}>`;

const slackLinkToRef = (repoURL: string, ref: string) => slackLinkFormatter(refURL(repoURL, ref), refShortName(ref));

const attachment = (a: Omit<SlackAttachment, "fallback">): SlackAttachment => ({ fallback: "", ...a });

/**
 * Gitea's IsValidSlackChannel: Slack's conversation-name rules (lowercase letters, digits, `-`,
 * `_`, at most 80), optionally after a `#`.
 */
export function isValidSlackChannel(name: string): boolean {
  return /^#?[a-z0-9_-]{1,80}$/.test(name);
}

function slackConvertor(meta: SlackMeta): Convertor<SlackPayload> {
  const payload = (text: string, attachments: SlackAttachment[] | null = null): SlackPayload => ({
    channel: meta.channel,
    text,
    username: meta.username,
    icon_url: meta.icon_url,
    unfurl_links: 0,
    link_names: 0,
    attachments,
  });
  return {
    create(p) {
      const repoLink = slackLinkFormatter(p.repository.html_url, p.repository.full_name);
      const refLink = slackLinkToRef(p.repository.html_url, p.ref);
      return payload(`[${repoLink}:${refLink}] ${p.ref_type} created by ${p.sender.login}`);
    },
    delete(p) {
      const repoLink = slackLinkFormatter(p.repository.html_url, p.repository.full_name);
      return payload(`[${repoLink}:${refShortName(p.ref)}] ${p.ref_type} deleted by ${p.sender.login}`);
    },
    fork(p) {
      const baseLink = slackLinkFormatter(p.forkee.html_url, p.forkee.full_name);
      const forkLink = slackLinkFormatter(p.repository.html_url, p.repository.full_name);
      return payload(`${baseLink} is forked to ${forkLink}`);
    },
    issue(p) {
      const info = getIssuesPayloadInfo(p, slackLinkFormatter, true);
      const attachments =
        info.extraMarkdown !== ""
          ? [attachment({ color: hexColor(info.color), title: slackTextFormatter(info.issueTitle), title_link: p.issue.html_url, text: slackTextFormatter(info.extraMarkdown) })]
          : null;
      return payload(info.text, attachments);
    },
    issueComment(p) {
      const info = getIssueCommentPayloadInfo(p, slackLinkFormatter, true);
      return payload(info.text, [
        attachment({ color: hexColor(info.color), title: info.issueTitle, title_link: p.comment.html_url, text: slackTextFormatter(p.comment.body) }),
      ]);
    },
    push(p) {
      const commitDesc = p.total_commits === 1 ? "1 new commit" : `${p.total_commits} new commits`;
      const commitString = p.compare_url ? slackLinkFormatter(p.compare_url, commitDesc) : commitDesc;
      const repoLink = slackLinkFormatter(p.repository.html_url, p.repository.full_name);
      const branchLink = slackLinkToRef(p.repository.html_url, p.ref);
      const text = `[${repoLink}:${branchLink}] ${commitString} pushed by ${p.pusher?.login ?? ""}`;
      const attachmentText = (p.commits ?? [])
        .map((c) => `${slackLinkFormatter(c.url, shortCommitId(c.id))}: ${slackShortTextFormatter(c.message)} - ${slackTextFormatter(c.author?.name ?? "")}`)
        .join("\n");
      return payload(text, [attachment({ color: meta.color, title: p.repository.html_url, title_link: p.repository.html_url, text: attachmentText })]);
    },
    pullRequest(p) {
      const info = getPullRequestPayloadInfo(p, slackLinkFormatter, true);
      const attachments =
        info.extraMarkdown !== ""
          ? [
              attachment({
                color: hexColor(info.color),
                title: slackTextFormatter(info.issueTitle),
                title_link: p.pull_request.html_url,
                // Gitea puts the pull request's body here, also for a review's attachment.
                text: slackTextFormatter(p.pull_request.body),
              }),
            ]
          : null;
      return payload(info.text, attachments);
    },
    review(p, event) {
      const senderLink = slackLinkFormatter(profileURL(p.sender), p.sender.login);
      const title = `#${p.number} ${p.pull_request.title}`;
      const titleLink = `${p.repository.html_url}/pulls/${p.number}`;
      const repoLink = slackLinkFormatter(p.repository.html_url, p.repository.full_name);
      const text = p.action === "reviewed" ? `[${repoLink}] Pull request review ${reviewAction(event)}: [${title}](${titleLink}) by ${senderLink}` : "";
      return payload(text);
    },
    repository(p) {
      const senderLink = slackLinkFormatter(profileURL(p.sender), p.sender.login);
      const repoLink = slackLinkFormatter(p.repository.html_url, p.repository.full_name);
      if (p.action === "created") return payload(`[${repoLink}] Repository created by ${senderLink}`);
      if (p.action === "deleted") return payload(`[${repoLink}] Repository deleted by ${senderLink}`);
      return payload("");
    },
    release: (p) => payload(getReleasePayloadInfo(p, slackLinkFormatter, true).text),
    wiki: (p) => payload(getWikiPayloadInfo(p, slackLinkFormatter, true).text),
    package: (p) => payload(getPackagePayloadInfo(p, slackLinkFormatter, true).text),
    status: (p) => payload(getStatusPayloadInfo(p, slackLinkFormatter, true).text),
  };
}

export const formatSlack: PayloadFormatter = (hook, event, payload) => {
  const m = parseMeta(hook.meta);
  const meta: SlackMeta = { channel: metaString(m, "channel"), username: metaString(m, "username"), icon_url: metaString(m, "icon_url"), color: metaString(m, "color") };
  return { body: goJSON(convertPayload(slackConvertor(meta), event, payload)), contentType: "application/json" };
};
