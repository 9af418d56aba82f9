import { and, asc, eq, inArray } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { attachments, type AttachmentRow } from "../db/schema/index.ts";

/** The attachments of issues themselves (not of their comments), by issue. */
export function attachmentsOfIssues(tx: Tx, issueIds: number[]): Map<number, AttachmentRow[]> {
  const out = new Map<number, AttachmentRow[]>();
  if (issueIds.length === 0) return out;
  const rows = tx
    .select()
    .from(attachments)
    .where(and(inArray(attachments.issueId, issueIds), eq(attachments.commentId, 0)))
    .orderBy(asc(attachments.id))
    .all();
  for (const a of rows) {
    const list = out.get(a.issueId) ?? [];
    list.push(a);
    out.set(a.issueId, list);
  }
  return out;
}
