import type { Flag } from "./command.ts";
import { loadConfig } from "../config/load.ts";
import { openDatabase } from "../db/client.ts";
import { createLogger } from "../lib/log.ts";
import type { Env } from "../services/env.ts";
import { composeEnv } from "../compose.ts";

export const configFlags: Flag[] = [
  { name: "config", short: "c", type: "string", description: "configuration file (default: {work-path}/custom/conf/app.ini)" },
  { name: "work-path", short: "w", type: "string", description: "work path (default: HEARTH_WORK_DIR or the current directory)" },
  { name: "custom-path", type: "string", description: "custom path (default: HEARTH_CUSTOM or {work-path}/custom)" },
];

export interface Runtime {
  env: Env;
  close(): void;
}

/**
 * Loads the configuration, opens the database and composes the environment (src/compose.ts), for
 * the server and the admin commands alike.
 *
 * A missing SECRET_KEY / INTERNAL_TOKEN is generated and written to the config file here too, not
 * only by `web` (Gitea likewise saves a generated INTERNAL_TOKEN from any command): an admin command
 * run before the first server start must seal data (two-factor secrets) with the key the server will
 * later read, not with a throwaway one.
 */
export async function openRuntime(
  flags: Record<string, string | boolean | undefined>,
  opts: { portOverride?: number; persistSecrets?: boolean } = {},
): Promise<Runtime> {
  const { settings } = await loadConfig({
    configFile: flags.config as string | undefined,
    workPath: flags["work-path"] as string | undefined,
    customPath: flags["custom-path"] as string | undefined,
    portOverride: opts.portOverride,
    persistSecrets: opts.persistSecrets ?? true,
  });
  const log = createLogger(settings.log.level);
  const database = openDatabase(settings.database.path);
  return { env: composeEnv(settings, database.db, log), close: () => database.close() };
}

/** Runs `fn` against an opened runtime and always closes the database afterwards. */
export async function withRuntime<T>(
  flags: Record<string, string | boolean | undefined>,
  fn: (env: Env) => T | Promise<T>,
): Promise<T> {
  const rt = await openRuntime(flags);
  try {
    return await fn(rt.env);
  } finally {
    rt.close();
  }
}
