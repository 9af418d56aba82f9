import type { Env } from "../env.ts";
import { UserType, type UserRow } from "../../db/schema/index.ts";
import * as users from "../../models/user.ts";
import { NotFound } from "../../lib/errors.ts";
import { throwIfRenamed } from "../org/lookup.ts";

/**
 * Accounts looked up, read only: apart from account.ts (creation, edits, deletion and what deletion
 * reaches), so that every request's access check can name an account without loading it.
 */

export function findUserByEmail(env: Env, email: string): UserRow | undefined {
  const uid = users.emailOwner(env.db, email);
  return uid === undefined ? undefined : users.getUserById(env.db, uid);
}

/** An individual user by name, or Gitea's 404. */
export function requireUser(env: Env, name: string): UserRow {
  const u = users.getUserByName(env.db, name);
  if (!u) throwIfRenamed(env, name);
  if (!u || u.type !== UserType.Individual) throw new NotFound(`user redirect does not exist [name: ${name}]`);
  return u;
}

/** A user or organization by name (Gitea's UserAssignmentAPI matches both), or Gitea's 404. */
export function requireAccount(env: Env, name: string): UserRow {
  const u = users.getUserByName(env.db, name);
  if (!u) throwIfRenamed(env, name);
  if (!u) throw new NotFound(`user redirect does not exist [name: ${name}]`);
  return u;
}

export function getUserById(env: Env, id: number): UserRow | undefined {
  return users.getUserById(env.db, id);
}

/** How many individual users there are (organizations not counted). */
export function countUsers(env: Env): number {
  return users.listUsers(env.db, { type: UserType.Individual, offset: 0, limit: 1 }).total;
}
