import * as v from "valibot";
import { operation, reply, type AnyOperation } from "../../../route.ts";
import { IssueParams } from "../../../../shapes/issue.ts";
import { IssueLabelParams, IssueLabelsOption, Label } from "../../../../shapes/label.ts";
import { toAPIRepoLabel } from "../../../../convert/label.ts";
import { canWriteIssue, issueFromPath, type IssueContext } from "../../../../services/issue/lookup.ts";
import {
  changeIssueLabels,
  issueLabels,
  labelForIssue,
  labelsOfRequest,
  removeIssueLabel,
  type LabelChange,
  type LabelRefs,
} from "../../../../services/issue/labels.ts";
import { parseId } from "../../../../services/label/labels.ts";
import { BadRequest, HearthError, Invalid } from "../../../../lib/errors.ts";
import type { Env } from "../../../../services/env.ts";
import type { Doer } from "../../../../services/access/permission.ts";
import type { SignedIn } from "../../../../services/access/repo-access.ts";

/** Reading: the repository, then the issue (404 when its unit is not readable). */
const read = { scope: "issue", signIn: false, repo: {}, issue: true } as const;
/**
 * Adding or replacing: reqToken, then the body (Gitea binds it before the handler looks the issue
 * up, so a bad body is a 422 even for a missing issue): the handler finds the issue itself.
 */
const change = { scope: "issue", signIn: false, repo: { doer: true } } as const;
/** Removing: reqToken, then the issue; a writer of its unit (known only with the issue) may. */
const remove = { scope: "issue", signIn: false, repo: { doer: true }, issue: true } as const;

function labelsJson(env: Env, ic: IssueContext) {
  return issueLabels(env, ic.issue).map((l) => toAPIRepoLabel(env.settings, l, ic.owner.name, ic.repo.name));
}

/**
 * Gitea's IssueLabelsOption: a list of label ids (JSON numbers, truncated to integers) or of label
 * names (strings), not both (400); anything else in it is a 400 too.
 */
function labelRefs(list: unknown[]): LabelRefs {
  const ids: number[] = [];
  const names: string[] = [];
  for (const item of list) {
    if (typeof item === "number") ids.push(Math.trunc(item));
    else if (typeof item === "string") names.push(item);
    else throw new BadRequest("a label must be an integer or a string");
  }
  if (ids.length && names.length) throw new BadRequest("labels should be an array of strings or integers");
  return names.length ? { names } : { ids };
}

type Ctx = {
  env: Env;
  repo: SignedIn;
  doer: Doer;
  params: { index: string };
  body: { labels?: unknown[] | null };
};

/** POST and PUT …/labels: Gitea's prepareForReplaceOrAdd, then the change; answers the issue's labels. */
function addOrReplace(ctx: Ctx, how: LabelChange) {
  const list = ctx.body.labels ?? [];
  const ic = issueFromPath(ctx.env, ctx.repo, ctx.params.index);
  if (!canWriteIssue(ic)) throw new HearthError(403, "write permission is required");
  const labels = labelsOfRequest(ctx.env, ic, labelRefs(list));
  changeIssueLabels(ctx.env, ic, ctx.doer, how, labels);
  return labelsJson(ctx.env, ic);
}

export const issueLabelOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/:index/labels",
    operationId: "issueGetLabels",
    tag: "issue",
    summary: "Get an issue's labels",
    access: read,
    params: IssueParams,
    responses: { 200: v.array(Label) },
    handler: ({ env, issue }) => labelsJson(env, issue),
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/issues/:index/labels",
    operationId: "issueAddLabel",
    tag: "issue",
    summary: "Add a label to an issue",
    access: change,
    params: IssueParams,
    body: IssueLabelsOption,
    responses: { 200: v.array(Label) },
    handler: (ctx) => addOrReplace(ctx, "add"),
  }),
  operation({
    method: "PUT",
    path: "/repos/:owner/:repo/issues/:index/labels",
    operationId: "issueReplaceLabels",
    tag: "issue",
    summary: "Replace an issue's labels",
    access: change,
    params: IssueParams,
    body: IssueLabelsOption,
    responses: { 200: v.array(Label) },
    handler: (ctx) => addOrReplace(ctx, "replace"),
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/:index/labels",
    operationId: "issueClearLabels",
    tag: "issue",
    summary: "Remove all labels from an issue",
    access: remove,
    params: IssueParams,
    responses: { 204: null },
    handler: ({ env, issue: ic, doer }) => {
      if (!canWriteIssue(ic)) throw new HearthError(403, "");
      changeIssueLabels(env, ic, doer, "clear");
      return reply.noContent();
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/:index/labels/:id",
    operationId: "issueRemoveLabel",
    tag: "issue",
    summary: "Remove a label from an issue",
    access: remove,
    params: IssueLabelParams,
    responses: { 204: null },
    handler: ({ env, issue: ic, doer, params }) => {
      if (!canWriteIssue(ic)) throw new HearthError(403, "");
      const id = parseId(params.id) ?? 0;
      const label = labelForIssue(env, ic, id);
      if (!label) throw new Invalid(`label does not exist [label_id: ${id}]`);
      removeIssueLabel(env, ic, doer, label);
      return reply.noContent();
    },
  }),
];
