/**
 * The `telegram` hook type (Gitea's services/webhook/telegram.go): an HTML message for the Bot
 * API's sendMessage. The hook's URL already names the bot and the chat
 * (`https://api.telegram.org/bot<token>/sendMessage?chat_id=…`), so the body is only the text.
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
  htmlEscape,
  htmlLinkFormatter,
  pathEscapeSegments,
  refShortName,
  reviewAction,
  shortCommitId,
} from "./general.ts";
import { goJSON } from "./json.ts";

/** Gitea's TelegramMeta. */
export interface TelegramMeta {
  bot_token: string;
  chat_id: string;
  thread_id: string;
}

interface TelegramPayload {
  text: string;
  parse_mode: string;
  disable_web_page_preview: boolean;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** Undoes the HTML escaping of text or an attribute (named and numeric entities). */
function htmlUnescape(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/**
 * What Gitea's markup.Sanitize leaves of the messages built here: links keep their href and gain
 * rel="nofollow", other tags are dropped, and text is re-escaped as Go's html package writes it
 * (so a `'` becomes `&#39;`). The messages only ever hold escaped text and htmlLinkFormatter links.
 */
export function sanitizeTelegramHTML(html: string): string {
  let out = "";
  let last = 0;
  for (const m of html.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>/g)) {
    out += htmlEscape(htmlUnescape(html.slice(last, m.index)));
    last = m.index + m[0].length;
    const [, closing, tag = "", attrs = ""] = m;
    if (tag.toLowerCase() !== "a") continue;
    if (closing) {
      out += "</a>";
      continue;
    }
    const href = /\bhref\s*=\s*"([^"]*)"/i.exec(attrs)?.[1];
    out += href === undefined ? "<a>" : `<a href="${htmlEscape(htmlUnescape(href))}" rel="nofollow">`;
  }
  return out + htmlEscape(htmlUnescape(html.slice(last)));
}

const message = (html: string): TelegramPayload => ({
  text: sanitizeTelegramHTML(html).trim(),
  parse_mode: "HTML",
  disable_web_page_preview: true,
});

const telegramConvertor: Convertor<TelegramPayload> = {
  create(p) {
    const refName = refShortName(p.ref);
    const refLink = htmlLinkFormatter(`${p.repository.html_url}/src/${pathEscapeSegments(refName)}`, refName);
    return message(`[${htmlLinkFormatter(p.repository.html_url, p.repository.full_name)}] ${htmlEscape(p.ref_type)} ${refLink} created`);
  },
  delete(p) {
    const refName = refShortName(p.ref);
    const refLink = htmlLinkFormatter(`${p.repository.html_url}/src/${pathEscapeSegments(refName)}`, refName);
    return message(`[${htmlLinkFormatter(p.repository.html_url, p.repository.full_name)}] ${htmlEscape(p.ref_type)} ${refLink} deleted`);
  },
  fork: (p) => message(`${htmlEscape(p.forkee.full_name)} is forked to ${htmlLinkFormatter(p.repository.html_url, p.repository.full_name)}`),
  push(p) {
    const branchName = refShortName(p.ref);
    const commits = p.commits ?? [];
    const commitDesc = p.total_commits === 1 ? "1 new commit" : `${p.total_commits} new commits`;
    let titleLink = (p.total_commits === 1 ? commits[0]?.url : p.compare_url) ?? "";
    if (titleLink === "") titleLink = `${p.repository.html_url}/src/${pathEscapeSegments(branchName)}`;
    const title = `[${htmlLinkFormatter(p.repository.html_url, p.repository.full_name)}:${htmlLinkFormatter(titleLink, branchName)}] ${htmlEscape(commitDesc)}`;
    const lines = commits.map(
      (c) =>
        `\n[${htmlLinkFormatter(c.url, shortCommitId(c.id))}] ${htmlEscape(c.message.replace(/[\r\n]+$/, ""))}` +
        (c.author ? ` - ${htmlEscape(c.author.name)}` : ""),
    );
    return message(title + lines.join(""));
  },
  issue(p) {
    // The body stays unrendered Markdown: its links are relative to the repository (Gitea's TODO).
    const info = getIssuesPayloadInfo(p, htmlLinkFormatter, true);
    return message(`${info.text}\n\n${htmlEscape(info.extraMarkdown)}`);
  },
  issueComment(p) {
    const info = getIssueCommentPayloadInfo(p, htmlLinkFormatter, true);
    return message(`${info.text}\n${htmlEscape(p.comment.body)}`);
  },
  pullRequest(p) {
    const info = getPullRequestPayloadInfo(p, htmlLinkFormatter, true);
    return message(`${info.text}\n${htmlEscape(info.extraMarkdown)}`);
  },
  review(p, event) {
    let text = "";
    let extra = "";
    if (p.action === "reviewed") {
      text = `[${htmlEscape(p.repository.full_name)}] Pull request review ${htmlEscape(reviewAction(event))}: #${p.number} ${htmlEscape(p.pull_request.title)}`;
      extra = p.review?.content ?? "";
    }
    return message(`${text}\n${htmlEscape(extra)}`);
  },
  repository(p) {
    if (p.action === "created") return message(`[${htmlLinkFormatter(p.repository.html_url, p.repository.full_name)}] Repository created`);
    if (p.action === "deleted") return message(`[${htmlEscape(p.repository.full_name)}] Repository deleted`);
    // Gitea's zero TelegramPayload.
    return { text: "", parse_mode: "", disable_web_page_preview: false };
  },
  wiki: (p) => message(getWikiPayloadInfo(p, htmlLinkFormatter, true).text),
  release: (p) => message(getReleasePayloadInfo(p, htmlLinkFormatter, true).text),
  package: (p) => message(getPackagePayloadInfo(p, htmlLinkFormatter, true).text),
  status: (p) => message(getStatusPayloadInfo(p, htmlLinkFormatter, true).text),
};

export const formatTelegram: PayloadFormatter = (_hook, event, payload) => ({
  body: goJSON(convertPayload(telegramConvertor, event, payload)),
  contentType: "application/json",
});
