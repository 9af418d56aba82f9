import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { idsParam, inIdsPlaceholder } from "./id-list.ts";
import { attachments, type AttachmentRow } from "../db/schema/index.ts";

type NewAttachmentRow = typeof attachments.$inferInsert;

function byKey(rows: AttachmentRow[], key: (a: AttachmentRow) => number): Map<number, AttachmentRow[]> {
  const out = new Map<number, AttachmentRow[]>();
  for (const a of rows) {
    const list = out.get(key(a)) ?? [];
    list.push(a);
    out.set(key(a), list);
  }
  return out;
}

/** The attachments of issues themselves (not of their comments), by issue. */
export function attachmentsOfIssues(tx: Tx, issueIds: number[]): Map<number, AttachmentRow[]> {
  if (issueIds.length === 0) return new Map();
  const rows = prepared(tx, "attachment.ofIssues", (t) =>
    t.select().from(attachments).where(and(inIdsPlaceholder(attachments.issueId), eq(attachments.commentId, 0))).orderBy(asc(attachments.id)).prepare(),
  ).all(idsParam(issueIds));
  return byKey(rows, (a) => a.issueId);
}

/** The attachments of comments, by comment. */
export function attachmentsOfComments(tx: Tx, commentIds: number[]): Map<number, AttachmentRow[]> {
  if (commentIds.length === 0) return new Map();
  const rows = prepared(tx, "attachment.ofComments", (t) =>
    t.select().from(attachments).where(inIdsPlaceholder(attachments.commentId)).orderBy(asc(attachments.id)).prepare(),
  ).all(idsParam(commentIds));
  return byKey(rows, (a) => a.commentId);
}

export function insertAttachment(tx: Tx, row: NewAttachmentRow): AttachmentRow {
  return tx.insert(attachments).values(row).returning().get();
}

export function getAttachmentById(tx: Tx, id: number): AttachmentRow | undefined {
  return tx.select().from(attachments).where(eq(attachments.id, id)).get();
}

export function getAttachmentByUuid(tx: Tx, uuid: string): AttachmentRow | undefined {
  return tx.select().from(attachments).where(eq(attachments.uuid, uuid)).get();
}

export function renameAttachment(tx: Tx, id: number, name: string): AttachmentRow | undefined {
  return tx.update(attachments).set({ name }).where(eq(attachments.id, id)).returning().get();
}

export function countAttachmentDownload(tx: Tx, id: number): void {
  tx.update(attachments)
    .set({ downloadCount: sql`${attachments.downloadCount} + 1` })
    .where(eq(attachments.id, id))
    .run();
}

export function deleteAttachmentRows(tx: Tx, ids: number[]): void {
  if (ids.length) tx.delete(attachments).where(inArray(attachments.id, ids)).run();
}

/** Every attachment of an issue, its comments' included (for deleting the issue). */
export function attachmentsUnderIssue(tx: Tx, issueId: number): AttachmentRow[] {
  return tx.select().from(attachments).where(eq(attachments.issueId, issueId)).all();
}

/** Every attachment of a repository (for deleting the repository). */
export function attachmentsOfRepo(tx: Tx, repoId: number): AttachmentRow[] {
  return tx.select().from(attachments).where(eq(attachments.repoId, repoId)).all();
}
