import * as v from "valibot";
import { operation, reply, type AnyOperation } from "../../../route.ts";
import { Attachment, IssueParams } from "../../../schemas/issue.ts";
import { CommentAttachmentParams, CommentParams, EditAttachmentOptions, IssueAttachmentParams } from "../../../schemas/comment.ts";
import { toAPIAttachment } from "../../../../convert/attachment.ts";
import { issueFromPath, requireTrackerReader } from "../../../../services/issue/lookup.ts";
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
import type { AttachmentRow, UserRow } from "../../../../db/schema/index.ts";
import { withFormFile } from "../../../multipart.ts";
import { repoFromPath } from "../repos/context.ts";
import { requireToken } from "../repos/collaborators.ts";
import { requireNotArchived } from "./issues.ts";

type Base = { env: Env; principal: Principal | undefined; url: URL; params: { owner: string; repo: string } };

/** Gitea's route guards for assets, in its order: repository, tracker, `[attachment] ENABLED`. */
function assets(ctx: Base): RepoContext {
  const rc = repoFromPath(ctx.env, ctx.principal, ctx.url, ctx.params);
  requireTrackerReader(rc);
  requireAttachmentsEnabled(ctx.env);
  return rc;
}

/** For changes: a token (401) and a repository that is not archived (423). */
function writable(ctx: Base): RepoContext & { doer: UserRow } {
  const rc = assets(ctx);
  requireToken(ctx.principal);
  requireNotArchived(rc);
  return { ...rc, doer: ctx.principal.user };
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
    access: { scope: "issue", signIn: false },
    params: IssueParams,
    responses: { 200: v.array(Attachment) },
    handler: (ctx) => listIssueAttachments(ctx.env, issueFromPath(ctx.env, assets(ctx), ctx.params.index)).map(json(ctx.env)),
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/issues/:index/assets",
    operationId: "issueCreateIssueAttachment",
    tag: "issue",
    summary: "Create an issue attachment",
    access: { scope: "issue", signIn: false },
    params: IssueParams,
    query: UploadQuery,
    multipartFile: "attachment",
    responses: { 201: Attachment },
    handler: async (ctx) => {
      const rc = writable(ctx);
      const ic = issueFromPath(ctx.env, rc, ctx.params.index);
      requireIssueAttachmentWriter(rc.doer, ic);
      const a = await withFormFile(ctx.request, "attachment", (file) =>
        uploadIssueAttachment(ctx.env, rc.doer, ic, { name: ctx.query.name || file.filename, chunks: file.chunks }),
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
    access: { scope: "issue", signIn: false },
    params: IssueAttachmentParams,
    responses: { 200: Attachment },
    handler: (ctx) => {
      const ic = issueFromPath(ctx.env, assets(ctx), ctx.params.index);
      return toAPIAttachment(ctx.env.settings, issueAttachmentFromPath(ctx.env, ic, ctx.params.attachment_id));
    },
  }),
  operation({
    method: "PATCH",
    path: "/repos/:owner/:repo/issues/:index/assets/:attachment_id",
    operationId: "issueEditIssueAttachment",
    tag: "issue",
    summary: "Edit an issue attachment",
    access: { scope: "issue", signIn: false },
    params: IssueAttachmentParams,
    body: EditAttachmentOptions,
    responses: { 201: Attachment },
    handler: (ctx) => {
      const rc = writable(ctx);
      const ic = issueFromPath(ctx.env, rc, ctx.params.index);
      requireIssueAttachmentWriter(rc.doer, ic);
      const a = issueAttachmentFromPath(ctx.env, ic, ctx.params.attachment_id);
      // Gitea answers a rename with 201.
      return reply.created(toAPIAttachment(ctx.env.settings, renameAttachment(ctx.env, a, ctx.body.name ?? undefined)));
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/:index/assets/:attachment_id",
    operationId: "issueDeleteIssueAttachment",
    tag: "issue",
    summary: "Delete an issue attachment",
    access: { scope: "issue", signIn: false },
    params: IssueAttachmentParams,
    responses: { 204: null },
    handler: (ctx) => {
      const rc = writable(ctx);
      const ic = issueFromPath(ctx.env, rc, ctx.params.index);
      requireIssueAttachmentWriter(rc.doer, ic);
      deleteAttachment(ctx.env, issueAttachmentFromPath(ctx.env, ic, ctx.params.attachment_id));
      return reply.noContent();
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issues/comments/:id/assets",
    operationId: "issueListIssueCommentAttachments",
    tag: "issue",
    summary: "List comment's attachments",
    access: { scope: "issue", signIn: false },
    params: CommentParams,
    responses: { 200: v.array(Attachment) },
    handler: (ctx) => listCommentAttachments(ctx.env, commentFromPath(ctx.env, assets(ctx), ctx.params.id)).map(json(ctx.env)),
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/issues/comments/:id/assets",
    operationId: "issueCreateIssueCommentAttachment",
    tag: "issue",
    summary: "Create a comment attachment",
    access: { scope: "issue", signIn: false },
    params: CommentParams,
    query: UploadQuery,
    multipartFile: "attachment",
    responses: { 201: Attachment },
    handler: async (ctx) => {
      const rc = writable(ctx);
      const cc = commentFromPath(ctx.env, rc, ctx.params.id);
      requireCommentAttachmentWriter(rc.doer, cc);
      const a = await withFormFile(ctx.request, "attachment", (file) =>
        uploadCommentAttachment(ctx.env, rc.doer, cc, { name: ctx.query.name || file.filename, chunks: file.chunks }),
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
    access: { scope: "issue", signIn: false },
    params: CommentAttachmentParams,
    responses: { 200: Attachment },
    handler: (ctx) => {
      const cc = commentFromPath(ctx.env, assets(ctx), ctx.params.id);
      return toAPIAttachment(ctx.env.settings, commentAttachmentFromPath(ctx.env, cc, ctx.params.attachment_id));
    },
  }),
  operation({
    method: "PATCH",
    path: "/repos/:owner/:repo/issues/comments/:id/assets/:attachment_id",
    operationId: "issueEditIssueCommentAttachment",
    tag: "issue",
    summary: "Edit a comment attachment",
    access: { scope: "issue", signIn: false },
    params: CommentAttachmentParams,
    body: EditAttachmentOptions,
    responses: { 201: Attachment },
    handler: (ctx) => {
      const rc = writable(ctx);
      const cc = commentFromPath(ctx.env, rc, ctx.params.id);
      requireCommentAttachmentWriter(rc.doer, cc);
      const a = commentAttachmentFromPath(ctx.env, cc, ctx.params.attachment_id);
      return reply.created(toAPIAttachment(ctx.env.settings, renameAttachment(ctx.env, a, ctx.body.name ?? undefined)));
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/issues/comments/:id/assets/:attachment_id",
    operationId: "issueDeleteIssueCommentAttachment",
    tag: "issue",
    summary: "Delete a comment attachment",
    access: { scope: "issue", signIn: false },
    params: CommentAttachmentParams,
    responses: { 204: null },
    handler: (ctx) => {
      const rc = writable(ctx);
      const cc = commentFromPath(ctx.env, rc, ctx.params.id);
      requireCommentAttachmentWriter(rc.doer, cc);
      deleteAttachment(ctx.env, commentAttachmentFromPath(ctx.env, cc, ctx.params.attachment_id));
      return reply.noContent();
    },
  }),
];
