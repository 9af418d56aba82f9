#!/usr/bin/env bun
import { dispatch, UsageError, type Command } from "./cli/command.ts";
import { webCommand } from "./cli/web.ts";
import { adminCommand } from "./cli/admin.ts";
import { generateCommand } from "./cli/generate.ts";
import { hookCommand } from "./cli/hook.ts";
import { dumpRepoCommand } from "./cli/dump-repo.ts";
import { restoreRepoCommand } from "./cli/restore-repo.ts";
import { HearthError } from "./lib/errors.ts";
import { VERSION } from "./version.ts";

const root: Command = {
  name: "hearth",
  description: `a self-hosted forge that speaks Gitea's API (version ${VERSION.hearth}, Gitea API ${VERSION.api})`,
  subcommands: [webCommand, adminCommand, generateCommand, hookCommand, dumpRepoCommand, restoreRepoCommand],
};

async function main(argv: string[]): Promise<number> {
  if (argv[0] === "--version" || argv[0] === "-v") {
    process.stdout.write(`hearth version ${VERSION.hearth} (Gitea API ${VERSION.api})\n`);
    return 0;
  }
  // Like Gitea, no command means `web`.
  const args = argv.length === 0 || argv[0]!.startsWith("-") && argv[0] !== "--help" && argv[0] !== "-h" ? ["web", ...argv] : argv;
  try {
    return await dispatch(root, args);
  } catch (err) {
    const msg = err instanceof UsageError || err instanceof HearthError || err instanceof Error ? err.message : String(err);
    process.stderr.write(`hearth: ${msg}\n`);
    return err instanceof UsageError ? 2 : 1;
  }
}

process.exit(await main(process.argv.slice(2)));
