#!/usr/bin/env bun
import type { Command } from "./cli/command.ts";
import { hookCommand, isHookName, runHook } from "./cli/hook.ts";
import { VERSION } from "./version.ts";

/**
 * The command tree. Its modules bring in the rest of hearth (database, services, the HTTP layer),
 * so they are imported only when a command needs them: a push's hooks start without them.
 */
async function rootCommand(): Promise<Command> {
  const [{ webCommand }, { adminCommand }, { generateCommand }, { dumpRepoCommand }, { restoreRepoCommand }] = await Promise.all([
    import("./cli/web.ts"),
    import("./cli/admin.ts"),
    import("./cli/generate.ts"),
    import("./cli/dump-repo.ts"),
    import("./cli/restore-repo.ts"),
  ]);
  return {
    name: "hearth",
    description: `a self-hosted forge that speaks Gitea's API (version ${VERSION.hearth}, Gitea API ${VERSION.api})`,
    subcommands: [webCommand, adminCommand, generateCommand, hookCommand, dumpRepoCommand, restoreRepoCommand],
  };
}

/** The JIT policy of every command but `web`: a little reluctant, for the rest of their start-up. */
const COMMAND_JIT_POLICY = 8;

async function main(argv: string[]): Promise<number> {
  if (argv[0] === "--version" || argv[0] === "-v") {
    process.stdout.write(`hearth version ${VERSION.hearth} (Gitea API ${VERSION.api})\n`);
    return 0;
  }
  // git runs `hearth hook pre-receive` and `post-receive` in every push and waits for both: loading
  // every command's modules first made each start take ~120 ms of CPU instead of ~10 (bench/README.md).
  if (argv.length === 2 && argv[0] === "hook" && isHookName(argv[1])) {
    return runHook(argv[1]).catch((err) => {
      process.stderr.write(`hearth: ${err instanceof Error ? err.message : String(err)}\n`);
      return 1;
    });
  }
  const [{ dispatch, UsageError }, { HearthError }, root] = await Promise.all([import("./cli/command.ts"), import("./lib/errors.ts"), rootCommand()]);
  // Like Gitea, no command means `web`.
  const args = argv.length === 0 || argv[0]!.startsWith("-") && argv[0] !== "--help" && argv[0] !== "-h" ? ["web", ...argv] : argv;
  // The executable starts with the JIT very reluctant (scripts/build.ts), which `web` keeps until
  // requests arrive in numbers (http/jit-on-load.ts); a command's own work may loop over a whole
  // repository or dump, so it gets the JIT as soon as the start-up code has run.
  if (args[0] !== "web") Bun.unsafe.setJITPolicy(COMMAND_JIT_POLICY);
  try {
    return await dispatch(root, args);
  } catch (err) {
    const msg = err instanceof UsageError || err instanceof HearthError || err instanceof Error ? err.message : String(err);
    process.stderr.write(`hearth: ${msg}\n`);
    return err instanceof UsageError ? 2 : 1;
  }
}

void main(process.argv.slice(2)).then((code) => process.exit(code));
