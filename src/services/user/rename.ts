import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import type { UserRow } from "../../db/schema/index.ts";
import * as users from "../../models/user.ts";
import { moveOwnerDir, ownerDirExists } from "../../git/repo-init.ts";
import { Invalid } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { usernameProblem } from "./names.ts";

/**
 * Gitea's RenameUser, for users and organizations alike: the name must be usable and free (a change
 * of letter case only is always allowed); the old name keeps redirecting to the account, and the
 * repositories' directory moves with it. The database and the directory change together or not at all.
 */
export function renameAccount(env: Env, account: UserRow, newName: string): UserRow {
  if (newName === account.name) return account;
  const problem = usernameProblem(newName);
  if (problem) throw new Invalid(problem);
  const caseOnly = newName.toLowerCase() === account.lowerName;
  const root = env.settings.repository.root;
  let moved = false;
  try {
    return writeTx(env.db, (tx) => {
      if (!caseOnly && users.getUserByName(tx, newName)) throw new Invalid(`user already exists [name: ${newName}]`);
      if (!caseOnly && ownerDirExists(root, newName)) {
        throw new Invalid(`user already exists [name: ${newName}]`);
      }
      const updated = users.renameUser(tx, account.id, account.name, newName, nowUnix());
      moveOwnerDir(root, account.name, newName);
      moved = !caseOnly;
      return updated ?? account;
    });
  } catch (err) {
    if (moved) moveOwnerDir(root, newName, account.name);
    throw err;
  }
}
