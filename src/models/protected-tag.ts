import { and, asc, eq } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { protectedTags, type NewProtectedTagRow, type ProtectedTagRow } from "../db/schema/index.ts";

/** Every tag protection of a repository, in creation order (Gitea's GetProtectedTags). */
export function listProtectedTags(tx: Tx, repoId: number): ProtectedTagRow[] {
  return tx.select().from(protectedTags).where(eq(protectedTags.repoId, repoId)).orderBy(asc(protectedTags.id)).all();
}

/** A protection of this repository by id; another repository's id finds nothing. */
export function getProtectedTag(tx: Tx, repoId: number, id: number): ProtectedTagRow | undefined {
  return tx
    .select()
    .from(protectedTags)
    .where(and(eq(protectedTags.repoId, repoId), eq(protectedTags.id, id)))
    .get();
}

/** A protection of this repository by its exact pattern (Gitea's GetProtectedTagByNamePattern). */
export function getProtectedTagByPattern(tx: Tx, repoId: number, pattern: string): ProtectedTagRow | undefined {
  return tx
    .select()
    .from(protectedTags)
    .where(and(eq(protectedTags.repoId, repoId), eq(protectedTags.namePattern, pattern)))
    .get();
}

export function insertProtectedTag(tx: Tx, row: NewProtectedTagRow): ProtectedTagRow {
  return tx.insert(protectedTags).values(row).returning().get();
}

export function updateProtectedTag(tx: Tx, repoId: number, id: number, patch: Partial<NewProtectedTagRow>): ProtectedTagRow | undefined {
  return tx
    .update(protectedTags)
    .set(patch)
    .where(and(eq(protectedTags.repoId, repoId), eq(protectedTags.id, id)))
    .returning()
    .get();
}

export function deleteProtectedTag(tx: Tx, repoId: number, id: number): boolean {
  return (
    tx
      .delete(protectedTags)
      .where(and(eq(protectedTags.repoId, repoId), eq(protectedTags.id, id)))
      .returning({ id: protectedTags.id })
      .all().length > 0
  );
}
