import { and, asc, count, eq } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { repositories, stars, users, watches, type RepoRow, type UserRow } from "../db/schema/index.ts";
import { repoVisibleCondition, type RepoView } from "./repo-visibility.ts";

/** Stars and watches are the same shape: a user linked to a repository. One set of listings serves both. */
export type UserRepoLink = typeof stars | typeof watches;

/** The users linked to a repository (stargazers, watchers), by user id. */
export function listLinkedUsers(tx: Tx, link: UserRepoLink, repoId: number, offset: number, limit: number): UserRow[] {
  return tx
    .select({ user: users })
    .from(link)
    .innerJoin(users, eq(users.id, link.uid))
    .where(eq(link.repoId, repoId))
    .orderBy(asc(users.id))
    .limit(limit)
    .offset(offset)
    .all()
    .map((r) => r.user);
}

/** The repositories `uid` is linked to that `view` may see, by repository id. */
export function listLinkedRepos(
  tx: Tx,
  link: UserRepoLink,
  uid: number,
  view: RepoView,
  offset: number,
  limit: number,
): { rows: RepoRow[]; total: number } {
  const where = and(eq(link.uid, uid), repoVisibleCondition(view));
  const rows = tx
    .select({ repo: repositories })
    .from(link)
    .innerJoin(repositories, eq(repositories.id, link.repoId))
    .where(where)
    .orderBy(asc(repositories.id))
    .limit(limit)
    .offset(offset)
    .all()
    .map((r) => r.repo);
  const total = tx
    .select({ n: count() })
    .from(link)
    .innerJoin(repositories, eq(repositories.id, link.repoId))
    .where(where)
    .get()!.n;
  return { rows, total };
}
