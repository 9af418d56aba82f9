import { and, asc, count, countDistinct, eq, like, lt, max, or, sum, type SQL } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { actionArtifacts, type ActionArtifactRow } from "../db/schema/index.ts";

/**
 * Gitea's ArtifactStatus (models/actions/artifact.go), numbered as Gitea numbers them: the rows
 * of a Gitea database mean the same here. (UploadError is never set; Gitea keeps it so the
 * numbers after it stay stable.)
 */
export const ArtifactStatus = {
  UploadPending: 1,
  UploadConfirmed: 2,
  UploadError: 3,
  Expired: 4,
  PendingDeletion: 5,
  Deleted: 6,
} as const;

export type NewActionArtifactRow = typeof actionArtifacts.$inferInsert;

export function insertArtifact(tx: Tx, row: NewActionArtifactRow): ActionArtifactRow {
  return tx.insert(actionArtifacts).values(row).returning().get();
}

export function artifactById(tx: Tx, id: number): ActionArtifactRow | undefined {
  return tx.select().from(actionArtifacts).where(eq(actionArtifacts.id, id)).get();
}

/** Gitea's getArtifactByNameAndPath: a run's artifact of this name and path (one per pair). */
export function artifactByNameAndPath(tx: Tx, runId: number, name: string, path: string): ActionArtifactRow | undefined {
  return tx
    .select()
    .from(actionArtifacts)
    .where(and(eq(actionArtifacts.runId, runId), eq(actionArtifacts.artifactName, name), eq(actionArtifacts.artifactPath, path)))
    .orderBy(asc(actionArtifacts.id))
    .get();
}

export function updateArtifact(tx: Tx, id: number, patch: Partial<ActionArtifactRow>): void {
  tx.update(actionArtifacts).set(patch).where(eq(actionArtifacts.id, id)).run();
}

/** A run's artifacts of one status, by id (Gitea's FindArtifactsOptions{RunID, Status}). */
export function artifactsOfRun(tx: Tx, runId: number, status: number): ActionArtifactRow[] {
  return tx
    .select()
    .from(actionArtifacts)
    .where(and(eq(actionArtifacts.runId, runId), eq(actionArtifacts.status, status)))
    .orderBy(asc(actionArtifacts.id))
    .all();
}

/** A run's artifacts of one name, any status, by id (Gitea's FindArtifactsOptions{RunID, ArtifactName}). */
export function artifactsOfRunNamed(tx: Tx, runId: number, name: string): ActionArtifactRow[] {
  return tx
    .select()
    .from(actionArtifacts)
    .where(and(eq(actionArtifacts.runId, runId), eq(actionArtifacts.artifactName, name)))
    .orderBy(asc(actionArtifacts.id))
    .all();
}

export interface FinalizedFilter {
  repoId: number;
  runId?: number;
  name?: string;
}

/**
 * Gitea's FindArtifactsOptions with FinalizedArtifactsV4: uploaded (or expired) artifacts stored
 * whole as one file, which the v4 protocol marks by a content type (`application/zip`) in
 * content_encoding, where v3 kept a real encoding (`gzip`) or nothing.
 */
function finalizedConditions(f: FinalizedFilter): SQL | undefined {
  const conds: SQL[] = [eq(actionArtifacts.repoId, f.repoId)];
  if (f.runId !== undefined && f.runId > 0) conds.push(eq(actionArtifacts.runId, f.runId));
  if (f.name) conds.push(eq(actionArtifacts.artifactName, f.name));
  conds.push(or(eq(actionArtifacts.status, ArtifactStatus.UploadConfirmed), eq(actionArtifacts.status, ArtifactStatus.Expired))!);
  conds.push(like(actionArtifacts.contentEncoding, "%/%"));
  return and(...conds);
}

/** One page of finalized v4 artifacts by id, and how many match. */
export function listFinalizedArtifacts(tx: Tx, f: FinalizedFilter, page: { offset: number; limit: number }): { rows: ActionArtifactRow[]; total: number } {
  const where = finalizedConditions(f);
  const rows = tx.select().from(actionArtifacts).where(where).orderBy(asc(actionArtifacts.id)).limit(page.limit).offset(page.offset).all();
  const total = tx.select({ n: count() }).from(actionArtifacts).where(where).get()?.n ?? 0;
  return { rows, total };
}

/** Gitea's SetArtifactNeedDelete: a run's uploaded artifacts of a name go to the deletion sweep. */
export function markArtifactsForDeletion(tx: Tx, runId: number, name: string, now: number): void {
  tx.update(actionArtifacts)
    .set({ status: ArtifactStatus.PendingDeletion, updatedUnix: now })
    .where(and(eq(actionArtifacts.runId, runId), eq(actionArtifacts.artifactName, name), eq(actionArtifacts.status, ArtifactStatus.UploadConfirmed)))
    .run();
}

/** Gitea's ListNeedExpiredArtifacts: uploaded artifacts whose time ran out, at most `limit`. */
export function artifactsPastExpiry(tx: Tx, now: number, limit: number): ActionArtifactRow[] {
  return tx
    .select()
    .from(actionArtifacts)
    .where(and(eq(actionArtifacts.status, ArtifactStatus.UploadConfirmed), lt(actionArtifacts.expiredUnix, now)))
    .orderBy(asc(actionArtifacts.id))
    .limit(limit)
    .all();
}

/** Gitea's ListPendingDeleteArtifacts. */
export function artifactsPendingDeletion(tx: Tx, limit: number): ActionArtifactRow[] {
  return tx.select().from(actionArtifacts).where(eq(actionArtifacts.status, ArtifactStatus.PendingDeletion)).orderBy(asc(actionArtifacts.id)).limit(limit).all();
}

/** Moves an artifact from one status to another unless something else moved it first; true if it did. */
export function moveArtifactStatus(tx: Tx, id: number, from: number, to: number, now: number): boolean {
  return (
    tx
      .update(actionArtifacts)
      .set({ status: to, updatedUnix: now })
      .where(and(eq(actionArtifacts.id, id), eq(actionArtifacts.status, from)))
      .returning({ id: actionArtifacts.id })
      .all().length === 1
  );
}

/** The stored files of a run's artifacts (or every run's of a repository), before their rows go. */
export function artifactFilesOf(tx: Tx, where: { runId: number } | { repoId: number }): string[] {
  return tx
    .select({ path: actionArtifacts.storagePath })
    .from(actionArtifacts)
    .where("runId" in where ? eq(actionArtifacts.runId, where.runId) : eq(actionArtifacts.repoId, where.repoId))
    .all()
    .map((r) => r.path)
    .filter(Boolean);
}

/** A run's artifact of one name as its page lists it: all its files' sizes summed, its highest status (expired wins). */
export interface ArtifactMeta {
  name: string;
  size: number;
  status: number;
}

/**
 * Gitea's ListUploadedArtifactsMeta: a run's uploaded or expired artifacts, one row per name (a v3
 * artifact has a row per file), by name; at most `limit` names (or only `name`), and how many there are.
 */
export function uploadedArtifactsMeta(tx: Tx, f: { repoId: number; runId: number; name?: string }, limit: number): { rows: ArtifactMeta[]; total: number } {
  const conds: SQL[] = [
    eq(actionArtifacts.repoId, f.repoId),
    eq(actionArtifacts.runId, f.runId),
    or(eq(actionArtifacts.status, ArtifactStatus.UploadConfirmed), eq(actionArtifacts.status, ArtifactStatus.Expired))!,
  ];
  if (f.name !== undefined) conds.push(eq(actionArtifacts.artifactName, f.name));
  const where = and(...conds);
  const rows = tx
    .select({ name: actionArtifacts.artifactName, size: sum(actionArtifacts.fileSize).mapWith(Number), status: max(actionArtifacts.status) })
    .from(actionArtifacts)
    .where(where)
    .groupBy(actionArtifacts.artifactName)
    .orderBy(asc(actionArtifacts.artifactName))
    .limit(limit)
    .all()
    .map((r) => ({ name: r.name, size: r.size, status: r.status ?? ArtifactStatus.UploadConfirmed }));
  const total = tx.select({ n: countDistinct(actionArtifacts.artifactName) }).from(actionArtifacts).where(where).get()?.n ?? 0;
  return { rows, total };
}

/** Whether the retention sweep has work: an uploaded artifact past its time, or one marked for deletion. */
export function artifactsToSweep(tx: Tx, now: number): boolean {
  return (
    tx
      .select({ id: actionArtifacts.id })
      .from(actionArtifacts)
      .where(
        or(
          and(eq(actionArtifacts.status, ArtifactStatus.UploadConfirmed), lt(actionArtifacts.expiredUnix, now)),
          eq(actionArtifacts.status, ArtifactStatus.PendingDeletion),
        ),
      )
      .limit(1)
      .get() !== undefined
  );
}
