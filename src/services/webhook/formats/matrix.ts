/**
 * The `matrix` hook type (Gitea's services/webhook/matrix.go): an m.room.message event with an
 * HTML body and its Markdown-ish plain twin, PUT to the room's send endpoint. The hook's URL is
 * `<homeserver>/_matrix/client/r0/rooms/<room>/send/m.room.message`; the transaction id appended
 * to it is the SHA-1 of the body, so a redelivery of the same message is the same transaction and
 * the homeserver does not post it twice. The access token travels as the hook's authorization
 * header (`Bearer …`).
 */
import { createHash } from "node:crypto";
import type { PayloadFormatter } from "../contracts.ts";
import type { PayloadCommit } from "./payload-shapes.ts";
import { convertPayload, parseMeta, type Convertor } from "./convert.ts";
import {
  getIssueCommentPayloadInfo,
  getIssuesPayloadInfo,
  getPullRequestPayloadInfo,
  getReleasePayloadInfo,
  getWikiPayloadInfo,
  htmlLinkFormatter,
  pathEscapeSegments,
  profileURL,
  refShortName,
  reviewAction,
  shortCommitId,
  shortSha,
} from "./general.ts";
import { goJSON } from "./json.ts";

/** Gitea's MatrixMeta. */
export interface MatrixMeta {
  homeserver_url: string;
  room_id: string;
  /** 1: m.notice, 2: m.text. */
  message_type: number;
}

const MESSAGE_TYPES: Record<number, string> = { 1: "m.notice", 2: "m.text" };

/** Gitea refuses to send a Matrix message body of 64 KiB or more. */
const MATRIX_PAYLOAD_SIZE_LIMIT = 1024 * 64;

interface MatrixPayload {
  body: string;
  msgtype: string;
  format: string;
  formatted_body: string;
  "io.gitea.commits"?: PayloadCommit[];
}

/** Gitea's getMessageBody: links as `[text](url)`, `<br>` as newlines. */
function messageBody(html: string): string {
  return html.replace(/<a [^>]*?href="([^">]*?)">(.*?)<\/a>/g, "[$2]($1)").replaceAll("<br>", "\n");
}

/** Gitea's MatrixLinkToRef: a short name without a known prefix is taken for a commit. */
function matrixLinkToRef(repoURL: string, ref: string): string {
  const name = refShortName(ref);
  const kind = ref.startsWith("refs/heads/") ? "branch" : ref.startsWith("refs/tags/") ? "tag" : "commit";
  return htmlLinkFormatter(`${repoURL}/src/${kind}/${pathEscapeSegments(name)}`, name);
}

function matrixConvertor(msgtype: string): Convertor<MatrixPayload> {
  const payload = (text: string, commits: PayloadCommit[] = []): MatrixPayload => ({
    body: messageBody(text),
    msgtype,
    format: "org.matrix.custom.html",
    formatted_body: text,
    // Go's `omitempty`: no commits key when there are none.
    ...(commits.length > 0 ? { "io.gitea.commits": commits } : {}),
  });
  return {
    create(p) {
      const repoLink = htmlLinkFormatter(p.repository.html_url, p.repository.full_name);
      return payload(`[${repoLink}:${matrixLinkToRef(p.repository.html_url, p.ref)}] ${p.ref_type} created by ${p.sender.login}`);
    },
    delete(p) {
      const repoLink = htmlLinkFormatter(p.repository.html_url, p.repository.full_name);
      return payload(`[${repoLink}:${refShortName(p.ref)}] ${p.ref_type} deleted by ${p.sender.login}`);
    },
    fork(p) {
      const baseLink = htmlLinkFormatter(p.forkee.html_url, p.forkee.full_name);
      return payload(`${baseLink} is forked to ${htmlLinkFormatter(p.repository.html_url, p.repository.full_name)}`);
    },
    push(p) {
      const commits = p.commits ?? [];
      const commitDesc = p.total_commits === 1 ? "1 commit" : `${p.total_commits} commits`;
      const repoLink = htmlLinkFormatter(p.repository.html_url, p.repository.full_name);
      const branchLink = matrixLinkToRef(p.repository.html_url, p.ref);
      const head = `[${repoLink}] ${p.pusher?.login ?? ""} pushed ${commitDesc} to ${branchLink}:<br>`;
      const lines = commits.map((c) => `${htmlLinkFormatter(c.url, shortCommitId(c.id))}: ${c.message} - ${c.author?.name ?? ""}`);
      return payload(head + lines.join("<br>"), commits);
    },
    issue: (p) => payload(getIssuesPayloadInfo(p, htmlLinkFormatter, true).text),
    issueComment: (p) => payload(getIssueCommentPayloadInfo(p, htmlLinkFormatter, true).text),
    pullRequest: (p) => payload(getPullRequestPayloadInfo(p, htmlLinkFormatter, true).text),
    review(p, event) {
      const senderLink = htmlLinkFormatter(profileURL(p.sender), p.sender.login);
      const titleLink = htmlLinkFormatter(p.pull_request.html_url, `#${p.number} ${p.pull_request.title}`);
      const repoLink = htmlLinkFormatter(p.repository.html_url, p.repository.full_name);
      return payload(p.action === "reviewed" ? `[${repoLink}] Pull request review ${reviewAction(event)}: ${titleLink} by ${senderLink}` : "");
    },
    repository(p) {
      const senderLink = htmlLinkFormatter(profileURL(p.sender), p.sender.login);
      const repoLink = htmlLinkFormatter(p.repository.html_url, p.repository.full_name);
      if (p.action === "created") return payload(`[${repoLink}] Repository created by ${senderLink}`);
      if (p.action === "deleted") return payload(`[${repoLink}] Repository deleted by ${senderLink}`);
      return payload("");
    },
    wiki: (p) => payload(getWikiPayloadInfo(p, htmlLinkFormatter, true).text),
    release: (p) => payload(getReleasePayloadInfo(p, htmlLinkFormatter, true).text),
    package(p) {
      const senderLink = htmlLinkFormatter(profileURL(p.sender), p.sender.login);
      const packageLink = htmlLinkFormatter(p.package.html_url, p.package.name);
      if (p.action === "created") return payload(`[${packageLink}] Package published by ${senderLink}`);
      if (p.action === "deleted") return payload(`[${packageLink}] Package deleted by ${senderLink}`);
      return payload("");
    },
    status(p) {
      const refLink = htmlLinkFormatter(p.target_url, `${p.context} [${shortSha(p.sha)}]`);
      return payload(`Commit Status changed: ${refLink} - ${p.description}`);
    },
  };
}

/** Gitea's getMatrixTxnID: the SHA-1 of the body, refused at 64 KiB. */
export function matrixTxnId(body: string): string {
  const size = Buffer.byteLength(body);
  if (size >= MATRIX_PAYLOAD_SIZE_LIMIT) throw new Error(`getMatrixTxnID: payload size ${size} > ${MATRIX_PAYLOAD_SIZE_LIMIT}`);
  return createHash("sha1").update(body).digest("hex");
}

export const formatMatrix: PayloadFormatter = (hook, event, payload) => {
  // Gitea maps the stored type as is (0 or another number gives ""). A hook made through the API
  // has no meta, which Gitea cannot deliver at all; hearth sends it as the web form's default.
  const messageType = parseMeta(hook.meta)["message_type"];
  const msgtype = typeof messageType === "number" ? (MESSAGE_TYPES[messageType] ?? "") : "m.notice";
  const body = goJSON(convertPayload(matrixConvertor(msgtype), event, payload));
  return { body, contentType: "application/json", url: `${hook.url}/${matrixTxnId(body)}`, method: "PUT" };
};
