import { and, asc, count, desc, eq, inArray, type SQL } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { attachments, releases, repositories, type AttachmentRow, type NewReleaseRow, type ReleaseRow } from "../db/schema/index.ts";

/** A release row of this repository by id (bare tag rows included; callers decide). */
export function getRelease(tx: Tx, repoId: number, id: number): ReleaseRow | undefined {
  return tx
    .select()
    .from(releases)
    .where(and(eq(releases.repoId, repoId), eq(releases.id, id)))
    .get();
}

/** The row of a tag name, compared case-insensitively as Gitea's GetRelease does. */
export function getReleaseByTag(tx: Tx, repoId: number, tagName: string): ReleaseRow | undefined {
  return tx
    .select()
    .from(releases)
    .where(and(eq(releases.repoId, repoId), eq(releases.lowerTagName, tagName.toLowerCase())))
    .get();
}

export interface ReleaseFilter {
  includeDrafts: boolean;
  isDraft?: boolean;
  isPrerelease?: boolean;
}

/** Gitea's FindReleasesOptions.toConds without tags (IncludeTags is always false for the API). */
function conditions(repoId: number, f: ReleaseFilter): SQL {
  const conds: SQL[] = [eq(releases.repoId, repoId), eq(releases.isTag, false)];
  if (!f.includeDrafts) conds.push(eq(releases.isDraft, false));
  if (f.isDraft !== undefined) conds.push(eq(releases.isDraft, f.isDraft));
  if (f.isPrerelease !== undefined) conds.push(eq(releases.isPrerelease, f.isPrerelease));
  return and(...conds)!;
}

/** A page of releases, newest first (`created_unix DESC, id DESC`), and how many match. */
export function listReleases(
  tx: Tx,
  repoId: number,
  f: ReleaseFilter,
  page: { offset: number; limit: number },
): { rows: ReleaseRow[]; total: number } {
  const where = conditions(repoId, f);
  const rows = tx
    .select()
    .from(releases)
    .where(where)
    .orderBy(desc(releases.createdUnix), desc(releases.id))
    .limit(page.limit)
    .offset(page.offset)
    .all();
  const total = tx.select({ n: count() }).from(releases).where(where).get()?.n ?? 0;
  return { rows, total };
}

/** Gitea's GetLatestReleaseByRepoID: the newest release that is neither a draft nor a prerelease. */
export function latestRelease(tx: Tx, repoId: number): ReleaseRow | undefined {
  return tx
    .select()
    .from(releases)
    .where(conditions(repoId, { includeDrafts: false, isDraft: false, isPrerelease: false }))
    .orderBy(desc(releases.createdUnix), desc(releases.id))
    .get();
}

export function insertRelease(tx: Tx, row: NewReleaseRow): ReleaseRow {
  return tx.insert(releases).values(row).returning().get();
}

export function updateRelease(tx: Tx, id: number, patch: Partial<NewReleaseRow>): ReleaseRow | undefined {
  return tx.update(releases).set(patch).where(eq(releases.id, id)).returning().get();
}

export function deleteReleaseRow(tx: Tx, id: number): void {
  tx.delete(releases).where(eq(releases.id, id)).run();
}

/**
 * Keeps the repository's `num_releases` (its JSON's `release_counter`) at Gitea's count: releases
 * that are neither drafts nor bare tags.
 */
export function recountReleases(tx: Tx, repoId: number): void {
  const n = tx.select({ n: count() }).from(releases).where(conditions(repoId, { includeDrafts: false })).get()?.n ?? 0;
  tx.update(repositories).set({ numReleases: n }).where(eq(repositories.id, repoId)).run();
}

/** The assets of releases, by release, each list by name as Gitea's GetReleaseAttachments orders them. */
export function attachmentsOfReleases(tx: Tx, releaseIds: number[]): Map<number, AttachmentRow[]> {
  const out = new Map<number, AttachmentRow[]>();
  if (releaseIds.length === 0) return out;
  const rows = tx
    .select()
    .from(attachments)
    .where(inArray(attachments.releaseId, releaseIds))
    .orderBy(asc(attachments.releaseId), asc(attachments.name), asc(attachments.id))
    .all();
  for (const a of rows) {
    const list = out.get(a.releaseId) ?? [];
    list.push(a);
    out.set(a.releaseId, list);
  }
  return out;
}

/** Removes the asset rows of a release; returns them so their files can be removed after the commit. */
export function deleteReleaseAttachmentRows(tx: Tx, releaseId: number): AttachmentRow[] {
  return tx.delete(attachments).where(eq(attachments.releaseId, releaseId)).returning().all();
}

/**
 * Gitea's PushUpdateDeleteTag for tags that disappeared: bare tag rows go, releases of those tags
 * become drafts without a commit (publishing one again re-creates the tag).
 */
export function tagsDeleted(tx: Tx, repoId: number, tagNames: string[]): void {
  if (tagNames.length === 0) return;
  const lower = tagNames.map((n) => n.toLowerCase());
  tx.delete(releases)
    .where(and(eq(releases.repoId, repoId), eq(releases.isTag, true), inArray(releases.lowerTagName, lower)))
    .run();
  tx.update(releases)
    .set({ isDraft: true, numCommits: 0, sha1: "" })
    .where(and(eq(releases.repoId, repoId), eq(releases.isTag, false), inArray(releases.lowerTagName, lower)))
    .run();
}
