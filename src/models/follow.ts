import { and, asc, count, eq, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { follows, teamUsers, users, UserType, Visibility, type UserRow } from "../db/schema/index.ts";

/** Who is looking at a list of users: undefined is anonymous (or a public-only token). */
export type UserViewer = Pick<UserRow, "id" | "isAdmin" | "isRestricted"> | undefined;

/**
 * Gitea's isUserVisibleToViewerCond: site admins see everyone; anonymous and restricted viewers
 * see public users; anyone else also sees limited users, themselves, private users who follow
 * them, and private users and organizations they share an organization with.
 */
export function userVisibleCondition(viewer: UserViewer): SQL | undefined {
  if (viewer?.isAdmin) return undefined;
  if (!viewer || viewer.isRestricted) return eq(users.visibility, Visibility.Public);
  const viewersOrgs = sql`(SELECT ${teamUsers.orgId} FROM ${teamUsers} WHERE ${teamUsers.uid} = ${viewer.id})`;
  return or(
    ne(users.visibility, Visibility.Private),
    eq(users.id, viewer.id),
    inArray(users.id, sql`(SELECT ${follows.userId} FROM ${follows} WHERE ${follows.followId} = ${viewer.id})`),
    inArray(users.id, sql`(SELECT ${teamUsers.uid} FROM ${teamUsers} WHERE ${teamUsers.orgId} IN ${viewersOrgs})`),
    inArray(users.id, viewersOrgs),
  );
}

export function isFollowing(tx: Tx, userId: number, followId: number): boolean {
  return (
    tx
      .select({ id: follows.id })
      .from(follows)
      .where(and(eq(follows.userId, userId), eq(follows.followId, followId)))
      .get() !== undefined
  );
}

/** `userId` follows `followId`; both counters move with the row. False when already following. */
export function addFollow(tx: Tx, userId: number, followId: number, unix: number): boolean {
  const inserted = tx.insert(follows).values({ userId, followId, createdUnix: unix }).onConflictDoNothing().returning().all();
  if (inserted.length === 0) return false;
  tx.update(users)
    .set({ numFollowers: sql`${users.numFollowers} + 1` })
    .where(eq(users.id, followId))
    .run();
  tx.update(users)
    .set({ numFollowing: sql`${users.numFollowing} + 1` })
    .where(eq(users.id, userId))
    .run();
  return true;
}

/** Ends a follow; false when there was none. */
export function removeFollow(tx: Tx, userId: number, followId: number): boolean {
  const removed = tx
    .delete(follows)
    .where(and(eq(follows.userId, userId), eq(follows.followId, followId)))
    .returning()
    .all();
  if (removed.length === 0) return false;
  tx.update(users)
    .set({ numFollowers: sql`max(${users.numFollowers} - 1, 0)` })
    .where(eq(users.id, followId))
    .run();
  tx.update(users)
    .set({ numFollowing: sql`max(${users.numFollowing} - 1, 0)` })
    .where(eq(users.id, userId))
    .run();
  return true;
}

/**
 * Before an account is deleted: whoever it followed loses a follower, whoever followed it follows
 * one fewer, and its follow rows go (the foreign keys would drop the rows, not the counters).
 */
export function clearFollows(tx: Tx, uid: number): void {
  tx.update(users)
    .set({ numFollowers: sql`max(${users.numFollowers} - 1, 0)` })
    .where(inArray(users.id, sql`(SELECT ${follows.followId} FROM ${follows} WHERE ${follows.userId} = ${uid})`))
    .run();
  tx.update(users)
    .set({ numFollowing: sql`max(${users.numFollowing} - 1, 0)` })
    .where(inArray(users.id, sql`(SELECT ${follows.userId} FROM ${follows} WHERE ${follows.followId} = ${uid})`))
    .run();
  tx.delete(follows).where(or(eq(follows.userId, uid), eq(follows.followId, uid))).run();
}

/** One page of the users on one side of `uid`'s follows that `viewer` may see, and how many there are. */
function listLinked(
  tx: Tx,
  side: "followers" | "following",
  uid: number,
  viewer: UserViewer,
  offset: number,
  limit: number,
): { rows: UserRow[]; total: number } {
  // Followers are individuals (organizations cannot follow); one may follow an organization.
  const [join, anchor, types] =
    side === "followers"
      ? [follows.userId, follows.followId, [UserType.Individual]]
      : [follows.followId, follows.userId, [UserType.Individual, UserType.Organization]];
  const where = and(eq(anchor, uid), inArray(users.type, types), userVisibleCondition(viewer));
  const rows = tx
    .select({ user: users })
    .from(follows)
    .innerJoin(users, eq(users.id, join))
    .where(where)
    .orderBy(asc(users.id))
    .limit(limit)
    .offset(offset)
    .all()
    .map((r) => r.user);
  const total = tx.select({ n: count() }).from(follows).innerJoin(users, eq(users.id, join)).where(where).get()!.n;
  return { rows, total };
}

/** Gitea's GetUserFollowers. */
export function listFollowers(tx: Tx, uid: number, viewer: UserViewer, offset: number, limit: number) {
  return listLinked(tx, "followers", uid, viewer, offset, limit);
}

/** Gitea's GetUserFollowing. */
export function listFollowing(tx: Tx, uid: number, viewer: UserViewer, offset: number, limit: number) {
  return listLinked(tx, "following", uid, viewer, offset, limit);
}
