import { idsParam, inIdsPlaceholder } from "./id-list.ts";
import { and, asc, count, desc, eq, inArray, or, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { containsText } from "./like.ts";
import { prepared } from "../db/prepared.ts";
import { users, emailAddresses, twoFactors, userRedirects, repositories, UserType, type NewUserRow, type UserRow } from "../db/schema/index.ts";

export function getUserById(tx: Tx, id: number): UserRow | undefined {
  return prepared(tx, "user.byId", (t) =>
    t.select().from(users).where(eq(users.id, sql.placeholder("id"))).prepare(),
  ).get({ id });
}

export function getUserByName(tx: Tx, name: string): UserRow | undefined {
  return prepared(tx, "user.byLowerName", (t) =>
    t.select().from(users).where(eq(users.lowerName, sql.placeholder("lowerName"))).prepare(),
  ).get({ lowerName: name.toLowerCase() });
}

export function getUsersByIds(tx: Tx, ids: number[]): UserRow[] {
  if (ids.length === 0) return [];
  return prepared(tx, "user.byIds", (t) => t.select().from(users).where(inIdsPlaceholder(users.id)).prepare()).all(idsParam(ids));
}

export function insertUser(tx: Tx, row: NewUserRow): UserRow {
  return tx.insert(users).values(row).returning().get();
}

export function updateUser(tx: Tx, id: number, patch: Partial<NewUserRow>): UserRow | undefined {
  return tx.update(users).set(patch).where(eq(users.id, id)).returning().get();
}

export function deleteUserRow(tx: Tx, id: number): void {
  tx.delete(users).where(eq(users.id, id)).run();
}

export function countAdmins(tx: Tx): number {
  return tx
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.isAdmin, true), eq(users.type, UserType.Individual)))
    .get()!.n;
}

export interface UserListFilter {
  type?: number;
  loginSource?: number;
  loginName?: string;
  /** Case-insensitive substring of name, full name or (where visible) email. */
  keyword?: string;
  keywordMatchesEmail?: boolean;
  /** Whose emails a keyword may match: all, only public ones, or public ones plus the searcher's own. */
  emailVisibleTo?: "all" | "public" | { selfId: number };
  id?: number;
  /** Visibility values the searcher may see... */
  visibleIn?: number[];
  /** ...plus this user whatever its visibility (the searcher themself). */
  alsoId?: number;
  isActive?: boolean;
  isAdmin?: boolean;
  isRestricted?: boolean;
  isProhibitLogin?: boolean;
  hasTwoFactor?: boolean;
  orderBy?: "id" | "name" | "created" | "updated";
  descending?: boolean;
  offset: number;
  limit: number;
}


function whereFor(f: UserListFilter) {
  const conds = [];
  if (f.type !== undefined) conds.push(eq(users.type, f.type));
  if (f.loginSource !== undefined) conds.push(eq(users.loginSource, f.loginSource));
  if (f.loginName !== undefined) conds.push(eq(users.loginName, f.loginName));
  if (f.id !== undefined) conds.push(eq(users.id, f.id));
  if (f.isActive !== undefined) conds.push(eq(users.isActive, f.isActive));
  if (f.isAdmin !== undefined) conds.push(eq(users.isAdmin, f.isAdmin));
  if (f.isRestricted !== undefined) conds.push(eq(users.isRestricted, f.isRestricted));
  if (f.isProhibitLogin !== undefined) conds.push(eq(users.prohibitLogin, f.isProhibitLogin));
  if (f.hasTwoFactor !== undefined) {
    const enrolled = sql`EXISTS (SELECT 1 FROM ${twoFactors} WHERE ${twoFactors.uid} = ${users.id})`;
    conds.push(f.hasTwoFactor ? enrolled : sql`NOT ${enrolled}`);
  }
  if (f.visibleIn) {
    const visible = inArray(users.visibility, f.visibleIn);
    conds.push(f.alsoId !== undefined ? or(visible, eq(users.id, f.alsoId))! : visible);
  }
  if (f.keyword) {
    const matches = [containsText(users.lowerName, f.keyword), containsText(users.fullName, f.keyword)];
    if (f.keywordMatchesEmail) {
      const emailMatch = containsText(users.email, f.keyword);
      const who = f.emailVisibleTo ?? "public";
      if (who === "all") matches.push(emailMatch);
      else if (who === "public") matches.push(and(emailMatch, eq(users.keepEmailPrivate, false))!);
      else matches.push(and(emailMatch, or(eq(users.keepEmailPrivate, false), eq(users.id, who.selfId)))!);
    }
    conds.push(or(...matches)!);
  }
  return conds.length ? and(...conds) : undefined;
}

export function listUsers(tx: Tx, f: UserListFilter): { rows: UserRow[]; total: number } {
  const where = whereFor(f);
  const column = {
    id: users.id,
    name: users.lowerName,
    created: users.createdUnix,
    updated: users.updatedUnix,
  }[f.orderBy ?? "id"];
  const order = f.descending ? desc(column) : asc(column);
  const rows = tx.select().from(users).where(where).orderBy(order).limit(f.limit).offset(f.offset).all();
  const total = tx.select({ n: count() }).from(users).where(where).get()!.n;
  return { rows, total };
}

export function emailOwner(tx: Tx, email: string): number | undefined {
  return prepared(tx, "email.owner", (t) =>
    t
      .select({ uid: emailAddresses.uid })
      .from(emailAddresses)
      .where(eq(emailAddresses.lowerEmail, sql.placeholder("lowerEmail")))
      .prepare(),
  ).get({ lowerEmail: email.toLowerCase() })?.uid;
}

/** Where a former name now points, if anywhere. */
export function getUserRedirect(tx: Tx, name: string): number | undefined {
  return tx
    .select({ id: userRedirects.redirectUserId })
    .from(userRedirects)
    .where(eq(userRedirects.lowerName, name.toLowerCase()))
    .get()?.id;
}

/** A name taken by a new account stops redirecting. */
export function dropUserRedirect(tx: Tx, name: string): void {
  tx.delete(userRedirects).where(eq(userRedirects.lowerName, name.toLowerCase())).run();
}

/**
 * Renames an account: its row, the owner name its repositories carry, and a redirect from the old
 * name (any redirect that pointed elsewhere under the new name goes).
 */
export function renameUser(tx: Tx, id: number, oldName: string, newName: string, unix: number): UserRow | undefined {
  const updated = tx
    .update(users)
    .set({ name: newName, lowerName: newName.toLowerCase(), updatedUnix: unix })
    .where(eq(users.id, id))
    .returning()
    .get();
  tx.update(repositories).set({ ownerName: newName }).where(eq(repositories.ownerId, id)).run();
  dropUserRedirect(tx, newName);
  if (oldName.toLowerCase() !== newName.toLowerCase()) {
    dropUserRedirect(tx, oldName);
    tx.insert(userRedirects).values({ lowerName: oldName.toLowerCase(), redirectUserId: id }).run();
  }
  return updated;
}
