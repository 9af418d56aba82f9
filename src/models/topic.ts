import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { repoTopics } from "../db/schema/index.ts";
import { containsText } from "./like.ts";

/**
 * Topic queries over `repo_topic` (repo_id, name). Gitea also keeps a `topic` table (id, repo_count,
 * created, updated); until hearth has one, a topic's id is the oldest row naming it and its count
 * is the number of repositories naming it.
 */
export interface TopicRecord {
  id: number;
  name: string;
  repoCount: number;
}

export function countRepoTopics(tx: Tx, repoId: number): number {
  return tx.select({ n: count() }).from(repoTopics).where(eq(repoTopics.repoId, repoId)).get()!.n;
}

export function hasRepoTopic(tx: Tx, repoId: number, name: string): boolean {
  return (
    tx
      .select({ name: repoTopics.name })
      .from(repoTopics)
      .where(and(eq(repoTopics.repoId, repoId), eq(repoTopics.name, name)))
      .get() !== undefined
  );
}

export function addRepoTopic(tx: Tx, repoId: number, name: string): void {
  tx.insert(repoTopics).values({ repoId, name }).onConflictDoNothing().run();
}

export function removeRepoTopic(tx: Tx, repoId: number, name: string): boolean {
  return (
    tx
      .delete(repoTopics)
      .where(and(eq(repoTopics.repoId, repoId), eq(repoTopics.name, name)))
      .returning()
      .all().length > 0
  );
}

/** Makes a repository's topics exactly `names`, touching only the rows that change. */
export function setRepoTopics(tx: Tx, repoId: number, names: string[]): void {
  const current = tx
    .select({ name: repoTopics.name })
    .from(repoTopics)
    .where(eq(repoTopics.repoId, repoId))
    .all()
    .map((r) => r.name);
  const wanted = new Set(names);
  const gone = current.filter((n) => !wanted.has(n));
  if (gone.length) {
    tx.delete(repoTopics)
      .where(and(eq(repoTopics.repoId, repoId), inArray(repoTopics.name, gone)))
      .run();
  }
  const have = new Set(current);
  const added = names.filter((n) => !have.has(n));
  if (added.length) tx.insert(repoTopics).values(added.map((name) => ({ repoId, name }))).onConflictDoNothing().run();
}

/** A page of one repository's topics by name, and how many it has. */
export function listRepoTopicNames(tx: Tx, repoId: number, offset: number, limit: number): { names: string[]; total: number } {
  const names = tx
    .select({ name: repoTopics.name })
    .from(repoTopics)
    .where(eq(repoTopics.repoId, repoId))
    .orderBy(asc(repoTopics.name))
    .limit(limit)
    .offset(offset)
    .all()
    .map((r) => r.name);
  return { names, total: countRepoTopics(tx, repoId) };
}

/** Topics whose name contains `keyword` (all when empty), most used first. */
export function searchTopics(tx: Tx, keyword: string, offset: number, limit: number): { rows: TopicRecord[]; total: number } {
  const where = keyword ? containsText(repoTopics.name, keyword) : undefined;
  const repoCount = count();
  const rows = tx
    .select({ id: sql<number>`min(${repoTopics}.rowid)`, name: repoTopics.name, repoCount })
    .from(repoTopics)
    .where(where)
    .groupBy(repoTopics.name)
    .orderBy(desc(repoCount), asc(repoTopics.name))
    .limit(limit)
    .offset(offset)
    .all();
  const total = tx
    .select({ n: sql<number>`count(DISTINCT ${repoTopics.name})` })
    .from(repoTopics)
    .where(where)
    .get()!.n;
  return { rows, total };
}
