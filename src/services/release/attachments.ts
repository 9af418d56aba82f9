import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import type { AttachmentRow, ReleaseRow } from "../../db/schema/index.ts";
import * as attachments from "../../models/attachment.ts";
import * as releases from "../../models/release.ts";
import { BadRequest, Invalid, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import type { Writes } from "../access/repo-access.ts";
import type { Doer } from "../access/permission.ts";
import { FORBIDDEN_TYPE, isAllowedType, removeAttachmentFiles, saveUploadedFile, type Upload } from "../issue/attachments.ts";

/** The assets of a release, by name as Gitea lists them. */
export function listReleaseAssets(env: Env, rel: ReleaseRow): AttachmentRow[] {
  return releases.attachmentsOfReleases(env.db, [rel.id]).get(rel.id) ?? [];
}

/** `{attachment_id}` under a release: one of that release's assets, else 404. */
export function releaseAssetFromPath(env: Env, rel: ReleaseRow, id: string): AttachmentRow {
  const a = /^\d{1,15}$/.test(id) ? attachments.getAttachmentById(env.db, Number(id)) : undefined;
  if (!a || a.releaseId !== rel.id || a.repoId !== rel.repoId) throw new NotFound();
  return a;
}

// The writers below take the release's repository only as the proof that writing releases was checked.

/**
 * POST /releases/{id}/assets (Gitea's CreateReleaseAttachment): the file from a multipart
 * `attachment` field or the raw body, named by `name` (required for a raw body: 400), its type
 * checked against `[repository.release] ALLOWED_TYPES` (400, as Gitea) and its size against
 * `[attachment] MAX_SIZE` (413).
 */
export async function uploadReleaseAsset(env: Env, rc: Writes<"releases">, doer: Doer, rel: ReleaseRow, upload: Upload): Promise<AttachmentRow> {
  if (!upload.name) throw new BadRequest("Could not determine name of attachment.");
  const { uuid, size } = await saveUploadedFile(env, upload, env.settings.repository.releaseAllowedTypes, (m) => new BadRequest(m));
  try {
    return writeTx(env.db, (tx) =>
      attachments.insertAttachment(tx, {
        uuid,
        repoId: rel.repoId,
        releaseId: rel.id,
        uploaderId: doer.id,
        name: upload.name,
        size,
        createdUnix: nowUnix(),
      }),
    );
  } catch (err) {
    removeAttachmentFiles(env, [{ uuid }]);
    throw err;
  }
}

/** PATCH: Gitea's UpdateAttachment with the release types; the new name must still be allowed (422). */
export function renameReleaseAsset(env: Env, rc: Writes<"releases">, a: AttachmentRow, name: string | null | undefined): AttachmentRow {
  if (!name) return a;
  if (!isAllowedType(new Uint8Array(0), name, env.settings.repository.releaseAllowedTypes)) throw new Invalid(FORBIDDEN_TYPE);
  return writeTx(env.db, (tx) => attachments.renameAttachment(tx, a.id, name)) ?? a;
}

/** DELETE: the asset's row and file. */
export function deleteReleaseAsset(env: Env, rc: Writes<"releases">, a: AttachmentRow): void {
  writeTx(env.db, (tx) => attachments.deleteAttachmentRows(tx, [a.id]));
  removeAttachmentFiles(env, [a]);
}
