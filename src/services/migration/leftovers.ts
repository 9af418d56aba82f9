import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Settings } from "../../config/settings.ts";
import type { Env } from "../env.ts";
import { reposWithStatus } from "../../models/repo-status.ts";
import { getUserById } from "../../models/user.ts";
import { RepoStatus } from "../../db/schema/index.ts";

/**
 * What a migration or restore cut short by a stop or a crash leaves: its download under
 * `APP_DATA_PATH/tmp/migrate/`, and the repository it had created but not yet filled (still
 * marked being migrated). Kept apart from the migration code so the server's start can clear both
 * without loading that code.
 */
const root = (settings: Settings) => join(settings.server.appDataPath, "tmp", "migrate");

/** A fresh directory name for one migration's dump. */
export const scratchDir = (settings: Settings): string => join(root(settings), crypto.randomUUID());

/** Called once the server starts, before any migration can run: removes both kinds of leftovers. */
export async function clearMigrationLeftovers(env: Env): Promise<void> {
  rmSync(root(env.settings), { recursive: true, force: true });
  const halfMade = reposWithStatus(env.db, RepoStatus.BeingMigrated);
  if (halfMade.length === 0) return;
  const [{ discardRepo }, { asSystem }] = await Promise.all([import("../repo/delete.ts"), import("../access/repo-access.ts")]);
  for (const repo of halfMade) {
    const owner = getUserById(env.db, repo.ownerId);
    if (!owner) continue;
    env.log.warn("removing a repository whose migration was cut short", { repo: `${owner.name}/${repo.name}` });
    // hearth undoing its own half-made repository, as a failed import does.
    discardRepo(env, asSystem({ owner, repo }, { owner: true }));
  }
}
