import { and, asc, count, desc, eq, inArray, max, sql, type SQL } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { commitStatuses, type CommitStatusRow } from "../db/schema/index.ts";

export type NewCommitStatus = Omit<typeof commitStatuses.$inferInsert, "id" | "index">;

/**
 * Stores a status with the next per-commit index (Gitea's GetNextCommitStatusIndex). The caller
 * runs this inside a write transaction, which serialises concurrent writers on SQLite.
 */
export function insertCommitStatus(tx: Tx, row: NewCommitStatus): CommitStatusRow {
  const last = tx
    .select({ n: max(commitStatuses.index) })
    .from(commitStatuses)
    .where(and(eq(commitStatuses.repoId, row.repoId), eq(commitStatuses.sha, row.sha)))
    .get();
  return tx
    .insert(commitStatuses)
    .values({ ...row, index: (last?.n ?? 0) + 1 })
    .returning()
    .get();
}

/** Gitea's sort names for status lists; note that `leastindex` sorts by index descending, as Gitea does. */
export type StatusSort = "oldest" | "recentupdate" | "leastupdate" | "leastindex" | "highestindex" | "";

function orderOf(sort: StatusSort): SQL[] {
  switch (sort) {
    case "oldest":
      return [asc(commitStatuses.createdUnix), asc(commitStatuses.id)];
    case "recentupdate":
      return [desc(commitStatuses.updatedUnix), desc(commitStatuses.id)];
    case "leastupdate":
      return [asc(commitStatuses.updatedUnix), asc(commitStatuses.id)];
    case "leastindex":
      return [desc(commitStatuses.index)];
    case "highestindex":
      return [asc(commitStatuses.index)];
    default:
      return [desc(commitStatuses.createdUnix), desc(commitStatuses.id)];
  }
}

/** Every status of one commit, filtered by state and paged (Gitea's GetCommitStatuses). */
export function listCommitStatuses(
  tx: Tx,
  repoId: number,
  sha: string,
  opts: { state?: string; sort: StatusSort },
  page: { limit: number; offset: number },
): { rows: CommitStatusRow[]; total: number } {
  const conds: SQL[] = [eq(commitStatuses.repoId, repoId), eq(commitStatuses.sha, sha)];
  if (opts.state) conds.push(eq(commitStatuses.state, opts.state));
  const where = and(...conds);
  const rows = tx
    .select()
    .from(commitStatuses)
    .where(where)
    .orderBy(...orderOf(opts.sort))
    .limit(page.limit)
    .offset(page.offset)
    .all();
  const total = tx.select({ n: count() }).from(commitStatuses).where(where).get()?.n ?? 0;
  return { rows, total };
}

/**
 * The newest status of each context of a commit, newest first (Gitea's GetLatestCommitStatus:
 * max(id) grouped by context_hash); `page` limits the contexts returned.
 */
export function latestCommitStatuses(
  tx: Tx,
  repoId: number,
  sha: string,
  page?: { limit: number; offset: number },
): CommitStatusRow[] {
  const latest = tx
    .select({ id: max(commitStatuses.id).as("latest_id") })
    .from(commitStatuses)
    .where(and(eq(commitStatuses.repoId, repoId), eq(commitStatuses.sha, sha)))
    .groupBy(commitStatuses.contextHash)
    .orderBy(desc(sql`latest_id`));
  const ids = (page ? latest.limit(page.limit).offset(page.offset) : latest).all().map((r) => r.id!);
  if (ids.length === 0) return [];
  return tx.select().from(commitStatuses).where(inArray(commitStatuses.id, ids)).orderBy(desc(commitStatuses.id)).all();
}

/** How many contexts a commit has statuses for (Gitea's CountLatestCommitStatus). */
export function countLatestCommitStatuses(tx: Tx, repoId: number, sha: string): number {
  return (
    tx
      .select({ n: sql<number>`count(DISTINCT ${commitStatuses.contextHash})` })
      .from(commitStatuses)
      .where(and(eq(commitStatuses.repoId, repoId), eq(commitStatuses.sha, sha)))
      .get()?.n ?? 0
  );
}
