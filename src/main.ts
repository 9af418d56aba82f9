#!/usr/bin/env bun
import type { Command } from "./cli/command.ts";
import { hookCommand, isHookName, runHook } from "./cli/hook.ts";
import { VERSION } from "./version.ts";

/**
 * The top-level commands: name and description for `hearth --help`, and the module that defines
 * the command, imported only when it is the one asked for. A command's module brings in its share
 * of hearth (`web` the HTTP layer, `admin` the account services): loading all of them made `web`
 * hold every admin command's services too, and a push's hooks start without any.
 */
const COMMANDS: { name: string; description: string; load: () => Promise<Command> }[] = [
  { name: "web", description: "Start the hearth web server", load: async () => (await import("./cli/web.ts")).webCommand },
  { name: "admin", description: "Perform common administrative operations", load: async () => (await import("./cli/admin.ts")).adminCommand },
  { name: "generate", description: "Generate secrets and keys", load: async () => (await import("./cli/generate.ts")).generateCommand },
  { name: "actions", description: "Manage Gitea Actions", load: async () => (await import("./cli/actions.ts")).actionsCommand },
  { name: hookCommand.name, description: hookCommand.description, load: async () => hookCommand },
  {
    name: "dump-repo",
    description: "Dump a repository (git data, milestones, labels, issues, comments, pull requests, reviews, releases) from another forge or from this instance to a directory",
    load: async () => (await import("./cli/dump-repo.ts")).dumpRepoCommand,
  },
  {
    name: "restore-repo",
    description: "Restore a repository from a dump directory into a new or empty repository",
    load: async () => (await import("./cli/restore-repo.ts")).restoreRepoCommand,
  },
];

/** The command tree, with the named command loaded whole and the others by name and description only. */
export async function rootCommand(wanted: string | undefined): Promise<Command> {
  const subcommands = await Promise.all(COMMANDS.map((c) => (c.name === wanted ? c.load() : { name: c.name, description: c.description })));
  return {
    name: "hearth",
    description: `a self-hosted forge that speaks Gitea's API (version ${VERSION.hearth}, Gitea API ${VERSION.api})`,
    subcommands,
  };
}

/** Every command loaded, for the test that its module and this table agree. */
export const loadAllCommands = () => Promise.all(COMMANDS.map(async (c) => ({ listed: c, loaded: await c.load() })));

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
  // Like Gitea, no command means `web`.
  const args = argv.length === 0 || argv[0]!.startsWith("-") && argv[0] !== "--help" && argv[0] !== "-h" ? ["web", ...argv] : argv;
  // `hearth help admin …` is `hearth admin … --help`: the command asked for is the word after `help`.
  const wanted = args[0] === "help" ? args[1] : args[0];
  const [{ dispatch, UsageError }, { HearthError }, root] = await Promise.all([import("./cli/command.ts"), import("./lib/errors.ts"), rootCommand(wanted)]);
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

if (import.meta.main) void main(process.argv.slice(2)).then((code) => process.exit(code));
