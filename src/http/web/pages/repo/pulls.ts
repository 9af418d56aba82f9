import { NotFound } from "../../../../lib/errors.ts";
import { html } from "../../../../lib/html.ts";
import { issueFromPath } from "../../../../services/issue/lookup.ts";
import { PullStatus, ReviewType } from "../../../../services/issue/conversation.ts";
import { pullFromPath, type PullContext } from "../../../../services/pull/lookup.ts";
import { pullView, type PullView } from "../../../../services/pull/view.ts";
import { listPullReviews, type ReviewView } from "../../../../services/pull/review-view.ts";
import { combinedState, latestStatuses } from "../../../../services/status/combine.ts";
import { page } from "../../page.ts";
import { repoPath, escapePath } from "../../views/repo-header.ts";
import { timeAgo } from "../../views/time.ts";
import { userLink } from "../../views/issue-list.ts";
import { issueListPage } from "./issues.ts";
import { conversation, type IssuePage, type PullParts } from "./issue-view.ts";

/** `/{owner}/{repo}/pulls`: the repository's pull requests. */
export const pulls = page({
  access: { scope: "public", signIn: false, repo: { read: "pulls" } },
  handler: (ctx) => issueListPage(ctx, "pulls"),
});

/** A reviewer's standing on the request: their latest review that counts (Gitea's LatestReviews). */
interface Standing {
  view: ReviewView;
  word: string;
  kind: "approved" | "changes" | "waiting" | "commented" | "dismissed";
}

function standings(views: ReviewView[]): Standing[] {
  const latest = new Map<string, ReviewView>();
  for (const v of views) {
    const r = v.review;
    if (r.type === ReviewType.Pending) continue;
    const key = r.reviewerTeamId > 0 ? `t${r.reviewerTeamId}` : `u${r.reviewerId}:${r.originalAuthor}`;
    latest.set(key, v);
  }
  return [...latest.values()].map((view) => {
    const r = view.review;
    if (r.dismissed) return { view, word: "Review dismissed", kind: "dismissed" as const };
    if (r.type === ReviewType.Approve) return { view, word: "Approved", kind: "approved" as const };
    if (r.type === ReviewType.Reject) return { view, word: "Requested changes", kind: "changes" as const };
    if (r.type === ReviewType.Request) return { view, word: "Review requested", kind: "waiting" as const };
    return { view, word: "Commented", kind: "commented" as const };
  });
}

/** Gitea's merge box words for the request's mergeability (pull_merge_box.tmpl), as the last check stored it. */
function mergeWords(pv: PullView): { text: string; kind: "ok" | "bad" | "info" } {
  const p = pv.pull;
  if (p.hasMerged) return { text: "The pull request has been merged.", kind: "info" };
  if (pv.issue.issue.isClosed) return { text: "The pull request has been closed.", kind: "info" };
  if (pv.draft) return { text: "This pull request is marked as a work in progress.", kind: "info" };
  switch (p.status) {
    case PullStatus.Checking:
      return { text: "Merge conflict checking is in progress. Try again in a few moments.", kind: "info" };
    case PullStatus.Conflict:
      return { text: "This pull request has changes conflicting with the target branch.", kind: "bad" };
    case PullStatus.Empty:
      return { text: "The changes on this branch are already on the target branch. This will be an empty commit.", kind: "info" };
    case PullStatus.AncestorFF:
      return { text: "This branch is already included in the target branch. There is nothing to merge.", kind: "info" };
    case PullStatus.Error:
      return { text: "The pull request could not be checked for conflicts.", kind: "bad" };
    default:
      return { text: "This pull request can be merged automatically.", kind: "ok" };
  }
}

function conflictedFiles(json: string): string[] {
  try {
    const files: unknown = JSON.parse(json);
    return Array.isArray(files) ? files.filter((f): f is string => typeof f === "string") : [];
  } catch {
    return [];
  }
}

const STATUS_WORDS: Record<string, string> = {
  success: "Succeeded",
  failure: "Failed",
  error: "Errored",
  pending: "Pending",
  warning: "Warning",
  skipped: "Skipped",
};

/** A status's link only when it is a web address (a target URL is whatever its poster sent). */
const webLink = (url: string) => /^https?:\/\//i.test(url);

/** The summary above a pull request's conversation: branches, state, merge status, checks, reviews; then the tabs. */
function pullParts(ctx: IssuePage, pc: PullContext, pv: PullView, reviews: ReviewView[]): PullParts {
  const { env, base } = ctx;
  const repoHref = repoPath(base, pc);
  const p = pc.pull;
  const codeLinks = pc.perm.canRead("code");
  const branchRef = (side: PullView["head"], showOwner: boolean) => {
    const label = showOwner && side.side ? `${side.side.owner.name}:${side.branch}` : side.branch;
    const readable = side.side && side.side.perm.canRead("code") && side.ref === side.branch;
    return readable
      ? html`<a class="branch" href="${repoPath(base, side.side!)}/src/branch/${escapePath(side.branch)}"><code>${label}</code></a>`
      : html`<code class="branch">${label}</code>`;
  };
  const fork = p.headRepoId !== p.baseRepoId;
  const head = branchRef(pv.head, fork);
  const baseBranch = branchRef(pv.base, false);
  const commits = p.commitsAhead;
  const commitsText = commits > 0 ? `${commits} commit${commits === 1 ? "" : "s"}` : "commits";
  const who = pv.issue.issue.originalAuthor ? html`<span class="author">${pv.issue.issue.originalAuthor}</span>` : userLink(base, pv.issue.poster);
  const line = p.hasMerged
    ? html`${pv.merger ? userLink(base, pv.merger) : who} merged ${commitsText} from ${head} into ${baseBranch} ${timeAgo(p.mergedUnix)}`
    : html`${who} wants to merge ${commitsText} from ${head} into ${baseBranch}`;

  const words = mergeWords(pv);
  const conflicts = p.status === PullStatus.Conflict && !p.hasMerged ? conflictedFiles(p.conflictedFiles) : [];
  const merged = p.hasMerged && p.mergedCommitId
    ? html`<p>Merged as ${
        codeLinks ? html`<a class="sha" href="${repoHref}/commit/${encodeURIComponent(p.mergedCommitId)}"><code>${p.mergedCommitId.slice(0, 10)}</code></a>` : html`<code>${p.mergedCommitId.slice(0, 10)}</code>`
      }.</p>`
    : "";

  const statuses = pv.head.sha ? latestStatuses(env, pc.repo.id, pv.head.sha) : [];
  const combined = combinedState(statuses);
  const checks = statuses.length
    ? html`<details class="checks"${combined === "failure" ? html` open` : ""}><summary><span class="check-state ${combined}">${
        combined === "success" ? "All checks were successful" : combined === "failure" ? "Some checks were not successful" : "Some checks are still pending"
      }</span> <span class="muted">(${statuses.length})</span></summary><ul class="rows">${statuses.map(
        (s) => html`<li><span class="check-state ${s.state}">${STATUS_WORDS[s.state] ?? s.state}</span> <strong>${s.context || "default"}</strong>${
          s.description ? html` — ${s.description}` : ""
        }${webLink(s.targetUrl) ? html` <a href="${s.targetUrl}" rel="nofollow noopener noreferrer">Details</a>` : ""}</li>`,
      )}</ul></details>`
    : "";

  const stands = standings(reviews);
  const count = (kind: Standing["kind"]) => stands.filter((s) => s.kind === kind).length;
  const tally = [
    [count("approved"), "approval", "approvals"],
    [count("changes"), "change request", "change requests"],
    [count("waiting"), "waiting review", "waiting reviews"],
  ]
    .filter(([n]) => (n as number) > 0)
    .map(([n, one, many]) => `${n} ${n === 1 ? one : many}`)
    .join(" · ");

  const at = `${repoHref}/pulls/${p.index}`;
  const summary = html`<section class="box pull-summary" aria-label="Merge status">
<div class="body"><p class="merge-state ${words.kind}">${words.text}</p>${
    conflicts.length ? html`<ul class="conflicts" aria-label="Conflicting files">${conflicts.slice(0, 50).map((f) => html`<li><code>${f}</code></li>`)}</ul>` : ""
  }${merged}${checks}${tally ? html`<p class="review-tally">${tally}</p>` : ""}</div></section>`;
  const tabs = html`<nav class="tabs pull-tabs" aria-label="Pull request"><a href="${at}" aria-current="page">Conversation <span class="counter">${pv.issue.issue.numComments}</span></a><a href="${at}/commits">Commits${
    commits > 0 ? html` <span class="counter">${commits}</span>` : ""
  }</a><a href="${at}/files">Files changed${pv.stats ? html` <span class="counter">${pv.stats.changedFiles}</span>` : ""}</a></nav>`;

  const reviewers = html`<section aria-labelledby="side-reviewers"><h2 id="side-reviewers">Reviewers</h2>${
    stands.length
      ? html`<ul class="people">${stands.map(
          (s) =>
            html`<li>${s.view.team ? html`<strong>${s.view.team.org.name}/${s.view.team.team.name}</strong>` : s.view.review.originalAuthor ? s.view.review.originalAuthor : userLink(base, s.view.reviewer!)} <span class="review-state ${s.kind}">${s.word}</span></li>`,
        )}</ul>`
      : html`<p class="muted small">No reviews</p>`
  }</section>`;
  return { stateLine: html`<span class="pull-branches">${line}</span>`, tabs, summary, sidebar: reviewers, merge: p.hasMerged ? { commit: p.mergedCommitId, base: p.baseBranch } : undefined };
}

/**
 * `/{owner}/{repo}/pulls/{index}`: a pull request's conversation with its summary. Declared without
 * the pull request's resolution, because Gitea's route also answers `/pulls/{index}.diff` and
 * `.patch` (a router cannot tell them apart): the request is resolved here through the resolver's
 * own lookup. An issue's number redirects to its page under `/issues/`.
 */
export const viewPull = page({
  access: { scope: "public", signIn: false, repo: { read: "pulls" } },
  async handler(ctx) {
    const rc = ctx.repo;
    const index = ctx.params.index ?? "";
    const raw = /^(.+)\.(diff|patch)$/.exec(index);
    if (raw) {
      // The raw forms belong with the request's files (loaded only when asked for).
      const { pullDiffOrPatch } = await import("./pull-files.ts");
      return pullDiffOrPatch(ctx, ctx.params.owner ?? "", ctx.params.repo ?? "", raw[1]!, raw[2] as "diff" | "patch");
    }
    let pc: PullContext;
    try {
      pc = pullFromPath(ctx.env, rc, index);
    } catch (err) {
      if (!(err instanceof NotFound)) throw err;
      const issue = tryIssue(ctx.env, rc, index);
      if (issue && !issue.isPull) return ctx.redirect(`${repoPath("", rc)}/issues/${issue.index}${ctx.url.search}`);
      throw err;
    }
    const place = { repo: pc.repo, owner: pc.owner, issue: pc.issue };
    const [pv, reviews] = await Promise.all([pullView(ctx.env, ctx.doer, { repo: pc.repo, owner: pc.owner }, pc.pull, pc.issue), listPullReviews(ctx.env, place).views]);
    return conversation(ctx, pc, pullParts(ctx, pc, pv, reviews));
  },
});

function tryIssue(env: IssuePage["env"], rc: Parameters<typeof issueFromPath>[1], index: string) {
  try {
    return issueFromPath(env, rc, index).issue;
  } catch {
    return undefined;
  }
}

