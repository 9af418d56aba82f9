/**
 * The `discord` hook type (Gitea's services/webhook/discord.go): one embed per event, with a
 * title, a Markdown description, a link, a colour and the sender as author.
 */
import type { PayloadFormatter } from "../contracts.ts";
import type { PayloadUserRef } from "./payload-shapes.ts";
import { convertPayload, metaString, parseMeta, type Convertor } from "./convert.ts";
import {
  getIssueCommentPayloadInfo,
  getIssuesPayloadInfo,
  getPackagePayloadInfo,
  getPullRequestPayloadInfo,
  getReleasePayloadInfo,
  getStatusPayloadInfo,
  getWikiPayloadInfo,
  greenColor,
  noneLinkFormatter,
  pathEscape,
  pathEscapeSegments,
  profileURL,
  redColor,
  refShortName,
  reviewAction,
  reviewColor,
  shortCommitId,
} from "./general.ts";
import { goJSON } from "./json.ts";

/** Gitea's DiscordMeta. */
export interface DiscordMeta {
  username: string;
  icon_url: string;
}

interface DiscordEmbed {
  title: string;
  description: string;
  url: string;
  color: number;
  footer: { text: string };
  author: { name: string; url: string; icon_url: string };
  fields: null;
}

interface DiscordPayload {
  wait: boolean;
  content: string;
  username: string;
  avatar_url?: string;
  tts: boolean;
  embeds: DiscordEmbed[];
}

/** A commit's summary line, cut to 50 characters as GitHub does (Gitea's `%.47s...`). */
function commitSummary(message: string): string {
  const summary = (message.split("\n")[0] ?? "").replace(/\r+$/, "");
  const chars = Array.from(summary);
  return chars.length > 50 ? `${chars.slice(0, 47).join("")}...` : summary;
}

function discordConvertor(meta: DiscordMeta): Convertor<DiscordPayload> {
  const payload = (sender: PayloadUserRef, title: string, description: string, url: string, color: number): DiscordPayload => ({
    wait: false,
    content: "",
    username: meta.username,
    // Go's `omitempty`: no avatar_url when the hook sets no icon.
    ...(meta.icon_url ? { avatar_url: meta.icon_url } : {}),
    tts: false,
    embeds: [
      {
        title,
        description,
        url,
        color,
        footer: { text: "" },
        author: { name: sender.login, url: profileURL(sender), icon_url: sender.avatar_url ?? "" },
        fields: null,
      },
    ],
  });
  const srcURL = (repoURL: string, ref: string) => `${repoURL}/src/${pathEscapeSegments(refShortName(ref))}`;
  return {
    create(p) {
      const title = `[${p.repository.full_name}] ${p.ref_type} ${refShortName(p.ref)} created`;
      return payload(p.sender, title, "", srcURL(p.repository.html_url, p.ref), greenColor);
    },
    delete(p) {
      const title = `[${p.repository.full_name}] ${p.ref_type} ${refShortName(p.ref)} deleted`;
      return payload(p.sender, title, "", srcURL(p.repository.html_url, p.ref), redColor);
    },
    fork: (p) => payload(p.sender, `${p.forkee.full_name} is forked to ${p.repository.full_name}`, "", p.repository.html_url, greenColor),
    push(p) {
      const branchName = refShortName(p.ref);
      const commits = p.commits ?? [];
      const commitDesc = p.total_commits === 1 ? "1 new commit" : `${p.total_commits} new commits`;
      let titleLink = (p.total_commits === 1 ? commits[0]?.url : p.compare_url) ?? "";
      if (titleLink === "") titleLink = `${p.repository.html_url}/src/${pathEscapeSegments(branchName)}`;
      const title = `[${p.repository.full_name}:${branchName}] ${commitDesc}`;
      const text = commits.map((c) => `[${shortCommitId(c.id)}](${c.url}) ${commitSummary(c.message)} - ${c.author?.name ?? ""}`).join("\n");
      return payload(p.sender, title, text, titleLink, greenColor);
    },
    issue(p) {
      const info = getIssuesPayloadInfo(p, noneLinkFormatter, false);
      return payload(p.sender, info.text, info.extraMarkdown, p.issue.html_url, info.color);
    },
    issueComment(p) {
      const info = getIssueCommentPayloadInfo(p, noneLinkFormatter, false);
      return payload(p.sender, info.text, p.comment.body, p.comment.html_url, info.color);
    },
    pullRequest(p) {
      const info = getPullRequestPayloadInfo(p, noneLinkFormatter, false);
      return payload(p.sender, info.text, info.extraMarkdown, p.pull_request.html_url, info.color);
    },
    review(p, event) {
      let title = "";
      let text = "";
      let color = 0;
      if (p.action === "reviewed") {
        title = `[${p.repository.full_name}] Pull request review ${reviewAction(event)}: #${p.number} ${p.pull_request.title}`;
        text = p.review?.content ?? "";
        color = reviewColor(event);
      }
      return payload(p.sender, title, text, p.pull_request.html_url, color);
    },
    repository(p) {
      if (p.action === "created") return payload(p.sender, `[${p.repository.full_name}] Repository created`, "", p.repository.html_url, greenColor);
      if (p.action === "deleted") return payload(p.sender, `[${p.repository.full_name}] Repository deleted`, "", "", redColor);
      return payload(p.sender, "", "", "", 0);
    },
    wiki(p) {
      const info = getWikiPayloadInfo(p, noneLinkFormatter, false);
      const description = p.action !== "deleted" ? p.comment : "";
      return payload(p.sender, info.text, description, `${p.repository.html_url}/wiki/${pathEscape(p.page)}`, info.color);
    },
    release(p) {
      const info = getReleasePayloadInfo(p, noneLinkFormatter, false);
      return payload(p.sender, info.text, p.release.body, p.release.html_url, info.color);
    },
    package(p) {
      const info = getPackagePayloadInfo(p, noneLinkFormatter, false);
      return payload(p.sender, info.text, "", p.package.html_url, info.color);
    },
    status(p) {
      const info = getStatusPayloadInfo(p, noneLinkFormatter, false);
      return payload(p.sender, info.text, "", p.target_url, info.color);
    },
  };
}

export const formatDiscord: PayloadFormatter = (hook, event, payload) => {
  const m = parseMeta(hook.meta);
  const meta: DiscordMeta = { username: metaString(m, "username"), icon_url: metaString(m, "icon_url") };
  return { body: goJSON(convertPayload(discordConvertor(meta), event, payload)), contentType: "application/json" };
};
