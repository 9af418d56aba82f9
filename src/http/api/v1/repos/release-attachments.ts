import * as v from "valibot";
import { operation, reply, type AnyOperation } from "../../../route.ts";
import { Attachment } from "../../../../shapes/issue.ts";
import { EditAttachmentOptions } from "../../../../shapes/comment.ts";
import { ReleaseAssetParams, ReleaseParams } from "../../../../shapes/release.ts";
import { toAPIAttachment } from "../../../../convert/attachment.ts";
import { requireAttachmentsEnabled, type Upload } from "../../../../services/issue/attachments.ts";
import { releaseFromPath } from "../../../../services/release/releases.ts";
import {
  deleteReleaseAsset,
  listReleaseAssets,
  releaseAssetFromPath,
  renameReleaseAsset,
  uploadReleaseAsset,
} from "../../../../services/release/attachments.ts";
import type { Env } from "../../../../services/env.ts";
import type { AttachmentRow } from "../../../../db/schema/index.ts";
import { withFormFile } from "../../../multipart.ts";
import { releaseRead, releaseWrite } from "./releases.ts";

/** The `name` query parameter names the file; without it, the name the client sent with it. */
const UploadQuery = v.object({ name: v.optional(v.string()) });

const json = (env: Env) => (a: AttachmentRow) => toAPIAttachment(env.settings, a);

/** Gitea 1.25 takes the file from a multipart form's `attachment` field, or else the whole body. */
async function withUpload<T>(request: Request, name: string | undefined, use: (upload: Upload) => Promise<T>): Promise<T> {
  const type = request.headers.get("content-type") ?? "";
  if (type.toLowerCase().startsWith("multipart/form-data")) {
    return withFormFile(request, "attachment", (file) => use({ name: name || file.filename, chunks: file.chunks }));
  }
  const body = request.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
  return use({ name: name ?? "", chunks: body });
}

export const releaseAttachmentOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/releases/:id/assets",
    operationId: "repoListReleaseAttachments",
    tag: "repository",
    summary: "List release's attachments",
    access: releaseRead,
    params: ReleaseParams,
    responses: { 200: v.array(Attachment) },
    handler: (ctx) => {
      const rc = ctx.repo;
      return listReleaseAssets(ctx.env, releaseFromPath(ctx.env, rc, ctx.params.id)).map(json(ctx.env));
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/releases/:id/assets",
    operationId: "repoCreateReleaseAttachment",
    tag: "repository",
    summary: "Create a release attachment",
    access: releaseWrite,
    params: ReleaseParams,
    query: UploadQuery,
    multipartFile: "attachment",
    responses: { 201: Attachment },
    handler: async (ctx) => {
      const { repo: rc, doer } = ctx;
      requireAttachmentsEnabled(ctx.env);
      const rel = releaseFromPath(ctx.env, rc, ctx.params.id);
      const a = await withUpload(ctx.request, ctx.query.name, (upload) => uploadReleaseAsset(ctx.env, rc, doer, rel, upload));
      return reply.created(toAPIAttachment(ctx.env.settings, a));
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/releases/:id/assets/:attachment_id",
    operationId: "repoGetReleaseAttachment",
    tag: "repository",
    summary: "Get a release attachment",
    access: releaseRead,
    params: ReleaseAssetParams,
    responses: { 200: Attachment },
    handler: (ctx) => {
      const rel = releaseFromPath(ctx.env, ctx.repo, ctx.params.id);
      return toAPIAttachment(ctx.env.settings, releaseAssetFromPath(ctx.env, rel, ctx.params.attachment_id));
    },
  }),
  operation({
    method: "PATCH",
    path: "/repos/:owner/:repo/releases/:id/assets/:attachment_id",
    operationId: "repoEditReleaseAttachment",
    tag: "repository",
    summary: "Edit a release attachment",
    access: releaseWrite,
    params: ReleaseAssetParams,
    body: EditAttachmentOptions,
    responses: { 201: Attachment },
    handler: (ctx) => {
      const rc = ctx.repo;
      const a = releaseAssetFromPath(ctx.env, releaseFromPath(ctx.env, rc, ctx.params.id), ctx.params.attachment_id);
      // Gitea answers a rename with 201.
      return reply.created(toAPIAttachment(ctx.env.settings, renameReleaseAsset(ctx.env, rc, a, ctx.body.name)));
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/releases/:id/assets/:attachment_id",
    operationId: "repoDeleteReleaseAttachment",
    tag: "repository",
    summary: "Delete a release attachment",
    access: releaseWrite,
    params: ReleaseAssetParams,
    responses: { 204: null },
    handler: (ctx) => {
      const rc = ctx.repo;
      deleteReleaseAsset(ctx.env, rc, releaseAssetFromPath(ctx.env, releaseFromPath(ctx.env, rc, ctx.params.id), ctx.params.attachment_id));
      return reply.noContent();
    },
  }),
];
