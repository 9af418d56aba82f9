import * as v from "valibot";
import { operation, reply, type AnyOperation } from "../../../route.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import { Issue, IssueParams } from "../../../../shapes/issue.ts";
import { IssuePinParams, NewIssuePinsAllowed } from "../../../../shapes/issue-extras.ts";
import { toAPIIssue } from "../../../../convert/issue.ts";
import { moveIssuePin, newPinsAllowed, pinIssue, pinnedIssues, unpinIssue } from "../../../../services/issue/pins.ts";
import { issueViews } from "../../../../services/issue/view.ts";

/** Gitea's pin routes: the tracker readable (mustEnableIssuesOrPulls), then reqToken and reqAdmin, then the issue. */
const pin = { scope: "issue", signIn: false, repo: { read: "tracker", admin: true }, issue: true } as const;
/** The pinned list: the tracker readable. */
const pinned = { scope: "issue", signIn: false, repo: { read: "tracker" } } as const;
/** Whether pins are allowed: anyone who sees the repository, under the repository scope. */
const allowed = { scope: "repository", signIn: false, repo: {} } as const;

export const pinOperations: AnyOperation[] = [
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/issues/:index/pin",
    operationId: "pinIssue",
    tag: "issue",
    summary: "Pin an Issue",
    access: pin,
    params: IssueParams,
    responses: { 204: null },
    handler: ({ env, doer, issue }) => {
      pinIssue(env, doer, issue);
      return reply.noContent();
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/:index/pin",
    operationId: "unpinIssue",
    tag: "issue",
    summary: "Unpin an Issue",
    access: pin,
    params: IssueParams,
    responses: { 204: null },
    handler: ({ env, doer, issue }) => {
      unpinIssue(env, doer, issue);
      return reply.noContent();
    },
  }),
  operation({
    method: "PATCH",
    path: "/repos/:owner/:repo/issues/:index/pin/:position",
    operationId: "moveIssuePin",
    tag: "issue",
    summary: "Moves the Pin to the given Position",
    access: pin,
    params: IssuePinParams,
    responses: { 204: null },
    handler: (ctx) => {
      // Gitea parses the position leniently: anything that is not a number is 0.
      const position = /^-?\d{1,15}$/.test(ctx.params.position) ? Number(ctx.params.position) : 0;
      moveIssuePin(ctx.env, ctx.issue, position);
      return reply.noContent();
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/pinned",
    operationId: "repoListPinnedIssues",
    tag: "repository",
    summary: "List a repo's pinned issues",
    access: pinned,
    params: RepoParams,
    responses: { 200: v.array(Issue) },
    handler: ({ env, repo: rc, doer }) => {
      const views = issueViews(env, () => rc, pinnedIssues(env, rc));
      return views.map((view) => toAPIIssue(env.settings, view, doer));
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/new_pin_allowed",
    operationId: "repoNewPinAllowed",
    tag: "repository",
    summary: "Returns if new Issue Pins are allowed",
    access: allowed,
    params: RepoParams,
    responses: { 200: NewIssuePinsAllowed },
    handler: ({ env, repo }) => {
      const { issues, pullRequests } = newPinsAllowed(env, repo);
      return { issues, pull_requests: pullRequests };
    },
  }),
];
