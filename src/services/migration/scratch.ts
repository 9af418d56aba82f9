import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Settings } from "../../config/settings.ts";

/**
 * Where migrations keep their downloads while they run: `APP_DATA_PATH/tmp/migrate/`. Kept apart
 * from the migration code so the server's start can clear it without loading that code.
 */
const root = (settings: Settings) => join(settings.server.appDataPath, "tmp", "migrate");

/** A fresh directory name for one migration's dump. */
export const scratchDir = (settings: Settings): string => join(root(settings), randomUUID());

/** Removes what migrations cut short by a stop or a crash left behind; called once the server starts. */
export function clearMigrationScratch(settings: Settings): void {
  rmSync(root(settings), { recursive: true, force: true });
}
