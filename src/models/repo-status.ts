import { asc, eq } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { repositories, type RepoRow } from "../db/schema/index.ts";

/**
 * Repositories in a Gitea RepositoryStatus (the imports a stop cut short), oldest first. Apart from
 * models/repo.ts because the server's start asks it, and should load no more than it needs.
 */
export function reposWithStatus(tx: Tx, status: number): RepoRow[] {
  return tx.select().from(repositories).where(eq(repositories.status, status)).orderBy(asc(repositories.id)).all();
}
