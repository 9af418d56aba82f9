/**
 * The `msteams` hook type (Gitea's services/webhook/msteams.go): an Office 365 connector
 * MessageCard with the sender as activity, facts about the event and a "View in Gitea" button.
 */
import type { PayloadFormatter } from "../contracts.ts";
import type { PayloadRepo, PayloadUserRef } from "./payload-shapes.ts";
import { convertPayload, type Convertor } from "./convert.ts";
import {
  getIssueCommentPayloadInfo,
  getIssuesPayloadInfo,
  getPackagePayloadInfo,
  getPullRequestPayloadInfo,
  getReleasePayloadInfo,
  getStatusPayloadInfo,
  getWikiPayloadInfo,
  greenColor,
  hexColor,
  noneLinkFormatter,
  pathEscape,
  pathEscapeSegments,
  refShortName,
  reviewAction,
  reviewColor,
  shortCommitId,
  yellowColor,
} from "./general.ts";
import { goJSON } from "./json.ts";

interface MSTeamsFact {
  name: string;
  value: string;
}

interface MSTeamsPayload {
  "@type": string;
  "@context": string;
  themeColor: string;
  title: string;
  summary: string;
  sections: { activityTitle: string; activitySubtitle: string; activityImage: string; facts: MSTeamsFact[]; text: string }[];
  potentialAction: { "@type": string; name: string; targets: { os: string; uri: string }[] }[];
}

function card(
  repo: PayloadRepo | null | undefined,
  sender: PayloadUserRef,
  title: string,
  text: string,
  actionTarget: string,
  color: number,
  fact: MSTeamsFact | null,
): MSTeamsPayload {
  const facts: MSTeamsFact[] = [];
  if (repo) facts.push({ name: "Repository:", value: repo.full_name });
  if (fact) facts.push(fact);
  return {
    "@type": "MessageCard",
    "@context": "https://schema.org/extensions",
    themeColor: hexColor(color),
    title,
    summary: title,
    sections: [{ activityTitle: sender.full_name ?? "", activitySubtitle: sender.login, activityImage: sender.avatar_url ?? "", facts, text }],
    potentialAction: [{ "@type": "OpenUri", name: "View in Gitea", targets: [{ os: "default", uri: actionTarget }] }],
  };
}

const msteamsConvertor: Convertor<MSTeamsPayload> = {
  create(p) {
    const refName = refShortName(p.ref);
    const title = `[${p.repository.full_name}] ${p.ref_type} ${refName} created`;
    const url = `${p.repository.html_url}/src/${pathEscapeSegments(refName)}`;
    return card(p.repository, p.sender, title, "", url, greenColor, { name: `${p.ref_type}:`, value: refName });
  },
  delete(p) {
    const refName = refShortName(p.ref);
    const title = `[${p.repository.full_name}] ${p.ref_type} ${refName} deleted`;
    const url = `${p.repository.html_url}/src/${pathEscapeSegments(refName)}`;
    return card(p.repository, p.sender, title, "", url, yellowColor, { name: `${p.ref_type}:`, value: refName });
  },
  fork(p) {
    const title = `${p.forkee.full_name} is forked to ${p.repository.full_name}`;
    return card(p.repository, p.sender, title, "", p.repository.html_url, greenColor, { name: "Forkee:", value: p.forkee.full_name });
  },
  push(p) {
    const branchName = refShortName(p.ref);
    const commits = p.commits ?? [];
    const commitDesc = p.total_commits === 1 ? "1 new commit" : `${p.total_commits} new commits`;
    let titleLink = (p.total_commits === 1 ? commits[0]?.url : p.compare_url) ?? "";
    if (titleLink === "") titleLink = `${p.repository.html_url}/src/${pathEscapeSegments(branchName)}`;
    const title = `[${p.repository.full_name}:${branchName}] ${commitDesc}`;
    const text = commits.map((c) => `[${shortCommitId(c.id)}](${c.url}) ${c.message.replace(/[\r\n]+$/, "")} - ${c.author?.name ?? ""}`).join("\n\n");
    return card(p.repository, p.sender, title, text, titleLink, greenColor, { name: "Commit count:", value: String(p.total_commits) });
  },
  issue(p) {
    const info = getIssuesPayloadInfo(p, noneLinkFormatter, false);
    return card(p.repository, p.sender, info.text, info.extraMarkdown, p.issue.html_url, info.color, { name: "Issue #:", value: String(p.issue.id) });
  },
  issueComment(p) {
    const info = getIssueCommentPayloadInfo(p, noneLinkFormatter, false);
    return card(p.repository, p.sender, info.text, p.comment.body, p.comment.html_url, info.color, { name: "Issue #:", value: String(p.issue.id) });
  },
  pullRequest(p) {
    const info = getPullRequestPayloadInfo(p, noneLinkFormatter, false);
    const fact = { name: "Pull request #:", value: String(p.pull_request.id) };
    return card(p.repository, p.sender, info.text, info.extraMarkdown, p.pull_request.html_url, info.color, fact);
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
    const fact = { name: "Pull request #:", value: String(p.pull_request.id) };
    return card(p.repository, p.sender, title, text, p.pull_request.html_url, color, fact);
  },
  repository(p) {
    if (p.action === "created") return card(p.repository, p.sender, `[${p.repository.full_name}] Repository created`, "", p.repository.html_url, greenColor, null);
    if (p.action === "deleted") return card(p.repository, p.sender, `[${p.repository.full_name}] Repository deleted`, "", "", yellowColor, null);
    return card(p.repository, p.sender, "", "", "", 0, null);
  },
  wiki(p) {
    const info = getWikiPayloadInfo(p, noneLinkFormatter, false);
    const url = `${p.repository.html_url}/wiki/${pathEscape(p.page)}`;
    return card(p.repository, p.sender, info.text, "", url, info.color, { name: "Repository:", value: p.repository.full_name });
  },
  release(p) {
    const info = getReleasePayloadInfo(p, noneLinkFormatter, false);
    return card(p.repository, p.sender, info.text, "", p.release.html_url, info.color, { name: "Tag:", value: p.release.tag_name });
  },
  package(p) {
    const info = getPackagePayloadInfo(p, noneLinkFormatter, false);
    return card(p.repository, p.sender, info.text, "", p.package.html_url, info.color, { name: "Package:", value: p.package.name });
  },
  status(p) {
    const info = getStatusPayloadInfo(p, noneLinkFormatter, false);
    return card(p.repository, p.sender, info.text, "", p.target_url, info.color, { name: "CommitStatus:", value: p.context });
  },
};

export const formatMSTeams: PayloadFormatter = (_hook, event, payload) => ({
  body: goJSON(convertPayload(msteamsConvertor, event, payload)),
  contentType: "application/json",
});
