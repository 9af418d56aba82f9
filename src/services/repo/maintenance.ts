import { existsSync } from "node:fs";
import type { Env } from "../env.ts";
import type { RepoRow } from "../../db/schema/index.ts";
import * as repos from "../../models/repo.ts";
import * as users from "../../models/user.ts";
import { installHooks } from "../../git/hooks.ts";
import { gitDirOf } from "./lookup.ts";
import { selfCommand } from "./hook-command.ts";

/** Calls `fn` with every repository's git directory that exists on disk. */
async function eachRepo(env: Env, fn: (gitDir: string, repo: RepoRow) => void | Promise<void>): Promise<number> {
  let after = 0;
  let n = 0;
  for (;;) {
    const page = repos.listReposAfter(env.db, after, 200);
    if (page.length === 0) return n;
    for (const repo of page) {
      after = repo.id;
      const owner = users.getUserById(env.db, repo.ownerId);
      if (!owner) continue;
      const dir = gitDirOf(env, owner, repo);
      if (!existsSync(dir)) {
        env.log.warn("repository directory missing", { repo: `${owner.name}/${repo.name}`, path: dir });
        continue;
      }
      await fn(dir, repo);
      n++;
    }
  }
}

/** `hearth admin regenerate hooks`: rewrites every repository's hooks to call this executable. */
export function regenerateHooks(env: Env): Promise<number> {
  const command = selfCommand();
  return eachRepo(env, (dir) => installHooks(dir, command));
}

/** The daily pass, as Gitea's git gc cron: every repository repacked with a bitmap, one at a time. */
export function repackAll(env: Env): Promise<number> {
  return eachRepo(env, (dir) => env.housekeeper.runNow(dir));
}
