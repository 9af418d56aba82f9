import { join } from "node:path";
import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import type { AttachmentRow, RepoRow, UserRow } from "../../db/schema/index.ts";
import * as attachments from "../../models/attachment.ts";
import * as comments from "../../models/comment.ts";
import * as issues from "../../models/issue.ts";
import * as releases from "../../models/release.ts";
import * as repos from "../../models/repo.ts";
import * as users from "../../models/user.ts";
import { AttachmentStore } from "../../storage/attachments.ts";
import { detectContentType } from "../../lib/sniff.ts";
import { Forbidden, Invalid, NotFound, TooLarge } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { repoInReach, repoPermission, type RepoUnit } from "../access/permission.ts";
import { unitOf, type IssueContext } from "./lookup.ts";
import type { CommentContext } from "./comments.ts";
import type { SignedIn } from "../access/repo-access.ts";
import type { Doer } from "../access/permission.ts";

const stores = new WeakMap<Env, AttachmentStore>();

function store(env: Env): AttachmentStore {
  let s = stores.get(env);
  if (!s) stores.set(env, (s = new AttachmentStore(join(env.settings.server.appDataPath, "attachments"))));
  return s;
}

/** The attachment files themselves, for moving them whole (dump-repo and restore-repo of release assets). */
export const attachmentStore = (env: Env): AttachmentStore => store(env);

/** Gitea's mustEnableAttachments: with `[attachment] ENABLED = false` the asset routes do not exist. */
export function requireAttachmentsEnabled(env: Env): void {
  if (!env.settings.attachment.enabled) throw new NotFound();
}

export const FORBIDDEN_TYPE = "This file cannot be uploaded or modified due to a forbidden file extension or type.";

/** Go's path.Ext: the suffix from the last dot of the last `/`-separated element. */
function extension(name: string): string {
  const base = name.slice(name.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot >= 0 ? base.slice(dot).toLowerCase() : "";
}

/**
 * Gitea's upload.Verify against `[attachment] ALLOWED_TYPES`: an entry is an extension (`.png`), a
 * mime type (`image/png`), a wildcard (`image/` then `*`) or the match-all entry (`*` slash `*`).
 * The type is sniffed from the first bytes; with no content to sniff (a rename) only extensions
 * count. No entries at all allow everything.
 */
export function isAllowedType(head: Uint8Array, name: string, allowedTypes: string): boolean {
  const allowed = allowedTypes
    .replaceAll("|", ",")
    .split(",")
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  if (allowed.length === 0) return true;
  const mime = detectContentType(head).split(";")[0]!.trim().toLowerCase();
  const ext = extension(name);
  const sniffable = head.length > 1;
  return allowed.some(
    (entry) =>
      entry === "*/*" ||
      (entry.startsWith(".") && entry === ext) ||
      (sniffable && (entry === mime || (/^[a-z]+\/\*$/.test(entry) && mime.startsWith(entry.slice(0, -1))))),
  );
}

/** The bytes Gitea sniffs a type from. */
const SNIFF_BYTES = 1024;

export interface Upload {
  /** The file name: the `name` query parameter, else the name the client sent with the file. */
  name: string;
  chunks: AsyncIterable<Uint8Array>;
}

/** The first bytes of a stream (at least SNIFF_BYTES unless it is shorter), and what is left of it. */
async function splitHead(chunks: AsyncIterable<Uint8Array>): Promise<{ head: Buffer; rest: AsyncIterator<Uint8Array> | undefined }> {
  const source = chunks[Symbol.asyncIterator]();
  const parts: Uint8Array[] = [];
  let size = 0;
  while (size < SNIFF_BYTES) {
    const next = await source.next();
    if (next.done) return { head: Buffer.concat(parts), rest: undefined };
    parts.push(next.value);
    size += next.value.byteLength;
  }
  return { head: Buffer.concat(parts), rest: source };
}

/** The head and the rest as one stream that fails with Gitea's 413 once it passes `limit` bytes. */
async function* limited(head: Buffer, rest: AsyncIterator<Uint8Array> | undefined, limit: number): AsyncIterable<Uint8Array> {
  const tooLarge = () => new TooLarge(`attachment exceeds limit ${limit}`);
  let size = head.byteLength;
  if (size > limit) throw tooLarge();
  yield head;
  for (let next = await rest?.next(); next && !next.done; next = await rest!.next()) {
    size += next.value.byteLength;
    if (size > limit) throw tooLarge();
    yield next.value;
  }
}

/**
 * The file half of Gitea's UploadAttachment, shared with release assets: the type is checked on
 * the first bytes against `allowedTypes` (`forbidden` makes the refusal; 422 unless the caller
 * says otherwise), the bytes are written under a new uuid, failing with 413 past `[attachment]
 * MAX_SIZE` MiB and leaving nothing behind. The caller stores the row (and removes the file with
 * removeAttachmentFiles if that fails).
 */
export async function saveUploadedFile(
  env: Env,
  upload: Upload,
  allowedTypes: string,
  forbidden: (message: string) => Error = (m) => new Invalid(m),
): Promise<{ uuid: string; size: number }> {
  const { head, rest } = await splitHead(upload.chunks);
  if (!isAllowedType(head.subarray(0, SNIFF_BYTES), upload.name, allowedTypes)) throw forbidden(FORBIDDEN_TYPE);
  const uuid = crypto.randomUUID();
  const size = await store(env).save(uuid, limited(head, rest, env.settings.attachment.maxSize * 1024 * 1024));
  return { uuid, size };
}

/**
 * Gitea's uploadAttachment: the type is checked on the first bytes (422), then the size against
 * `[attachment] MAX_SIZE` MiB (413) while the bytes are written; a refused file leaves nothing
 * behind. The row is stored only once the file is complete, and the issue or comment it belongs
 * to is touched (Gitea re-saves its content after an upload: version and update time move).
 */
async function storeUpload(env: Env, doer: UserRow, target: { repoId: number; issueId: number; commentId: number }, upload: Upload) {
  const { uuid, size } = await saveUploadedFile(env, upload, env.settings.attachment.allowedTypes);
  const now = nowUnix();
  try {
    return writeTx(env.db, (tx) => {
      const row = attachments.insertAttachment(tx, { ...target, uuid, uploaderId: doer.id, name: upload.name, size, createdUnix: now });
      if (target.commentId) {
        const c = comments.getCommentById(tx, target.commentId);
        if (c) comments.updateComment(tx, c.id, { contentVersion: c.contentVersion + 1, updatedUnix: now });
      } else {
        const i = issues.getIssueById(tx, target.issueId);
        if (i) issues.updateIssue(tx, i.id, { contentVersion: i.contentVersion + 1, updatedUnix: now });
      }
      return row;
    });
  } catch (err) {
    store(env).remove(uuid);
    throw err;
  }
}

/**
 * Gitea's canUserWriteIssueAttachment: the issue's poster, a repository or site admin, or a writer
 * of its unit adds, renames and deletes the issue's attachments.
 */
export function requireIssueAttachmentWriter(doer: UserRow, ic: IssueContext): void {
  const ok = doer.id === ic.issue.posterId || ic.perm.isAdmin() || doer.isAdmin || ic.perm.canWrite(unitOf(ic.issue));
  if (!ok) throw new Forbidden("user should have permission to write issue");
}

/**
 * Gitea's canUserWriteIssueCommentAttachment: a writer of the unit who is the comment's poster or a
 * repository or site admin.
 */
export function requireCommentAttachmentWriter(doer: UserRow, cc: CommentContext): void {
  const ok = (doer.id === cc.comment.posterId || cc.perm.isAdmin() || doer.isAdmin) && cc.perm.canWrite(unitOf(cc.issue));
  if (!ok) throw new Forbidden("user should have permission to edit comment");
}

export function listIssueAttachments(env: Env, ic: IssueContext): AttachmentRow[] {
  return attachments.attachmentsOfIssues(env.db, [ic.issue.id]).get(ic.issue.id) ?? [];
}

export function listCommentAttachments(env: Env, cc: CommentContext): AttachmentRow[] {
  return attachments.attachmentsOfComments(env.db, [cc.comment.id]).get(cc.comment.id) ?? [];
}

function attachmentById(env: Env, id: string, repoId: number): AttachmentRow {
  const a = /^\d{1,15}$/.test(id) ? attachments.getAttachmentById(env.db, Number(id)) : undefined;
  if (!a) throw new NotFound("attachment does not exist");
  if (a.repoId !== repoId) throw new NotFound("no such attachment in repo");
  return a;
}

/**
 * `{attachment_id}` under an issue: one of the issue's own attachments. Gitea also lets a comment's
 * attachment through here; hearth does not, so the issue's poster cannot rename or delete files
 * on other people's comments through the issue's route.
 */
export function issueAttachmentFromPath(env: Env, ic: IssueContext, id: string): AttachmentRow {
  const a = attachmentById(env, id, ic.repo.id);
  if (a.issueId !== ic.issue.id || a.commentId !== 0) throw new NotFound("no such attachment in issue");
  return a;
}

/** `{attachment_id}` under a comment: one of the comment's attachments. */
export function commentAttachmentFromPath(env: Env, cc: CommentContext, id: string): AttachmentRow {
  const a = attachmentById(env, id, cc.repo.id);
  if (a.commentId !== cc.comment.id) throw new NotFound("no such attachment in comment");
  return a;
}

export function uploadIssueAttachment(env: Env, doer: Doer, ic: SignedIn<IssueContext>, upload: Upload): Promise<AttachmentRow> {
  return storeUpload(env, doer, { repoId: ic.repo.id, issueId: ic.issue.id, commentId: 0 }, upload);
}

export function uploadCommentAttachment(env: Env, doer: Doer, cc: SignedIn<CommentContext>, upload: Upload): Promise<AttachmentRow> {
  return storeUpload(env, doer, { repoId: cc.repo.id, issueId: cc.issue.id, commentId: cc.comment.id }, upload);
}

/**
 * Gitea's UpdateAttachment: only the name changes, and the new name must still be an allowed type.
 * `at` is the checked issue or comment the attachment was found under (`issueAttachmentFromPath`,
 * `commentAttachmentFromPath`); the caller asked Gitea's attachment-writer rule first.
 */
export function renameAttachment(env: Env, at: SignedIn<IssueContext>, a: AttachmentRow, name: string | undefined): AttachmentRow {
  void at;
  if (!name) return a;
  if (!isAllowedType(new Uint8Array(0), name, env.settings.attachment.allowedTypes)) throw new Invalid(FORBIDDEN_TYPE);
  return writeTx(env.db, (tx) => attachments.renameAttachment(tx, a.id, name)) ?? a;
}

/** Gitea's DeleteAttachment, of an attachment found under the checked issue or comment `at`. */
export function deleteAttachment(env: Env, at: SignedIn<IssueContext>, a: AttachmentRow): void {
  void at;
  writeTx(env.db, (tx) => attachments.deleteAttachmentRows(tx, [a.id]));
  removeAttachmentFiles(env, [a]);
}

/** Removes the files of attachments whose rows are gone (after the transaction that deleted them). */
export function removeAttachmentFiles(env: Env, rows: Pick<AttachmentRow, "uuid">[]): void {
  for (const a of rows) store(env).remove(a.uuid);
}

/** What a download serves. */
export interface Download {
  attachment: AttachmentRow;
  /** The repository the attachment belongs to. */
  repo: RepoRow;
  /** The unit it is read under; undefined for an attachment not linked to an issue or release yet. */
  unit: RepoUnit | undefined;
  path: string;
}

/**
 * Gitea's ServeAttachment access rule: an attachment is downloadable by whoever can read the unit
 * it belongs to (the issue's or pull request's unit, releases for a release asset); an attachment
 * not linked to anything yet only by its uploader. Everyone else gets 404, as for a missing one.
 */
export function findDownload(env: Env, doer: UserRow | undefined, uuid: string): Download | undefined {
  const attachment = attachments.getAttachmentByUuid(env.db, uuid);
  if (!attachment) return undefined;
  const repo = repos.getRepoById(env.db, attachment.repoId);
  const owner = repo && users.getUserById(env.db, repo.ownerId);
  if (!repo || !owner) return undefined;
  let unit: RepoUnit | undefined;
  let draft = false;
  if (attachment.issueId) {
    const issue = issues.getIssueById(env.db, attachment.issueId);
    if (!issue || issue.repoId !== repo.id) return undefined;
    unit = unitOf(issue);
  } else if (attachment.releaseId) {
    const release = releases.getRelease(env.db, repo.id, attachment.releaseId);
    if (!release) return undefined;
    unit = "releases";
    draft = release.isDraft;
  }
  // A public-only token reads no file of a repository out of its reach, its own uploads included.
  if (!repoInReach(doer, repo, owner)) return undefined;
  const perm = repoPermission(env, doer, repo, owner);
  if (unit ? !perm.canRead(unit) : doer?.id !== attachment.uploaderId) return undefined;
  // A draft's assets are for release writers only (Gitea #36659).
  if (draft && !perm.canWrite("releases") && !perm.isAdmin()) return undefined;
  const path = store(env).file(attachment.uuid);
  return path ? { attachment, repo, unit, path } : undefined;
}

/** Gitea counts every permitted download, cached or not. */
export function countDownload(env: Env, a: AttachmentRow): void {
  writeTx(env.db, (tx) => attachments.countAttachmentDownload(tx, a.id));
}
