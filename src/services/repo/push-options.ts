import type { Env } from "../env.ts";
import * as repos from "../../models/repo.ts";
import * as users from "../../models/user.ts";
import { NotFound } from "../../lib/errors.ts";
import { repoPermission } from "../access/permission.ts";
import { permitsRepoAccess } from "../access/repo-access.ts";
import { pusherOf } from "../actions/bot.ts";
import { editRepo } from "./edit.ts";

/**
 * `git push -o key=value` options as Gitea's GitPushOptions reads them: `key=value`, or a bare
 * `key` meaning an empty value; a later option overrides an earlier one.
 */
export function parsePushOptions(options: readonly string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const option of options) {
    const eq = option.indexOf("=");
    if (eq < 0) map.set(option, "");
    else map.set(option.slice(0, eq), option.slice(eq + 1));
  }
  return map;
}

const TRUE = new Set(["1", "t", "T", "TRUE", "true", "True"]);
const FALSE = new Set(["0", "f", "F", "FALSE", "false", "False"]);

/** Gitea's GitPushOptions.Bool: a bare option is true, Go's ParseBool spellings count, anything else is as if not given. */
export function boolOption(options: Map<string, string>, key: string): boolean | undefined {
  const value = options.get(key);
  if (value === undefined) return undefined;
  if (value === "" || TRUE.has(value)) return true;
  if (FALSE.has(value)) return false;
  return undefined;
}

/**
 * After a push, Gitea's `repo.private` and `repo.template` options (on any push, not only one that
 * created the repository): the pusher must own or administer the repository, else the hook fails
 * with Gitea's "Permissions denied" (the pushed refs stay, as post-receive cannot undo them). The
 * change goes through the repository edit, so it keeps the rules the API's edit keeps: a fork
 * keeps its base repository's visibility, and a repository turned private loses its stars.
 */
export async function applyPushOptions(env: Env, repoId: number, pusherId: number, options: readonly string[], actionsTaskId?: number): Promise<void> {
  const parsed = parsePushOptions(options);
  const isPrivate = boolOption(parsed, "repo.private");
  const isTemplate = boolOption(parsed, "repo.template");
  if (isPrivate === undefined && isTemplate === undefined) return;

  const repo = repos.getRepoById(env.db, repoId);
  const owner = repo && users.getUserById(env.db, repo.ownerId);
  const pusher = pusherOf(env, pusherId, actionsTaskId, (id) => users.getUserById(env.db, id));
  if (!repo || !owner || !pusher) throw new NotFound("repository or pusher does not exist");
  const rc = { repo, owner, perm: repoPermission(env, pusher, repo, owner) };
  if (!permitsRepoAccess(rc, pusher, { admin: true })) throw new NotFound("Permissions denied");
  await editRepo(env, rc, { private: isPrivate, template: isTemplate });
}
