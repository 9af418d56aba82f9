import * as v from "valibot";
import { operation, reply, type AnyOperation } from "../../../route.ts";
import { Attachment, IssueParams } from "../../../../shapes/issue.ts";
import { CommentAttachmentParams, CommentParams, EditAttachmentOptions, IssueAttachmentParams } from "../../../../shapes/comment.ts";
import { toAPIAttachment } from "../../../../convert/attachment.ts";
import { issueFromPath } from "../../../../services/issue/lookup.ts";
import { commentFromPath } from "../../../../services/issue/comments.ts";
import {
  commentAttachmentFromPath,
  deleteAttachment,
  issueAttachmentFromPath,
  listCommentAttachments,
  listIssueAttachments,
  renameAttachment,
  requireAttachmentsEnabled,
  requireCommentAttachmentWriter,
  requireIssueAttachmentWriter,
  uploadCommentAttachment,
  uploadIssueAttachment,
} from "../../../../services/issue/attachments.ts";
import type { Principal } from "../../../../auth/principal.ts";
import type { Env } from "../../../../services/env.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import type { AttachmentRow } from "../../../../db/schema/index.ts";
import type { Doer } from "../../../../services/access/permission.ts";
import { assertRepoAccess, type Checked } from "../../../../services/access/repo-access.ts";
import { withFormFile } from "../../../multipart.ts";
import { requireToken } from "../repos/collaborators.ts";
import { requireNotArchived } from "../../../../services/access/repo-access.ts";

/**
 * Gitea's guards for assets, in its order: the repository, the tracker (mustEnableIssuesOrPulls),
 * `[attachment] ENABLED` (mustEnableAttachments), then for changes reqToken and mustNotBeArchived.
 * A declaration cannot put a setting between the tracker and sign-in, so changes declare only the
 * tracker and ask the rest in `writable`. Reading an issue's assets declares the issue too: the
 * tracker, the issue and the setting all answer the same 404, so their order does not show.
 */
const tracker = { scope: "issue", signIn: false, repo: { read: "tracker" } } as const;
const issueAssets = { ...tracker, issue: true } as const;

/**
 * For changes, after the declared tracker: `[attachment] ENABLED` (404), a token (401), a
 * repository that is not archived (423); the sign-in just asked is proved for the services.
 */
function writable<R extends RepoContext>(ctx: { env: Env; repo: R; principal: Principal | undefined }): { doer: Doer; repo: R & Checked<{ doer: true }> } {
  requireAttachmentsEnabled(ctx.env);
  requireToken(ctx.principal);
  requireNotArchived(ctx.repo);
  const doer = ctx.principal.user;
  const { repo } = ctx;
  assertRepoAccess(repo, doer, { doer: true });
  return { doer, repo };
}

/** The `name` query parameter names the file; without it, the name the client sent with it. */
const UploadQuery = v.object({ name: v.optional(v.string()) });

const json = (env: Env) => (a: AttachmentRow) => toAPIAttachment(env.settings, a);

export const attachmentOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/:index/assets",
    operationId: "issueListIssueAttachments",
    tag: "issue",
    summary: "List issue's attachments",
    access: issueAssets,
    params: IssueParams,
    responses: { 200: v.array(Attachment) },
    handler: ({ env, issue }) => {
      requireAttachmentsEnabled(env);
      return listIssueAttachments(env, issue).map(json(env));
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/issues/:index/assets",
    operationId: "issueCreateIssueAttachment",
    tag: "issue",
    summary: "Create an issue attachment",
    access: tracker,
    params: IssueParams,
    query: UploadQuery,
    multipartFile: "attachment",
    responses: { 201: Attachment },
    handler: async (ctx) => {
      const { doer, repo } = writable(ctx);
      const ic = issueFromPath(ctx.env, repo, ctx.params.index);
      requireIssueAttachmentWriter(doer, ic);
      const a = await withFormFile(ctx.request, "attachment", (file) =>
        uploadIssueAttachment(ctx.env, doer, ic, { name: ctx.query.name || file.filename, chunks: file.chunks }),
      );
      return reply.created(toAPIAttachment(ctx.env.settings, a));
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/:index/assets/:attachment_id",
    operationId: "issueGetIssueAttachment",
    tag: "issue",
    summary: "Get an issue attachment",
    access: issueAssets,
    params: IssueAttachmentParams,
    responses: { 200: Attachment },
    handler: ({ env, issue, params }) => {
      requireAttachmentsEnabled(env);
      return toAPIAttachment(env.settings, issueAttachmentFromPath(env, issue, params.attachment_id));
    },
  }),
  operation({
    method: "PATCH",
    path: "/repos/:owner/:repo/issues/:index/assets/:attachment_id",
    operationId: "issueEditIssueAttachment",
    tag: "issue",
    summary: "Edit an issue attachment",
    access: tracker,
    params: IssueAttachmentParams,
    body: EditAttachmentOptions,
    responses: { 201: Attachment },
    handler: (ctx) => {
      const { doer, repo } = writable(ctx);
      const ic = issueFromPath(ctx.env, repo, ctx.params.index);
      requireIssueAttachmentWriter(doer, ic);
      const a = issueAttachmentFromPath(ctx.env, ic, ctx.params.attachment_id);
      // Gitea answers a rename with 201.
      return reply.created(toAPIAttachment(ctx.env.settings, renameAttachment(ctx.env, ic, a, ctx.body.name ?? undefined)));
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/:index/assets/:attachment_id",
    operationId: "issueDeleteIssueAttachment",
    tag: "issue",
    summary: "Delete an issue attachment",
    access: tracker,
    params: IssueAttachmentParams,
    responses: { 204: null },
    handler: (ctx) => {
      const { doer, repo } = writable(ctx);
      const ic = issueFromPath(ctx.env, repo, ctx.params.index);
      requireIssueAttachmentWriter(doer, ic);
      deleteAttachment(ctx.env, ic, issueAttachmentFromPath(ctx.env, ic, ctx.params.attachment_id));
      return reply.noContent();
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/comments/:id/assets",
    operationId: "issueListIssueCommentAttachments",
    tag: "issue",
    summary: "List comment's attachments",
    access: tracker,
    params: CommentParams,
    responses: { 200: v.array(Attachment) },
    handler: ({ env, repo, params }) => {
      requireAttachmentsEnabled(env);
      return listCommentAttachments(env, commentFromPath(env, repo, params.id)).map(json(env));
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/issues/comments/:id/assets",
    operationId: "issueCreateIssueCommentAttachment",
    tag: "issue",
    summary: "Create a comment attachment",
    access: tracker,
    params: CommentParams,
    query: UploadQuery,
    multipartFile: "attachment",
    responses: { 201: Attachment },
    handler: async (ctx) => {
      const { doer, repo } = writable(ctx);
      const cc = commentFromPath(ctx.env, repo, ctx.params.id);
      requireCommentAttachmentWriter(doer, cc);
      const a = await withFormFile(ctx.request, "attachment", (file) =>
        uploadCommentAttachment(ctx.env, doer, cc, { name: ctx.query.name || file.filename, chunks: file.chunks }),
      );
      return reply.created(toAPIAttachment(ctx.env.settings, a));
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/comments/:id/assets/:attachment_id",
    operationId: "issueGetIssueCommentAttachment",
    tag: "issue",
    summary: "Get a comment attachment",
    access: tracker,
    params: CommentAttachmentParams,
    responses: { 200: Attachment },
    handler: ({ env, repo, params }) => {
      requireAttachmentsEnabled(env);
      const cc = commentFromPath(env, repo, params.id);
      return toAPIAttachment(env.settings, commentAttachmentFromPath(env, cc, params.attachment_id));
    },
  }),
  operation({
    method: "PATCH",
    path: "/repos/:owner/:repo/issues/comments/:id/assets/:attachment_id",
    operationId: "issueEditIssueCommentAttachment",
    tag: "issue",
    summary: "Edit a comment attachment",
    access: tracker,
    params: CommentAttachmentParams,
    body: EditAttachmentOptions,
    responses: { 201: Attachment },
    handler: (ctx) => {
      const { doer, repo } = writable(ctx);
      const cc = commentFromPath(ctx.env, repo, ctx.params.id);
      requireCommentAttachmentWriter(doer, cc);
      const a = commentAttachmentFromPath(ctx.env, cc, ctx.params.attachment_id);
      return reply.created(toAPIAttachment(ctx.env.settings, renameAttachment(ctx.env, cc, a, ctx.body.name ?? undefined)));
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/comments/:id/assets/:attachment_id",
    operationId: "issueDeleteIssueCommentAttachment",
    tag: "issue",
    summary: "Delete a comment attachment",
    access: tracker,
    params: CommentAttachmentParams,
    responses: { 204: null },
    handler: (ctx) => {
      const { doer, repo } = writable(ctx);
      const cc = commentFromPath(ctx.env, repo, ctx.params.id);
      requireCommentAttachmentWriter(doer, cc);
      deleteAttachment(ctx.env, cc, commentAttachmentFromPath(ctx.env, cc, ctx.params.attachment_id));
      return reply.noContent();
    },
  }),
];
