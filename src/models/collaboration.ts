import { and, asc, count, eq, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { collaborations, orgUsers, users, type CollaborationRow, type UserRow } from "../db/schema/index.ts";
import { nowUnix } from "../lib/time.ts";

export function getCollaboration(tx: Tx, repoId: number, userId: number): CollaborationRow | undefined {
  return prepared(tx, "collab.get", (t) =>
    t
      .select()
      .from(collaborations)
      .where(and(eq(collaborations.repoId, sql.placeholder("repoId")), eq(collaborations.userId, sql.placeholder("userId"))))
      .prepare(),
  ).get({ repoId, userId });
}

export function putCollaboration(tx: Tx, repoId: number, userId: number, mode: number): void {
  const now = nowUnix();
  tx.insert(collaborations)
    .values({ repoId, userId, mode, createdUnix: now, updatedUnix: now })
    .onConflictDoUpdate({ target: [collaborations.repoId, collaborations.userId], set: { mode, updatedUnix: now } })
    .run();
}

export function deleteCollaboration(tx: Tx, repoId: number, userId: number): boolean {
  return (
    tx
      .delete(collaborations)
      .where(and(eq(collaborations.repoId, repoId), eq(collaborations.userId, userId)))
      .returning({ id: collaborations.id })
      .all().length > 0
  );
}

export function listCollaborators(
  tx: Tx,
  repoId: number,
  offset: number,
  limit: number,
): { rows: { user: UserRow; mode: number }[]; total: number } {
  const rows = tx
    .select({ user: users, mode: collaborations.mode })
    .from(collaborations)
    .innerJoin(users, eq(users.id, collaborations.userId))
    .where(eq(collaborations.repoId, repoId))
    .orderBy(asc(users.lowerName))
    .limit(limit)
    .offset(offset)
    .all();
  const total = tx.select({ n: count() }).from(collaborations).where(eq(collaborations.repoId, repoId)).get()!.n;
  return { rows, total };
}

/** Members of an organization taking over a repository need no collaboration on it any more. */
export function deleteOrgMemberCollaborations(tx: Tx, repoId: number, orgId: number): void {
  tx.delete(collaborations)
    .where(
      and(
        eq(collaborations.repoId, repoId),
        sql`${collaborations.userId} IN (SELECT ${orgUsers.uid} FROM ${orgUsers} WHERE ${orgUsers.orgId} = ${orgId})`,
      ),
    )
    .run();
}

/** Every collaboration of one account, for permission checks over many repositories at once. */
export function collaborationsOfUser(tx: Tx, userId: number): CollaborationRow[] {
  return tx.select().from(collaborations).where(eq(collaborations.userId, userId)).all();
}
