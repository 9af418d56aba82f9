import { and, eq, inArray, or } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { labels, milestones } from "../db/schema/index.ts";

/** Ids of the repository's (and its organization's) labels with these names, case-sensitive as in Gitea. */
export function labelIdsByNames(tx: Tx, repoId: number, ownerId: number, names: string[]): number[] {
  const rows = tx
    .select({ id: labels.id, name: labels.name })
    .from(labels)
    .where(and(inArray(labels.name, names), or(eq(labels.repoId, repoId), and(eq(labels.repoId, 0), eq(labels.orgId, ownerId)))))
    .all();
  return [...new Set(rows.map((r) => r.id))];
}

/** Milestones named by title or by id. */
export function milestoneIdsByNamesOrIds(tx: Tx, repoId: number, parts: string[]): number[] {
  const ids = parts.filter((p) => /^\d+$/.test(p)).map(Number);
  const rows = tx
    .select({ id: milestones.id })
    .from(milestones)
    .where(and(eq(milestones.repoId, repoId), or(inArray(milestones.name, parts), ids.length ? inArray(milestones.id, ids) : undefined)))
    .all();
  return rows.map((r) => r.id);
}
