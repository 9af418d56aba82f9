import type { Env } from "../env.ts";
import type { UserRow } from "../../db/schema/index.ts";
import * as users from "../../models/user.ts";

export function findUserByEmail(env: Env, email: string): UserRow | undefined {
  const uid = users.emailOwner(env.db, email);
  return uid === undefined ? undefined : users.getUserById(env.db, uid);
}
